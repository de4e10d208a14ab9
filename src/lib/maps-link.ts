/**
 * docs/reference.md section 5, "Map link": coordinate extraction starts as soon as the link field holds a link
 * of a maps service in its long, legacy, short or app-share form. This decides only whether it does;
 * the server reads (or resolves) the coordinates.
 *
 *   long       google.<tld>/maps/...  (e.g. /maps/place/Name/@21.42,39.82,17z, /maps?q=lat,lng, /maps/search/?api=1&query=...)
 *   legacy     maps.google.<tld>/...  (e.g. maps.google.com/?q=21.42,39.82)
 *   short      goo.gl/maps/<id>
 *   app_share  maps.app.goo.gl/<id>
 */
export type MapsLinkForm = 'long' | 'legacy' | 'short' | 'app_share';

const START = String.raw`(?:^|[\s(<"'\[])(?:https?:\/\/)?`;
const TLD = String.raw`(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})`;
const END = String.raw`(?=$|[\s)>"'\]])`;

const FORMS: [MapsLinkForm, RegExp][] = [
  ['app_share', new RegExp(String.raw`${START}maps\.app\.goo\.gl\/[A-Za-z0-9_-]+[^\s)>"'\]]*${END}`, 'i')],
  ['short', new RegExp(String.raw`${START}goo\.gl\/maps\/[A-Za-z0-9_-]+[^\s)>"'\]]*${END}`, 'i')],
  [
    'legacy',
    new RegExp(
      String.raw`${START}maps\.google\.${TLD}\/?(?:maps)?[/?][^\s)>"'\]]*(?:[?&](?:q|ll|daddr|saddr|cid)=|\/@)[^\s)>"'\]]*${END}`,
      'i',
    ),
  ],
  ['long', new RegExp(String.raw`${START}(?:www\.)?google\.${TLD}\/maps(?:\/|\?|@)[^\s)>"'\]]*${END}`, 'i')],
];

/** The form of the first maps link in `text`, or null when it holds none. */
export function mapsLinkForm(text: string | null | undefined): MapsLinkForm | null {
  if (!text) return null;
  for (const [form, pattern] of FORMS) {
    if (pattern.test(text)) return form;
  }
  return null;
}

/** Whether `text` holds a maps link whose coordinates the server can extract. */
export function containsMapsLink(text: string | null | undefined): boolean {
  return mapsLinkForm(text) !== null;
}

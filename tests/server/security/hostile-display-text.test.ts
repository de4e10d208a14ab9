import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubConfigureRequestSchema } from '../../../contract/github';
import { formatControlMessage } from '../../../contract/display-text';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused, snapshot } from './hostile-support';

/**
 * Fields people read as names (a full name, a mosque's name and place, a silence's comment, an image's
 * description) refuse bidi and other invisible format characters, which reach alarms, notifications and
 * the scheduler's lists; a full name, which can impersonate, is written in one script. Names in other
 * scripts than Latin are welcome.
 */
describe('hostile input: display fields', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
  });
  afterAll(() => t.close());

  let n = 0;
  const createUser = (fullName: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/users',
      token: admin,
      payload: {
        username: `person${++n}`,
        email: `person${n}@example.com`,
        full_name: fullName,
        password: 'Person-pass-1',
        role: 'user',
      },
    });

  // U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+200B ZERO WIDTH SPACE, U+FEFF, U+061C ARABIC LETTER MARK
  const CONTROLS = ['\u202e', '\u2066', '\u200b', '\ufeff', '\u061c'];

  it.each(CONTROLS.map((c) => [`U+${c.codePointAt(0)!.toString(16).toUpperCase()}`, c]))(
    'refuses %s in every display field',
    async (_name, control) => {
      const before = await snapshot(t);
      expectRefused(
        await createUser(`Ali ${control}exe.gpj Khan`),
        400,
        /Full name may not contain bidi or other invisible format characters/,
      );
      const mosque = (fields: Record<string, unknown>) =>
        t.request({
          method: 'POST',
          url: '/api/config/mosques',
          token: admin,
          payload: { name: 'Al Noor', languages: ['ar'], ...fields },
        });
      // Inside the text: trimming takes U+FEFF off the ends, as it should.
      expectRefused(await mosque({ name: `Al ${control}Noor` }), 400, /Name may not contain bidi/);
      expectRefused(await mosque({ name_ar: `ال${control}نور` }), 400, /may not contain bidi/);
      expectRefused(await mosque({ city: `Lon${control}don` }), 400, /may not contain bidi/);
      const silence = await t.request({
        method: 'POST',
        url: '/api/alarms/silences',
        token: admin,
        payload: { kind: 'recorder_died', duration_minutes: 10, comment: `main${control}tenance` },
      });
      expectRefused(silence, 400, /The comment may not contain bidi/);
      expect(await snapshot(t)).toEqual(before);
    },
  );

  it.each(CONTROLS)('refuses %j in the git user name the server commits as', (control) => {
    const result = githubConfigureRequestSchema.safeParse({
      github_pat: 'ghp_' + 'a'.repeat(36),
      github_repo_url: 'https://github.com/owner/repo',
      github_user: `Capture${control}Bot`,
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([formatControlMessage('Git user name')]);
  });

  it('refuses a full name that mixes scripts, which can pass for another person', async () => {
    const before = await snapshot(t);
    expectRefused(
      await createUser('\u0410dmin Istrator'),
      400,
      /Full name mixes the Cyrillic and Latin scripts; write it in one/,
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it.each([
    ['an Arabic full name', '\u0645\u062d\u0645\u062f \u0628\u0646 \u0639\u0628\u062f\u0627\u0644\u0644\u0647'],
    // Urdu writes ZWNJ (U+200C) inside words: it is no bidi control.
    [
      'an Urdu full name with a zero-width non-joiner',
      '\u0639\u0645\u0631\u0627\u0646 \u062e\u0627\u0646\u200c\u0632\u0627\u062f\u06c1',
    ],
    ['a Turkish full name', '\u00c7a\u011fr\u0131 \u015e\u00fckr\u00fc \u00d6zt\u00fcrk'],
    ['a Japanese full name (kanji with kana)', '\u5c71\u7530 \u305f\u308d\u3046'],
  ])('accepts %s', async (_name, fullName) => {
    const response = await createUser(fullName);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.full_name).toBe(fullName);
  });
});

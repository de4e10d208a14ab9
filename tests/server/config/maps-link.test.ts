import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coordinatesInUrl, findMapsUrl, mapsLinkForm, MapsLinkResolver } from '../../../server/geo/maps-link';
import { closedPort, startShortLinkServer } from './short-link-server';

describe('map links: forms read without the network', () => {
  const offline = new MapsLinkResolver({ fetch: () => Promise.reject(new Error('no network in this test')) });

  it.each([
    ['long /@lat,lng,zoom', 'https://www.google.com/maps/@51.5175,-0.0653,15z', 51.5175, -0.0653],
    [
      'long place link prefers the pin (!3d!4d) over the viewport (@)',
      'https://www.google.com/maps/place/Masjid+al-Haram/@21.4224779,39.8251832,17z/data=!3m1!4b1!4m6!3m5!1s0x15c21b4ced818775:0x98ab2469cf70c9ce!8m2!3d21.4224779!4d39.8262375!16zL20vMDJ6M3A',
      21.4224779,
      39.8262375,
    ],
    [
      'long !3d!4d only',
      'https://www.google.com/maps/place/X/data=!4m2!3m1!1s0x0:0x0!3d-6.1702!4d106.831',
      -6.1702,
      106.831,
    ],
    ['long ?q=lat,lng', 'https://www.google.com/maps?q=30.0457,31.2627', 30.0457, 31.2627],
    ['long ?q=lat,+lng with a space', 'https://www.google.com/maps?q=30.0457,+31.2627&z=16', 30.0457, 31.2627],
    ['long ?q=loc:lat,lng', 'https://www.google.com/maps?q=loc:41.0054,28.9768', 41.0054, 28.9768],
    ['long ll=', 'https://www.google.com/maps?ll=40.7859,-73.9493&z=15', 40.7859, -73.9493],
    ['long search api query=', 'https://www.google.com/maps/search/?api=1&query=24.8122%2C67.0674', 24.8122, 67.0674],
    ['long search path', 'https://www.google.co.uk/maps/search/51.5175,+-0.0653', 51.5175, -0.0653],
    ['long country domain', 'https://www.google.com.sa/maps/@21.4225,39.8262,17z', 21.4225, 39.8262],
    ['legacy maps.google.com/?q=', 'https://maps.google.com/?q=-33.9196,151.0766', -33.9196, 151.0766],
    [
      'legacy maps.google.co.uk/maps?ll=',
      'http://maps.google.co.uk/maps?ll=51.5175,-0.0653&spn=0.01',
      51.5175,
      -0.0653,
    ],
    ['legacy without scheme', 'maps.google.com/?q=30.0457,31.2627', 30.0457, 31.2627],
    [
      'link inside text',
      'Our mosque: https://www.google.com/maps/@51.5175,-0.0653,15z (entrance on Whitechapel Road)',
      51.5175,
      -0.0653,
    ],
    ['typed coordinates', '21.4225, 39.8262', 21.4225, 39.8262],
  ])('%s', async (_label, text, latitude, longitude) => {
    const found = await offline.extract(text);
    expect(found.latitude).toBeCloseTo(latitude, 7);
    expect(found.longitude).toBeCloseTo(longitude, 7);
    expect(found.method).toBe(_label === 'typed coordinates' ? 'manual' : 'map_link');
  });

  it('names each form', () => {
    const form = (text: string) => {
      const url = findMapsUrl(text);
      return url && mapsLinkForm(url);
    };
    expect(form('https://www.google.com/maps/@1,2,3z')).toBe('long');
    expect(form('https://maps.google.com/?q=1,2')).toBe('legacy');
    expect(form('https://goo.gl/maps/AbC123')).toBe('short');
    expect(form('https://maps.app.goo.gl/AbC123')).toBe('app_share');
    expect(form('https://example.com/maps/@1,2,3z')).toBeNull();
    expect(form('https://www.google.com.evil.example/maps/@1,2,3z')).toBeNull();
    expect(form('https://goo.gl/AbC123')).toBeNull();
  });

  it('rejects out-of-range coordinates and text without a link', async () => {
    expect(coordinatesInUrl(new URL('https://www.google.com/maps/@95.1,10,15z'))).toBeNull();
    expect(coordinatesInUrl(new URL('https://www.google.com/maps?q=10,200'))).toBeNull();
    await expect(offline.extract('Masjid al-Haram, Mecca')).rejects.toThrow(/No Google Maps link found/);
    await expect(offline.extract('https://example.com/maps/@21.4,39.8,15z')).rejects.toThrow(
      /No Google Maps link found/,
    );
  });
});

describe('map links: short forms resolved through their redirects', () => {
  let server: Awaited<ReturnType<typeof startShortLinkServer>>;
  let resolver: MapsLinkResolver;
  beforeAll(async () => {
    server = await startShortLinkServer();
    resolver = new MapsLinkResolver({ resolveOrigin: server.origin, timeoutMs: 1500 });
  });
  afterAll(() => server.close());

  it('resolves goo.gl/maps/... through one redirect', async () => {
    const found = await resolver.extract('https://goo.gl/maps/MeccaShort1');
    expect(found).toMatchObject({ latitude: 21.4224779, longitude: 39.8262375, method: 'map_link_redirect' });
    expect(server.hits).toContain('/maps/MeccaShort1');
  });

  it('resolves maps.app.goo.gl/... through two redirects, also when pasted without its scheme', async () => {
    expect(await resolver.extract('https://maps.app.goo.gl/Cairo2hops')).toMatchObject({
      latitude: 30.0457,
      longitude: 31.2627,
      method: 'map_link_redirect',
    });
    expect(await resolver.extract('see maps.app.goo.gl/Cairo2hops')).toMatchObject({
      latitude: 30.0457,
      longitude: 31.2627,
    });
  });

  it('reads the coordinates of a consent page link', async () => {
    expect(await resolver.extract('https://maps.app.goo.gl/Consent')).toMatchObject({
      latitude: -33.9196,
      longitude: 151.0766,
    });
  });

  it('reads the coordinates a maps page names when the final link has none', async () => {
    expect(await resolver.extract('https://maps.app.goo.gl/NoCoords')).toMatchObject({
      latitude: 40.7859,
      longitude: -73.9493,
    });
  });

  it('fails clearly for each way a link can go wrong', async () => {
    await expect(resolver.extract('https://maps.app.goo.gl/Blank')).rejects.toThrow(/does not lead to coordinates/);
    await expect(resolver.extract('https://maps.app.goo.gl/Missing')).rejects.toThrow(/answered 404/);
    await expect(resolver.extract('https://maps.app.goo.gl/Loop')).rejects.toThrow(/redirected more than 5 times/);
    await expect(resolver.extract('https://maps.app.goo.gl/Elsewhere')).rejects.toThrow(
      /led outside the maps service \(169\.254\.169\.254\)/,
    );
  });

  it('gives up after its timeout', async () => {
    const quick = new MapsLinkResolver({ resolveOrigin: server.origin, timeoutMs: 300 });
    const started = Date.now();
    await expect(quick.extract('https://maps.app.goo.gl/Hang')).rejects.toThrow(
      /Timed out after 0.3 s resolving the map link at maps\.app\.goo\.gl/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('says the network is unavailable when the service cannot be reached', async () => {
    const unreachable = new MapsLinkResolver({ resolveOrigin: await closedPort(), timeoutMs: 1500 });
    await expect(unreachable.extract('https://goo.gl/maps/MeccaShort1')).rejects.toThrow(
      /^Network unavailable: could not reach goo\.gl to resolve the map link \(ECONNREFUSED\)$/,
    );
    const dnsDown = new MapsLinkResolver({
      fetch: () =>
        Promise.reject(
          Object.assign(new TypeError('fetch failed'), {
            cause: Object.assign(new Error('getaddrinfo ENOTFOUND maps.app.goo.gl'), { code: 'ENOTFOUND' }),
          }),
        ),
    });
    await expect(dnsDown.extract('https://maps.app.goo.gl/x1')).rejects.toThrow(
      /Network unavailable: could not reach maps\.app\.goo\.gl .*ENOTFOUND/,
    );
  });

  it('sends no request for links that carry their coordinates', async () => {
    const before = server.hits.length;
    await resolver.extract('https://www.google.com/maps/@51.5175,-0.0653,15z');
    expect(server.hits.length).toBe(before);
  });
});

import { describe, expect, it } from 'vitest';
import { containsMapsLink, mapsLinkForm } from '../../../src/lib/maps-link';

describe('maps link detection (docs/reference.md section 5, Map link)', () => {
  it.each([
    [
      'https://www.google.com/maps/place/Masjid+al-Haram/@21.4224779,39.8251832,17z/data=!3m1!4b1!4m6!3m5!1s0x15c21b4ced818775:0x98ab2469cf70c9ce!8m2!3d21.4224779!4d39.8262375',
      'long',
    ],
    ['https://www.google.com/maps/@51.5175,-0.0653,15z', 'long'],
    ['https://www.google.com/maps?q=21.4225,39.8262', 'long'],
    ['https://www.google.co.uk/maps/search/?api=1&query=51.5175%2C-0.0653', 'long'],
    ['https://google.com.sa/maps/place/21.4225,39.8262', 'long'],
    ['www.google.com/maps?ll=40.7859,-73.9493', 'long'],
    ['https://maps.google.com/?q=21.4225,39.8262', 'legacy'],
    ['http://maps.google.co.uk/maps?q=51.5,-0.06&z=15', 'legacy'],
    ['maps.google.com/?ll=30.0457,31.2627', 'legacy'],
    ['https://goo.gl/maps/AbCdEf12345', 'short'],
    ['goo.gl/maps/xyz987', 'short'],
    ['https://maps.app.goo.gl/rXqF8sT6bKp2', 'app_share'],
    ['maps.app.goo.gl/rXqF8sT6bKp2?g_st=iw', 'app_share'],
  ])('recognises %s as the %s form', (text, form) => {
    expect(mapsLinkForm(text)).toBe(form);
    expect(containsMapsLink(text)).toBe(true);
  });

  it('finds a link inside other text, as pasted from a chat', () => {
    expect(mapsLinkForm('Our mosque: https://maps.app.goo.gl/rXqF8sT6bKp2 (main entrance)')).toBe('app_share');
    expect(mapsLinkForm('See\nhttps://www.google.com/maps/@21.42,39.82,17z\nthanks')).toBe('long');
    expect(mapsLinkForm('location "https://goo.gl/maps/AbC123"')).toBe('short');
  });

  it.each([
    '',
    '   ',
    'Masjid al-Haram, Mecca',
    '21.4225, 39.8262',
    'https://www.google.com/search?q=mosque',
    'https://google.com/maps',
    'https://maps.app.goo.gl/',
    'https://goo.gl/abc123',
    'https://goo.gl/maps/',
    'https://notgoogle.com/maps/@21.42,39.82,17z',
    'https://www.google.com.evil.example/maps/@21.42,39.82,17z',
    'https://maps.apple.com/?ll=21.42,39.82',
    'https://www.openstreetmap.org/#map=17/21.42/39.82',
    'xmaps.app.goo.gl/abc',
  ])('does not start extraction for %j', (text) => {
    expect(mapsLinkForm(text)).toBeNull();
    expect(containsMapsLink(text)).toBe(false);
  });

  it('accepts null and undefined', () => {
    expect(containsMapsLink(null)).toBe(false);
    expect(containsMapsLink(undefined)).toBe(false);
  });
});

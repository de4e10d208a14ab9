import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geocodeResponseSchema } from '../../../contract/mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Offline reverse geocoding: mosques on six continents, each with its city, country and IANA zone. */
describe('POST /api/config/geocode', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
  });
  afterAll(() => t.close());

  const geocode = (payload: unknown) =>
    t.request({ method: 'POST', url: '/api/config/geocode', token, payload: payload as Record<string, unknown> });

  it.each([
    [
      'Masjid al-Haram',
      21.4225,
      39.8262,
      { city: 'Mecca', country: 'Saudi Arabia', country_code: 'SA', timezone: 'Asia/Riyadh' },
    ],
    [
      'Al-Azhar Mosque',
      30.0457,
      31.2627,
      { city: 'Cairo', country: 'Egypt', country_code: 'EG', timezone: 'Africa/Cairo' },
    ],
    [
      'Blue Mosque',
      41.0054,
      28.9768,
      { city: 'Istanbul', country: 'Turkey', country_code: 'TR', timezone: 'Europe/Istanbul' },
    ],
    [
      'East London Mosque',
      51.5175,
      -0.0653,
      { city: 'London', country: 'United Kingdom', country_code: 'GB', timezone: 'Europe/London' },
    ],
    [
      'Islamic Cultural Center of New York',
      40.7859,
      -73.9493,
      { city: 'New York City', country_code: 'US', timezone: 'America/New_York' },
    ],
    [
      'Istiqlal Mosque',
      -6.1702,
      106.831,
      { city: 'Jakarta', country: 'Indonesia', country_code: 'ID', timezone: 'Asia/Jakarta' },
    ],
    [
      'Masjid-e-Tooba',
      24.8122,
      67.0674,
      { city: 'Karachi', country: 'Pakistan', country_code: 'PK', timezone: 'Asia/Karachi' },
    ],
    [
      'Lakemba Mosque',
      -33.9196,
      151.0766,
      { city: 'Sydney', district: 'Lakemba', country: 'Australia', country_code: 'AU', timezone: 'Australia/Sydney' },
    ],
    [
      'Hassan II Mosque',
      33.6085,
      -7.6327,
      { city: 'Casablanca', country: 'Morocco', country_code: 'MA', timezone: 'Africa/Casablanca' },
    ],
    [
      'Grande Mosquée de Paris',
      48.842,
      2.3552,
      { city: 'Paris', country: 'France', country_code: 'FR', timezone: 'Europe/Paris' },
    ],
    [
      'a mosque in Toronto',
      43.6532,
      -79.3832,
      { city: 'Toronto', country: 'Canada', country_code: 'CA', timezone: 'America/Toronto' },
    ],
    [
      'a mosque in São Paulo',
      -23.5505,
      -46.6333,
      { city: 'São Paulo', country: 'Brazil', country_code: 'BR', timezone: 'America/Sao_Paulo' },
    ],
    [
      'a mosque in Johannesburg',
      -26.2041,
      28.0473,
      { city: 'Johannesburg', country: 'South Africa', country_code: 'ZA', timezone: 'Africa/Johannesburg' },
    ],
    [
      'a mosque in Tromsø',
      69.6496,
      18.956,
      { city: 'Tromsø', country: 'Norway', country_code: 'NO', timezone: 'Europe/Oslo' },
    ],
  ])('%s', async (_name, latitude, longitude, expected) => {
    const response = await geocode({ latitude, longitude });
    expect(response.statusCode).toBe(200);
    const { data } = geocodeResponseSchema.parse(response.json());
    expect(data).toMatchObject(expected);
  });

  it('names the district when the nearest place is not the city itself', async () => {
    const { data } = geocodeResponseSchema.parse((await geocode({ latitude: 51.5175, longitude: -0.0653 })).json());
    expect(data.district).toEqual(expect.any(String));
    expect(data.district).not.toBe('London');
  });

  it('answers at sea with the sea zone and no city', async () => {
    const { data } = geocodeResponseSchema.parse((await geocode({ latitude: -40, longitude: -120 })).json());
    expect(data).toEqual({ city: null, district: null, country: null, country_code: null, timezone: 'Etc/GMT+8' });
  });

  it('validates coordinates and needs a session', async () => {
    expect((await geocode({ latitude: 91, longitude: 0 })).statusCode).toBe(400);
    expect((await geocode({ latitude: 0, longitude: -180.5 })).statusCode).toBe(400);
    expect((await geocode({ latitude: '21.4', longitude: 39.8 })).statusCode).toBe(400);
    expect((await geocode({ latitude: 21.4 })).statusCode).toBe(400);
    expect(
      (await t.request({ method: 'POST', url: '/api/config/geocode', payload: { latitude: 0, longitude: 0 } }))
        .statusCode,
    ).toBe(401);
  });
});

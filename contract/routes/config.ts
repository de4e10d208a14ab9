import {
  coordinatesListResponseSchema,
  extractRequestSchema,
  extractResponseSchema,
  generateRequestSchema,
  generateResponseSchema,
  geocodeRequestSchema,
  geocodeResponseSchema,
  prayerTimesResponseSchema,
} from '../config';
import { endpoint } from '../endpoint';

/** Coordinates, map links, prayer times and recording configurations: any operator. */
export const configRoutes = {
  coordinates: endpoint({ method: 'GET', path: '/api/config/coordinates', access: 'session', response: coordinatesListResponseSchema }),
  extract: endpoint({ method: 'POST', path: '/api/config/coordinates/extract', access: 'session', body: extractRequestSchema, response: extractResponseSchema }),
  geocode: endpoint({ method: 'POST', path: '/api/config/geocode', access: 'session', body: geocodeRequestSchema, response: geocodeResponseSchema }),
  prayerTimes: endpoint({ method: 'GET', path: '/api/config/prayer-times', access: 'session', response: prayerTimesResponseSchema }),
  generate: endpoint({ method: 'POST', path: '/api/config/generate', access: 'session', body: generateRequestSchema, response: generateResponseSchema }),
};

import {
  coordinatesListResponseSchema,
  extractRequestSchema,
  extractResponseSchema,
  generateRequestSchema,
  generateResponseSchema,
  geocodeRequestSchema,
  geocodeResponseSchema,
  mosqueCreateRequestSchema,
  mosqueDeletedResponseSchema,
  mosqueResponseSchema,
  mosquesListResponseSchema,
  mosqueUpdateRequestSchema,
  newMosqueIdResponseSchema,
  prayerTimesQuerySchema,
  prayerTimesResponseSchema,
} from '../mosques';
import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  mosqueBulkRequestSchema,
  mosqueBulkResponseSchema,
  mosquesListQuerySchema,
  mosquesSummaryResponseSchema,
} from '../mosque-list';

/** Any id is accepted in the path: one that cannot exist is simply not found (404). */
const mosqueIdParams = z.strictObject({ mosque_id: z.string().min(1).max(64) });

/** The mosques the recorders follow: any operator. */
export const mosqueRoutes = {
  list: endpoint({
    method: 'GET',
    path: '/api/config/mosques',
    access: 'session',
    query: mosquesListQuerySchema,
    response: mosquesListResponseSchema,
  }),
  // Declared before `get` so the mocks (first match wins) do not read `new-id` or `summary` as a mosque id.
  summary: endpoint({
    method: 'GET',
    path: '/api/config/mosques/summary',
    access: 'session',
    response: mosquesSummaryResponseSchema,
  }),
  newId: endpoint({
    method: 'GET',
    path: '/api/config/mosques/new-id',
    access: 'session',
    response: newMosqueIdResponseSchema,
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/config/mosques/:mosque_id',
    access: 'session',
    params: mosqueIdParams,
    response: mosqueResponseSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/config/mosques',
    access: 'session',
    body: mosqueCreateRequestSchema,
    response: mosqueResponseSchema,
    status: 201,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/config/mosques/:mosque_id',
    access: 'session',
    params: mosqueIdParams,
    body: mosqueUpdateRequestSchema,
    response: mosqueResponseSchema,
  }),
  bulk: endpoint({
    method: 'POST',
    path: '/api/config/mosques/bulk',
    access: 'session',
    body: mosqueBulkRequestSchema,
    response: mosqueBulkResponseSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/config/mosques/:mosque_id',
    access: 'session',
    params: mosqueIdParams,
    response: mosqueDeletedResponseSchema,
  }),
};

/** Coordinates, map links, prayer times and recording configurations: any operator. */
export const configRoutes = {
  coordinates: endpoint({
    method: 'GET',
    path: '/api/config/coordinates',
    access: 'session',
    response: coordinatesListResponseSchema,
  }),
  extract: endpoint({
    method: 'POST',
    path: '/api/config/coordinates/extract',
    access: 'session',
    body: extractRequestSchema,
    response: extractResponseSchema,
  }),
  geocode: endpoint({
    method: 'POST',
    path: '/api/config/geocode',
    access: 'session',
    body: geocodeRequestSchema,
    response: geocodeResponseSchema,
  }),
  prayerTimes: endpoint({
    method: 'GET',
    path: '/api/config/prayer-times',
    access: 'session',
    query: prayerTimesQuerySchema,
    response: prayerTimesResponseSchema,
  }),
  generate: endpoint({
    method: 'POST',
    path: '/api/config/generate',
    access: 'session',
    body: generateRequestSchema,
    response: generateResponseSchema,
  }),
};

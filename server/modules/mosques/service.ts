import crypto from 'node:crypto';
import type { Updateable } from 'kysely';
import {
  MOSQUE_ID_LENGTH,
  mosquesListResponseSchema,
  mosqueCreateRequestSchema,
  mosqueUpdateRequestSchema,
  type ExtractionMethod,
  type Mosque,
  type MosqueCreateRequest,
  type MosqueUpdateRequest,
} from '../../../contract/mosques';
import {
  bulkDoneMessage,
  matchChangedMessage,
  MOSQUE_BULK_MAX,
  mosqueBulkRequestSchema,
  type MosqueBulkAction,
  type MosqueBulkRequest,
  type MosqueMatch,
  type MosqueBulkResult,
  type MosquesPageQuery,
} from '../../../contract/mosque-list';
import { toFlag } from '../../db';
import type { MosquesTable } from '../../db/schema';
import { countryCodeAt } from '../../geo/geocode';
import { findMapsUrl, mapsLinkForm, MapsLinkResolver } from '../../geo/maps-link';
import { timeZoneAt } from '../../geo/timezone';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import type { ActivityActor, ActivityService } from '../activity';
import { changedFields, mosqueTarget } from './mosque-activity';
import { toMosque, type MosquesRepository } from './repository';
import type { EventBus, ServerEvents } from '../../lib/events';
import { idTokenToStore, shownMosque } from './shown-mosque';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const MOSQUE_ID_IMMUTABLE_MESSAGE = 'Mosque ID cannot be changed';
export const COORDINATES_TOGETHER_MESSAGE = 'Latitude and longitude must be given together';

export type MosqueChange = ServerEvents['mosque_changed'];
export interface CoordinatesUpdate {
  latitude: number;
  longitude: number;
  timezone: string | null;
  method: ExtractionMethod;
}

/** A fresh id: 10 characters from [a-z0-9], uniformly drawn from the OS's random source. */
export function generateMosqueId(): string {
  let id = '';
  for (let i = 0; i < MOSQUE_ID_LENGTH; i += 1) id += ID_ALPHABET[crypto.randomInt(ID_ALPHABET.length)];
  return id;
}

const offlineLinks = new MapsLinkResolver();

/** How coordinates saved with a form came about: read from its long link, from its short link, or typed. */
function coordinatesMethod(link: string | null, latitude: number, longitude: number): ExtractionMethod {
  if (!link) return 'manual';
  const offline = offlineLinks.extractOffline(link);
  if (offline && Math.abs(offline.latitude - latitude) < 1e-6 && Math.abs(offline.longitude - longitude) < 1e-6)
    return 'map_link';
  const url = findMapsUrl(link);
  const form = url ? mapsLinkForm(url) : null;
  return form === 'short' || form === 'app_share' ? 'map_link_redirect' : 'manual';
}

/**
 * How long a list read here serves. Changes made through this server retire it at once; the bound
 * is for other servers on the same database, so it is wall time, not the injectable clock (a test's
 * frozen clock must not keep another server's change out forever).
 */
const LIST_CACHE_MS = 1000;

interface ListCache {
  generation: number;
  expires: number;
  list: Promise<Mosque[]>;
  body?: Promise<string>;
}

export class MosquesService {
  /** Every fleet read (Config page, planner, prayer times) shares one list; 10,000 rows take ~300 ms to read and encode. */
  private listCache: ListCache | undefined;
  private generation = 0;

  constructor(
    private readonly repository: MosquesRepository,
    private readonly clock: Clock,
    private readonly activity: Pick<ActivityService, 'record'>,
    /** Told of every create, update and delete (`mosque_changed`: the scheduler re-plans, consoles refresh). */
    private readonly events: Pick<EventBus, 'emit'>,
  ) {}

  private emit(change: MosqueChange): void {
    this.generation++;
    this.listCache = undefined;
    this.events.emit('mosque_changed', change);
  }

  /** Every mosque, oldest first. Shared between callers: read it, never modify it. */
  list(): Promise<Mosque[]> {
    return this.cached().list;
  }

  /** GET /api/config/mosques's body (stream fields masked), checked against the contract and serialised once per list. */
  listBody(): Promise<string> {
    const cache = this.cached();
    cache.body ??= cache.list.then((mosques) =>
      JSON.stringify(mosquesListResponseSchema.encode({ success: true, data: { mosques: mosques.map(shownMosque) } })),
    );
    return cache.body;
  }

  private cached(): ListCache {
    const current = this.listCache;
    if (current && current.generation === this.generation && performance.now() < current.expires) return current;
    const cache: ListCache = {
      generation: this.generation,
      expires: performance.now() + LIST_CACHE_MS,
      list: this.repository.list().then((rows) => Object.freeze(rows.map(toMosque)) as Mosque[]),
    };
    // A failed read is not kept: the next caller tries again.
    cache.list.catch(() => {
      if (this.listCache === cache) this.listCache = undefined;
    });
    this.listCache = cache;
    return cache;
  }

  /** One page of a search over the fleet (the mosque table at fleet size), read from the database each time. */
  async page(query: MosquesPageQuery): Promise<{ mosques: Mosque[]; total: number }> {
    const { rows, total } = await this.repository.page(query);
    return { mosques: rows.map(toMosque), total };
  }

  /**
   * One action on many mosques, each recorded in the activity log as its single-mosque form would be.
   * A mosque already in the asked state counts as done; an id no mosque has is named as missing. The
   * mosques are the listed ids, or every one a filter matches when that is still the count confirmed.
   */
  async bulk(
    input: MosqueBulkRequest,
    actor: ActivityActor | null = null,
  ): Promise<{ message: string; data: MosqueBulkResult }> {
    const request = mosqueBulkRequestSchema.parse(input);
    const { action } = request;
    const ids = 'mosque_ids' in request ? request.mosque_ids : await this.matchingConfirmed(request);
    const done: string[] = [];
    for (let start = 0; start < ids.length; start += MOSQUE_BULK_MAX)
      done.push(...(await this.bulkChunk(action, ids.slice(start, start + MOSQUE_BULK_MAX), actor)));
    const doneIds = new Set(done);
    const missing = ids.filter((id) => !doneIds.has(id));
    return { message: bulkDoneMessage(action, done.length), data: { action, done, missing } };
  }

  /** The ids a filter matches, refused when they are no longer as many as the operator confirmed. */
  private async matchingConfirmed({ matching, expected }: { matching: MosqueMatch; expected: number }) {
    const ids = await this.repository.matchingIds(matching);
    if (ids.length !== expected) throw conflict(matchChangedMessage(ids.length, expected));
    return ids;
  }

  /** One action on at most MOSQUE_BULK_MAX mosques: the ids it was done to. */
  private async bulkChunk(action: MosqueBulkAction, ids: string[], actor: ActivityActor | null): Promise<string[]> {
    const before = new Map((await this.repository.listByIds(ids)).map((row) => [row.mosque_id, toMosque(row)]));
    const present = ids.filter((id) => before.has(id));
    // `in ()` is an error in PostgreSQL: nothing to change is not a statement.
    const changed =
      present.length === 0
        ? []
        : action === 'delete'
          ? await this.repository.deleteMany(present)
          : await this.repository.setActive(present, action === 'activate', this.clock.now().toISOString());
    for (const row of changed) {
      const mosque = toMosque(row);
      this.emit({ type: action === 'delete' ? 'deleted' : 'updated', mosque_id: mosque.mosque_id });
      if (action === 'delete')
        await this.activity.record({ actor, action: 'mosque.delete', target: mosqueTarget(mosque) });
      else
        await this.activity.record({
          actor,
          action: 'mosque.update',
          target: mosqueTarget(mosque),
          detail: { changed: ['active'] },
        });
    }
    // A delete that lost a race with another delete finds its mosque gone: missing, like one never there.
    return action === 'delete' ? changed.map((row) => row.mosque_id) : present;
  }

  async listByIds(ids: string[]): Promise<Mosque[]> {
    return (await this.repository.listByIds(ids)).map(toMosque);
  }

  async find(id: string): Promise<Mosque | undefined> {
    const row = await this.repository.find(id);
    return row && toMosque(row);
  }

  async get(id: string): Promise<Mosque> {
    const mosque = await this.find(id);
    if (!mosque) throw notFound(`Mosque ${id} not found`);
    return mosque;
  }

  /** An id no mosque has yet (not reserved: a create with it can still lose a race and get 409). */
  async newId(): Promise<string> {
    for (;;) {
      const id = generateMosqueId();
      if (!(await this.repository.exists(id))) return id;
    }
  }

  /** Creates a mosque; `actor` is who the activity log names (null: the system). */
  async create(input: MosqueCreateRequest, actor: ActivityActor | null = null): Promise<Mosque> {
    const request = mosqueCreateRequestSchema.parse(input);
    const id = request.mosque_id ?? (await this.newId());
    if (request.mosque_id && (await this.repository.exists(id))) throw conflict(`Mosque ${id} already exists`);
    const latitude = request.latitude ?? null;
    const longitude = request.longitude ?? null;
    const located = latitude !== null && longitude !== null;
    const now = this.clock.now().toISOString();
    let mosque: Mosque;
    try {
      const row = await this.repository.insert({
        mosque_id: id,
        name: request.name,
        name_ar: request.name_ar ?? null,
        google_maps_url: request.google_maps_url ?? null,
        languages: JSON.stringify(request.languages),
        id_token: request.ID_token ?? null,
        active: toFlag(request.active),
        broadcast_status: request.broadcast_status,
        latitude,
        longitude,
        timezone: request.timezone ?? (located ? timeZoneAt(latitude, longitude) : null),
        city: request.city ?? null,
        district: request.district ?? null,
        country: request.country ?? null,
        country_code: request.country_code ?? (located ? countryCodeAt(latitude, longitude) : null),
        coordinates_method: located ? coordinatesMethod(request.google_maps_url ?? null, latitude, longitude) : null,
        calculation_method: request.calculation_method ?? null,
        fixed_jumuah_time: request.fixed_jumuah_time ?? null,
        created_at: now,
        updated_at: now,
      });
      mosque = toMosque(row);
    } catch (error) {
      // Two creates racing for one id: the primary key decides.
      if (await this.repository.exists(id)) throw conflict(`Mosque ${id} already exists`);
      throw error;
    }
    this.emit({ type: 'created', mosque_id: id });
    await this.activity.record({ actor, action: 'mosque.create', target: mosqueTarget(mosque) });
    return mosque;
  }

  /** Fields absent stay; null clears. The id never changes. */
  async update(id: string, input: MosqueUpdateRequest, actor: ActivityActor | null = null): Promise<Mosque> {
    const request = mosqueUpdateRequestSchema.parse(input);
    if (request.mosque_id !== undefined && request.mosque_id !== id) throw badRequest(MOSQUE_ID_IMMUTABLE_MESSAGE);
    const current = await this.repository.find(id);
    if (!current) throw notFound(`Mosque ${id} not found`);

    const latitude = request.latitude === undefined ? current.latitude : request.latitude;
    const longitude = request.longitude === undefined ? current.longitude : request.longitude;
    if ((latitude === null) !== (longitude === null)) throw badRequest(COORDINATES_TOGETHER_MESSAGE);
    const moved = latitude !== current.latitude || longitude !== current.longitude;
    const link = request.google_maps_url === undefined ? current.google_maps_url : request.google_maps_url;

    const values: Updateable<MosquesTable> = { updated_at: this.clock.now().toISOString() };
    if (request.name !== undefined) values.name = request.name;
    if (request.name_ar !== undefined) values.name_ar = request.name_ar;
    if (request.google_maps_url !== undefined) values.google_maps_url = request.google_maps_url;
    if (request.languages !== undefined) values.languages = JSON.stringify(request.languages);
    if (request.ID_token !== undefined) values.id_token = idTokenToStore(request.ID_token, current.id_token);
    if (request.active !== undefined) values.active = toFlag(request.active);
    if (request.broadcast_status !== undefined) values.broadcast_status = request.broadcast_status;
    if (request.city !== undefined) values.city = request.city;
    if (request.district !== undefined) values.district = request.district;
    if (request.country !== undefined) values.country = request.country;
    if (request.calculation_method !== undefined) values.calculation_method = request.calculation_method;
    if (request.fixed_jumuah_time !== undefined) values.fixed_jumuah_time = request.fixed_jumuah_time;
    if (request.timezone !== undefined) values.timezone = request.timezone;
    if (request.country_code !== undefined) values.country_code = request.country_code;
    if (moved) {
      values.latitude = latitude;
      values.longitude = longitude;
      if (latitude !== null && longitude !== null) {
        values.coordinates_method = coordinatesMethod(link, latitude, longitude);
        // A moved mosque gets the zone and country of its new place unless the form names them.
        if (request.timezone === undefined) values.timezone = timeZoneAt(latitude, longitude) ?? current.timezone;
        if (request.country_code === undefined)
          values.country_code = countryCodeAt(latitude, longitude) ?? current.country_code;
      } else {
        values.coordinates_method = null;
      }
    } else if (latitude !== null && longitude !== null && current.timezone === null && values.timezone === undefined) {
      values.timezone = timeZoneAt(latitude, longitude);
    }

    const row = await this.repository.update(id, values);
    if (!row) throw notFound(`Mosque ${id} not found`);
    this.emit({ type: 'updated', mosque_id: id });
    const mosque = toMosque(row);
    await this.activity.record({
      actor,
      action: 'mosque.update',
      target: mosqueTarget(mosque),
      detail: { changed: changedFields(toMosque(current), mosque) },
    });
    return mosque;
  }

  /** Coordinates found from a map link, saved on the mosque with the zone they lie in. */
  async setCoordinates(id: string, update: CoordinatesUpdate): Promise<Mosque | undefined> {
    const current = await this.repository.find(id);
    if (!current) return undefined;
    const row = await this.repository.update(id, {
      latitude: update.latitude,
      longitude: update.longitude,
      timezone: update.timezone ?? current.timezone,
      country_code: countryCodeAt(update.latitude, update.longitude) ?? current.country_code,
      coordinates_method: update.method,
      updated_at: this.clock.now().toISOString(),
    });
    if (!row) return undefined;
    this.emit({ type: 'updated', mosque_id: id });
    return toMosque(row);
  }

  /** Saved coordinates and how they were obtained (docs/reference.md, Coordinates record). */
  async coordinates(): Promise<
    {
      mosque_id: string;
      latitude: number;
      longitude: number;
      timezone: string | null;
      extraction_method: ExtractionMethod;
    }[]
  > {
    const rows = await this.repository.list();
    return rows
      .filter((row) => row.latitude !== null && row.longitude !== null)
      .map((row) => ({
        mosque_id: row.mosque_id,
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        timezone: row.timezone,
        extraction_method: (row.coordinates_method as ExtractionMethod | null) ?? 'manual',
      }));
  }

  async remove(id: string, actor: ActivityActor | null = null): Promise<void> {
    const before = await this.get(id);
    if (!(await this.repository.delete(id))) throw notFound(`Mosque ${id} not found`);
    this.emit({ type: 'deleted', mosque_id: id });
    await this.activity.record({ actor, action: 'mosque.delete', target: mosqueTarget(before) });
  }
}

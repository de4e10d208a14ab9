import type { ExtractionMethod } from '../../contract/mosques';
import { isInternalAddress, systemResolver, type HostResolver } from '../lib/internal-addresses';

/*
 * Coordinates from a Google Maps link, in each form operators paste:
 *   long     https://www.google.com/maps/place/Name/@21.4225,39.8262,17z/data=!3m1!4b1!4m6!3m5!8m2!3d21.4225!4d39.8262
 *            https://www.google.com/maps?q=21.4225,39.8262   .../maps/search/?api=1&query=lat,lng   ...&ll=lat,lng
 *   legacy   https://maps.google.com/?q=21.4225,39.8262   https://maps.google.co.uk/maps?ll=lat,lng
 *   short    https://goo.gl/maps/AbCd123
 *   app      https://maps.app.goo.gl/AbCd123
 * The long and legacy forms carry the coordinates; the short forms are followed through their
 * redirects (at most 5 hops, 5 s in all) to a long form, or to a page that names them.
 */

export type MapsLinkForm = 'long' | 'legacy' | 'short' | 'app_share';
export interface LatLng {
  latitude: number;
  longitude: number;
}
export interface ExtractedCoordinates extends LatLng {
  method: ExtractionMethod;
  /** The link the coordinates were read from (the last hop for a short link). */
  resolvedUrl: string;
}

/** A failure to get coordinates from one link; its message is shown per link. */
export class MapsLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MapsLinkError';
  }
}

const GOOGLE_HOST = /^(?:www\.|maps\.)?google\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/;
const NUMBER = String.raw`(-?\d{1,3}(?:\.\d+)?)`;
const PAIR = new RegExp(String.raw`^\s*(?:loc:)?\s*${NUMBER}\s*,\s*${NUMBER}(?:\s*$|[^\d.])`);
const PIN = new RegExp(String.raw`!3d${NUMBER}!4d${NUMBER}`);
const AT = new RegExp(String.raw`/@${NUMBER},${NUMBER}(?:[,/?z]|$)`);
const PATH_PAIR = new RegExp(String.raw`/maps/(?:place|search|dir)/(?:[^/]*/)*?${NUMBER},\s*\+?${NUMBER}(?:[/?,]|$)`);
const PAGE_PATTERNS = [
  PIN,
  new RegExp(String.raw`center=${NUMBER}(?:%2C|,)${NUMBER}`),
  new RegExp(String.raw`@${NUMBER},${NUMBER},\d+(?:\.\d+)?z`),
  new RegExp(String.raw`\[null,null,${NUMBER},${NUMBER}\]`),
];
const COORDINATE_PARAMS = ['q', 'query', 'll', 'center', 'destination', 'daddr', 'sll'];
const URL_IN_TEXT =
  /(?:https?:\/\/|\b(?=(?:www\.)?google\.[a-z.]{2,7}\/maps|maps\.google\.|goo\.gl\/maps\/|maps\.app\.goo\.gl\/))[^\s<>"'`]+/gi;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function valid(latitude: number, longitude: number): LatLng | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

const fromMatch = (match: RegExpExecArray | null): LatLng | null =>
  match ? valid(Number(match[1]), Number(match[2])) : null;

/** The first link of a maps service in `text` (with or without its scheme), as a URL. */
export function findMapsUrl(text: string): URL | null {
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const raw = match[0].replace(/[).,;]+$/, '');
    try {
      const url = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
      if (mapsLinkForm(url)) return url;
    } catch {
      // Not a URL after all: look further.
    }
  }
  return null;
}

/** Which form of maps link `url` is, or null when it is not one. */
export function mapsLinkForm(url: URL): MapsLinkForm | null {
  const host = url.hostname.toLowerCase();
  if (host === 'maps.app.goo.gl' && url.pathname.length > 1) return 'app_share';
  if (host === 'goo.gl' && /^\/maps\/./.test(url.pathname)) return 'short';
  if (!GOOGLE_HOST.test(host)) return null;
  if (host.startsWith('maps.')) return 'legacy';
  return /^\/maps(?:[/@?]|$)/.test(url.pathname) ? 'long' : null;
}

/** Coordinates written in a long or legacy link (or in a consent page's `continue` link), or null. */
export function coordinatesInUrl(url: URL): LatLng | null {
  const decoded = safeDecode(url.href);
  const pin = fromMatch(PIN.exec(decoded));
  if (pin) return pin;
  for (const name of COORDINATE_PARAMS) {
    const value = url.searchParams.get(name);
    const pair = value === null ? null : fromMatch(PAIR.exec(value));
    if (pair) return pair;
  }
  return fromMatch(AT.exec(decoded)) ?? fromMatch(PATH_PAIR.exec(decoded));
}

/** Coordinates named in a maps page's HTML (its preview image, canonical link or data). */
export function coordinatesInPage(html: string): LatLng | null {
  for (const pattern of PAGE_PATTERNS) {
    const found = fromMatch(pattern.exec(html));
    if (found) return found;
  }
  return null;
}

/** Plain `lat, lng` text typed instead of a link. */
export function coordinatesInText(text: string): LatLng | null {
  const match = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*[,;\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
  return fromMatch(match);
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ResolverOptions {
  /** The fetch to use; tests inject one. */
  fetch?: FetchLike;
  /** Time for the whole chain of one link. */
  timeoutMs?: number;
  maxHops?: number;
  /**
   * Send every request to this origin instead of the link's own (the path and query are kept, and
   * redirects are still interpreted against the link's own host). For tests and for offline setups
   * that mirror the short-link service.
   */
  resolveOrigin?: string;
  /** Resolves a host before it is fetched: a name that leads to a private address is refused. */
  lookup?: HostResolver;
  /** What one extraction call may spend on all its links (default 15 s and 50 requests). */
  callBudget?: { timeoutMs: number; maxFetches: number };
}

const NETWORK_DOWN = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ECONNRESET',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** The short-link services, exactly. */
const SHORT_LINK_HOSTS = new Set(['goo.gl', 'maps.app.goo.gl', 'g.co']);
/** Google's own hosts a maps link passes through: (www., maps., consent.) google.<country domain>. */
const GOOGLE_HOP_HOST = /^(?:(?:www|maps|consent)\.)?google\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/;

function isAllowedHop(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    (SHORT_LINK_HOSTS.has(host) || GOOGLE_HOP_HOST.test(host))
  );
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_PAGE_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * What one extraction call (many links) may spend in all: its links share a deadline and a number of
 * requests, so a call cannot hold the server for links x hops x timeout.
 */
export class ExtractionBudget {
  readonly signal: AbortSignal;
  private fetchesLeft: number;

  constructor(
    readonly timeoutMs = 15_000,
    readonly maxFetches = 50,
  ) {
    this.signal = AbortSignal.timeout(timeoutMs);
    this.fetchesLeft = maxFetches;
  }

  /** Takes one request from the budget, or says why there is none left. */
  take(): void {
    if (this.signal.aborted)
      throw new MapsLinkError(
        `This extraction ran out of time (${this.timeoutMs / 1000} s in all); resolve the remaining links in another call`,
      );
    if (this.fetchesLeft <= 0)
      throw new MapsLinkError(
        `This extraction made ${this.maxFetches} requests, its limit; resolve the remaining links in another call`,
      );
    this.fetchesLeft -= 1;
  }
}

/** Turns a map link (or `lat, lng` text) into coordinates, following short links over the network. */
export class MapsLinkResolver {
  private readonly fetch: FetchLike;
  private readonly timeoutMs: number;
  private readonly maxHops: number;
  private readonly resolveOrigin: string | undefined;
  private readonly lookup: HostResolver;
  private readonly callBudget: { timeoutMs: number; maxFetches: number } | undefined;

  constructor(options: ResolverOptions = {}) {
    this.callBudget = options.callBudget;
    this.lookup = options.lookup ?? systemResolver;
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.maxHops = options.maxHops ?? 5;
    this.resolveOrigin = options.resolveOrigin;
  }

  /** The shared allowance of one extraction call. */
  newBudget(): ExtractionBudget {
    return new ExtractionBudget(this.callBudget?.timeoutMs, this.callBudget?.maxFetches);
  }

  /** Coordinates without any network call, or null when the link must be resolved (or has none). */
  extractOffline(text: string): ExtractedCoordinates | null {
    const typed = coordinatesInText(text);
    if (typed) return { ...typed, method: 'manual', resolvedUrl: text.trim() };
    const url = findMapsUrl(text);
    if (!url) return null;
    const form = mapsLinkForm(url);
    if (form !== 'long' && form !== 'legacy') return null;
    const found = coordinatesInUrl(url);
    return found ? { ...found, method: 'map_link', resolvedUrl: url.href } : null;
  }

  async extract(text: string, budget = new ExtractionBudget()): Promise<ExtractedCoordinates> {
    const offline = this.extractOffline(text);
    if (offline) return offline;
    const url = findMapsUrl(text);
    if (!url) throw new MapsLinkError('No Google Maps link found (expected a maps link or "latitude, longitude")');
    return this.follow(url, budget);
  }

  private transportUrl(url: URL): string {
    return this.resolveOrigin ? new URL(url.pathname + url.search, this.resolveOrigin).href : url.href;
  }

  private async follow(start: URL, budget: ExtractionBudget): Promise<ExtractedCoordinates> {
    const signal = AbortSignal.any([AbortSignal.timeout(this.timeoutMs), budget.signal]);
    const method: ExtractionMethod =
      mapsLinkForm(start) === 'short' || mapsLinkForm(start) === 'app_share' ? 'map_link_redirect' : 'map_link';
    let current = start;
    for (let hop = 0; ; hop += 1) {
      if (hop > 0) {
        const found = coordinatesInUrl(current);
        if (found) return { ...found, method, resolvedUrl: current.href };
      }
      if (hop > this.maxHops) throw new MapsLinkError(`The map link redirected more than ${this.maxHops} times`);
      if (!isAllowedHop(current))
        throw new MapsLinkError(`The map link led outside the maps service (${current.hostname})`);
      budget.take();
      const response = await this.request(current, signal, budget);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => undefined);
        current = new URL(location, current);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new MapsLinkError(
          `The maps service answered ${response.status} for ${current.hostname}${current.pathname}`,
        );
      }
      const inPage = coordinatesInPage(await this.read(response, current, signal));
      if (inPage) return { ...inPage, method, resolvedUrl: current.href };
      throw new MapsLinkError(
        'The map link does not lead to coordinates (open it and copy the link of the place instead)',
      );
    }
  }

  private async request(url: URL, signal: AbortSignal, budget: ExtractionBudget): Promise<Response> {
    try {
      // The resolve origin is the operator's own setting; a link's hosts are checked where they lead.
      if (!this.resolveOrigin && (await this.lookup(url.hostname)).some(isInternalAddress)) {
        throw new MapsLinkError(`The map link led to a private address (${url.hostname})`);
      }
      return await this.fetch(this.transportUrl(url), {
        method: 'GET',
        redirect: 'manual',
        signal,
        headers: { 'user-agent': 'Mozilla/5.0 (capture-command-center)', 'accept-language': 'en' },
      });
    } catch (error) {
      if (budget.signal.aborted) budget.take();
      throw error instanceof MapsLinkError ? error : this.networkError(error, url);
    }
  }

  private async read(response: Response, url: URL, signal: AbortSignal): Promise<string> {
    try {
      return await readLimited(response);
    } catch (error) {
      throw this.networkError(error, url, signal);
    }
  }

  private networkError(error: unknown, url: URL, signal?: AbortSignal): MapsLinkError {
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError' || signal?.aborted) {
      return new MapsLinkError(`Timed out after ${this.timeoutMs / 1000} s resolving the map link at ${url.hostname}`);
    }
    const code = errorCode(error);
    if (code && NETWORK_DOWN.has(code)) {
      return new MapsLinkError(
        `Network unavailable: could not reach ${url.hostname} to resolve the map link (${code})`,
      );
    }
    return new MapsLinkError(
      `Could not resolve the map link at ${url.hostname}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

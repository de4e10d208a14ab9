import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Lazy page modules that survive a server outage. React.lazy remembers a failed import for good, so a page
 * whose chunk could not load while the server was down would stay blank after it came back. Here a failed
 * load is retried a few times, then reported as a ChunkLoadError; `retryFailedChunks()` makes every failed
 * page load afresh the next time it renders.
 */

export type ChunkFailure = 'unreachable' | 'stale-release';

export class ChunkLoadError extends Error {
  constructor(
    readonly failure: ChunkFailure,
    cause: unknown,
  ) {
    super(failure === 'unreachable' ? 'The server cannot be reached' : 'This version of the console is out of date', {
      cause,
    });
    this.name = 'ChunkLoadError';
  }
}

/** Delays between the attempts of one load (ms): three quick tries cover a blip. */
export const CHUNK_RETRY_DELAYS_MS = [300, 1000];
/** A second reload for a missing chunk within this window means reloading does not help: show the error instead. */
const RELOAD_GUARD_MS = 60_000;
const RELOAD_KEY = 'chunk-reload-at';

/** Whether the server answers at all (any HTTP status): the page itself, never cached. */
export async function serverAnswers(): Promise<boolean> {
  try {
    await fetch(new URL('/', window.location.href), { method: 'HEAD', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The server answers but the chunk is not there: a new release replaced the file names. Reload the page
 * once (returns true); if a reload for this reason just happened, it did not help (returns false).
 */
function reloadOnce(now = Date.now()): boolean {
  const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
  if (now - last < RELOAD_GUARD_MS) return false;
  sessionStorage.setItem(RELOAD_KEY, String(now));
  window.location.reload();
  return true;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether the server is known to be away: the live feed lost it, or a load found it unreachable. Chromium
 * (150) keeps a failed module fetch for the life of the page: a page whose chunk was asked for while the
 * server was down fails again without asking, and only a reload brings it back. So while the server is
 * away, no chunk is asked for before the server answers a probe.
 */
let serverAway = false;

/** Told by the live feed: it lost the server (true), or has it again or was closed on purpose (false). */
export function noteServerAway(away: boolean): void {
  serverAway = away;
}

export async function loadWithRetry<T>(load: () => Promise<T>, delays = CHUNK_RETRY_DELAYS_MS): Promise<T> {
  if (serverAway) {
    if (!(await serverAnswers()))
      throw new ChunkLoadError('unreachable', new Error('The server is away: the chunk was not asked for'));
    serverAway = false;
  }
  let lastError: unknown;
  for (let attempt = 0; attempt <= delays.length; attempt += 1) {
    if (attempt > 0) await wait(delays[attempt - 1]);
    try {
      return await load();
    } catch (error) {
      lastError = error;
    }
  }
  if (!(await serverAnswers())) {
    serverAway = true;
    throw new ChunkLoadError('unreachable', lastError);
  }
  // The server answers now, but may have come back only since the last attempt (a restart): one more
  // attempt tells an outage that just ended from a release that replaced the file.
  try {
    return await load();
  } catch (error) {
    lastError = error;
  }
  // A reload replaces this page; until it happens nothing should render.
  if (reloadOnce()) return new Promise<T>(() => undefined);
  throw new ChunkLoadError('stale-release', lastError);
}

const failedLoads = new Set<() => void>();

/** Makes every page whose chunk failed to load try again on its next render. */
export function retryFailedChunks(): void {
  const resets = [...failedLoads];
  failedLoads.clear();
  for (const reset of resets) reset();
}

/** A lazy page whose module can be asked for before it renders. */
export type RecoverableLazy<P extends object> = ComponentType<P> & {
  /** Starts loading the module; settles when it has loaded or failed (a failure is left for the render to retry and report). */
  preload(): Promise<void>;
};

/**
 * Like React.lazy, with retries and a fresh attempt after `retryFailedChunks()`. Once its module has
 * loaded (preloaded, or rendered before) the page renders at once: React.lazy suspends on its first
 * render even then, and each suspension showed a fallback for a moment and held the content back
 * (React throttles what it reveals after a fallback), before the page's first paint.
 */
export function recoverableLazy<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  retryDelays = CHUNK_RETRY_DELAYS_MS,
): RecoverableLazy<P> {
  let Loaded: ComponentType<P> | null = null;
  const loadAndKeep = () =>
    load().then((module) => {
      Loaded = module.default;
      return module;
    });
  let Current: LazyExoticComponent<ComponentType<P>>;
  const arm = () => {
    Current = lazy(() =>
      loadWithRetry(loadAndKeep, retryDelays).catch((error: unknown) => {
        failedLoads.add(arm);
        throw error;
      }),
    );
  };
  arm();
  // Loaded is set before the lazy component's own load resolves, so a page never commits as Current and
  // then switches to Loaded (which would mount it afresh).
  function RecoverablePage(props: P) {
    return Loaded ? <Loaded {...props} /> : <Current {...props} />;
  }
  // A preload asks for the chunk only while the server is not known to be away (see serverAway).
  RecoverablePage.preload = () =>
    (serverAway ? Promise.resolve() : loadAndKeep()).then(
      () => undefined,
      () => undefined,
    );
  return RecoverablePage;
}

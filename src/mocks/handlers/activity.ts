import { http, HttpResponse } from 'msw';
import {
  ACTIVITY_DEFAULT_LIMIT,
  ACTIVITY_MAX_LIMIT,
  describeActivity,
  type ActivityAction,
  type ActivityEntry,
  type ActivityListResponse,
} from '../../../contract/activity';
import { authorize, errorResponse } from '../http';
import { store, type MockStore } from '../store';

/** The activity log of the mocks. It lives beside the shared store and is renewed with it (resetStore()). */
export interface ActivityMockState {
  /** Oldest first, as written. */
  entries: ActivityEntry[];
  nextId: number;
}

const states = new WeakMap<MockStore, ActivityMockState>();

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function seed(): ActivityMockState {
  const state: ActivityMockState = { entries: [], nextId: 1 };
  const admin = { id: 1, username: 'admin' };
  add(state, { action: 'scheduler.start', actor: admin, target: null, at: minutesAgo(95) });
  add(state, { action: 'mosque.create', actor: admin, target: { type: 'mosque', id: 'mq01abcdef', label: 'Central Mosque' }, at: minutesAgo(80) });
  add(state, { action: 'schedule.run', actor: null, target: null, at: minutesAgo(60) });
  add(state, { action: 'auth.login', actor: admin, target: { type: 'user', id: '1', label: 'admin' }, at: minutesAgo(5) });
  return state;
}

function add(state: ActivityMockState, entry: Pick<ActivityEntry, 'action' | 'actor' | 'target'> & { at?: string; detail?: ActivityEntry['detail'] }): ActivityEntry {
  const full: ActivityEntry = {
    id: state.nextId++,
    at: entry.at ?? new Date().toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    detail: entry.detail ?? null,
    summary: describeActivity(entry),
  };
  state.entries.push(full);
  return full;
}

/** The activity state of the current store (tests add or clear entries through it). */
export function activityMock(): ActivityMockState {
  let state = states.get(store);
  if (!state) {
    state = seed();
    states.set(store, state);
  }
  return state;
}

/** Writes one entry, as the server's modules do. */
export function recordMockActivity(
  action: ActivityAction,
  actor: { id: number | null; username: string } | null,
  target: { type: string; id: string; label?: string | null } | null = null,
): ActivityEntry {
  return add(activityMock(), { action, actor, target: target ? { ...target, label: target.label ?? null } : null });
}

export const activityHandlers = [
  http.get('/api/activity', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? ACTIVITY_DEFAULT_LIMIT);
    const before = url.searchParams.get('before');
    if (!Number.isInteger(limit) || limit < 1 || limit > ACTIVITY_MAX_LIMIT) return errorResponse(400, `limit must be between 1 and ${ACTIVITY_MAX_LIMIT}`);
    const newestFirst = [...activityMock().entries].reverse().filter((entry) => !before || entry.id < Number(before));
    return HttpResponse.json<ActivityListResponse>({ success: true, data: { entries: newestFirst.slice(0, limit) } });
  }),
];

import { HttpResponse } from 'msw';
import { describeActivity, type ActivityAction, type ActivityEntry } from '../../../contract/activity';
import { activityRoutes } from '../../../contract/routes/activity';
import { mock } from '../endpoint';
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
  add(state, {
    action: 'mosque.create',
    actor: admin,
    target: { type: 'mosque', id: 'mq01abcdef', label: 'Central Mosque' },
    at: minutesAgo(80),
  });
  add(state, { action: 'schedule.run', actor: null, target: null, at: minutesAgo(60) });
  add(state, {
    action: 'auth.login',
    actor: admin,
    target: { type: 'user', id: '1', label: 'admin' },
    at: minutesAgo(5),
  });
  return state;
}

function add(
  state: ActivityMockState,
  entry: Pick<ActivityEntry, 'action' | 'actor' | 'target'> & { at?: string; detail?: ActivityEntry['detail'] },
): ActivityEntry {
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
  mock(activityRoutes.list, ({ query: { limit, before } }) => {
    const newestFirst = [...activityMock().entries]
      .reverse()
      .filter((entry) => before === undefined || entry.id < before);
    return HttpResponse.json({ success: true, data: { entries: newestFirst.slice(0, limit) } });
  }),
];

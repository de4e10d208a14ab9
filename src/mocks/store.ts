import type { Role, User } from '../../contract/auth';
import type { Instance, Recording } from '../../contract/instances';
import type { SystemStatus } from '../../contract/live';

/**
 * The in-memory world the mocks answer from, typed from contract/ so mocks and server share shapes.
 * Other resources add their collections here; `resetStore()` puts everything back (tests call it after each test).
 */
export interface MockUser extends User {
  password: string;
}

export interface MockStore {
  users: MockUser[];
  /** token -> user id */
  sessions: Map<string, number>;
  instances: Instance[];
  recordings: Recording[];
  systemStatus: SystemStatus;
  /** false: the live socket refuses every connection (the console shows Offline). */
  liveAvailable: boolean;
  /**
   * How long a mock instance stays pending (and stopping) before it moves on. A component test that must
   * see the state before a transition sets a longer one: on a busy machine the page showed the new
   * instance only after the default had passed, already running.
   */
  transitionMs: number;
  nextUserId: number;
  nextToken: number;
}

/** Sign-in for `npm run dev:mock`: admin / Admin-pass-1 (superuser) and operator / Operator-pass-1. */
export const MOCK_ADMIN = { username: 'admin', password: 'Admin-pass-1' } as const;
export const MOCK_OPERATOR = { username: 'operator', password: 'Operator-pass-1' } as const;

const SEED_TIME = '2026-01-05T09:30:00.000Z';
/** The pending and stopping states' length in `npm run dev:mock`. */
const TRANSITION_MS = 1500;

function seedUser(id: number, username: string, password: string, extra: Partial<MockUser> = {}): MockUser {
  return {
    id,
    username,
    password,
    email: `${username}@example.com`,
    full_name: null,
    role: 'admin' as Role,
    is_active: true,
    is_superuser: false,
    generated_credentials: false,
    last_login: null,
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
    ...extra,
  };
}

function seed(): MockStore {
  return {
    users: [
      seedUser(1, MOCK_ADMIN.username, MOCK_ADMIN.password, {
        full_name: 'System Administrator',
        is_superuser: true,
        last_login: SEED_TIME,
      }),
      seedUser(2, MOCK_OPERATOR.username, MOCK_OPERATOR.password, { full_name: 'Fleet Operator', role: 'user' }),
    ],
    sessions: new Map(),
    instances: [],
    recordings: [],
    systemStatus: 'operational',
    liveAvailable: true,
    transitionMs: TRANSITION_MS,
    nextUserId: 3,
    nextToken: 1,
  };
}

export let store: MockStore = seed();
/** Tokens signed out of during this page's life. */
const revoked = new Set<string>();

export function resetStore(): void {
  store = seed();
  revoked.clear();
}

export function toPublicUser(user: MockUser): User {
  const { password: _password, ...rest } = user;
  return rest;
}

export function findUser(username: string): MockUser | undefined {
  const key = username.toLowerCase();
  return store.users.find((user) => user.username.toLowerCase() === key);
}

export function openSession(userId: number): string {
  const token = `mock-token-${userId}-${store.nextToken++}`;
  store.sessions.set(token, userId);
  return token;
}

export function revokeSession(token: string): void {
  store.sessions.delete(token);
  revoked.add(token);
}

/**
 * The user of a token. A mock token names its user, so `npm run dev:mock` keeps the operator signed in across
 * page reloads (which reset this in-memory store).
 */
export function userForToken(token: string | null | undefined): MockUser | undefined {
  if (!token || revoked.has(token)) return undefined;
  const id = store.sessions.get(token) ?? Number(/^mock-token-(\d+)-\d+$/.exec(token)?.[1]);
  const user = store.users.find((candidate) => candidate.id === id);
  return user?.is_active ? user : undefined;
}

/** Signs `username` in without a request (tests): stores nothing in the browser, returns the token. */
export function sessionFor(username: string): string {
  const user = findUser(username);
  if (!user) throw new Error(`No mock user ${username}`);
  return openSession(user.id);
}

export const nowIso = (): string => new Date().toISOString();

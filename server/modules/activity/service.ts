import type { FastifyBaseLogger } from 'fastify';
import { describeActivity, type ActivityAction, type ActivityEntry } from '../../../contract/activity';
import type { Clock } from '../../lib/clock';
import type { ActivityRepository, ActivityRow } from './repository';

/** Who did it: a signed-in user (a session's user row fits), or null for the server itself. */
export interface ActivityActor {
  id: number | null;
  username: string;
}

export interface ActivityTargetInput {
  /** user, instance, image, mosque, repository, job ... */
  type: string;
  id: string | number;
  /** A readable name, e.g. the mosque's name. */
  label?: string | null;
}

export interface ActivityInput {
  actor: ActivityActor | null;
  action: ActivityAction;
  target?: ActivityTargetInput | null;
  /** What changed or what was asked. Keys that look like secrets are dropped whatever their depth. */
  detail?: Record<string, unknown> | null;
}

/** Key names never stored, even if a caller passes them by mistake. */
const SECRET_KEY = /password|passwd|token|secret|^pat$|_pat$|authorization|cookie|api[_-]?key/i;
const MAX_DETAIL_CHARS = 8 * 1024;

function scrub(value: unknown, depth = 0): unknown {
  if (depth > 5) return '[nested]';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => scrub(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue;
      out[key] = SECRET_KEY.test(key) ? '[redacted]' : scrub(v, depth + 1);
    }
    return out;
  }
  return value;
}

function serializeDetail(detail: Record<string, unknown> | null | undefined): string | null {
  if (!detail) return null;
  const text = JSON.stringify(scrub(detail));
  if (text.length <= MAX_DETAIL_CHARS) return text;
  return JSON.stringify({ truncated: true, keys: Object.keys(detail).slice(0, 50) });
}

function parseDetail(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return null;
  }
}

export function toActivityEntry(row: ActivityRow): ActivityEntry {
  const actor = row.actor_username !== null ? { id: row.actor_id, username: row.actor_username } : null;
  const target =
    row.target_type !== null && row.target_id !== null
      ? { type: row.target_type, id: row.target_id, label: row.target_label }
      : null;
  const entry = { id: row.id, at: row.at, actor, action: row.action, target, detail: parseDetail(row.detail) };
  return { ...entry, summary: describeActivity(entry) };
}

/** Detail keys that describe an account or where someone signed in from: for superusers' eyes only. */
const ACCOUNT_DETAIL = new Set([
  'email',
  'role',
  'is_superuser',
  'is_active',
  'full_name',
  'ip',
  'user_agent',
  'changes',
]);

function withoutAccountDetails(entry: ActivityEntry): ActivityEntry {
  if (!entry.detail) return entry;
  const detail = Object.fromEntries(Object.entries(entry.detail).filter(([key]) => !ACCOUNT_DETAIL.has(key)));
  return { ...entry, detail: Object.keys(detail).length > 0 ? detail : null };
}

/**
 * The activity log: who did what, when, to what. Recording never fails the action it describes: a
 * write that fails is logged (without its detail) and the caller carries on.
 */
export class ActivityService {
  private lastFailure: { at: number; message: string } | undefined;

  constructor(
    private readonly repository: ActivityRepository,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async record(input: ActivityInput): Promise<void> {
    try {
      await this.repository.insert({
        at: this.clock.now().toISOString(),
        actor_id: input.actor?.id ?? null,
        actor_username: input.actor?.username ?? null,
        action: input.action,
        target_type: input.target ? input.target.type : null,
        target_id: input.target ? String(input.target.id) : null,
        target_label: input.target?.label ?? null,
        detail: serializeDetail(input.detail),
      });
      this.lastFailure = undefined;
    } catch (error) {
      this.log.error({ err: error, action: input.action }, 'could not write the activity log');
      this.lastFailure = {
        at: this.clock.now().getTime(),
        message: error instanceof Error ? error.message : String(error),
      };
    }
  }

  /** Health: unhealthy while the latest write failed (a full database disk drops entries, which must show). */
  readonly healthCheck = async (): Promise<{ status: 'healthy' | 'unhealthy'; detail: string }> => {
    const failure = this.lastFailure;
    if (!failure) return { status: 'healthy', detail: 'Entries are being written' };
    return { status: 'unhealthy', detail: `Activity entries are being lost: ${failure.message.slice(0, 160)}` };
  };

  /** The newest entries; account details in them (emails, roles, flags, addresses) only for superusers. */
  async latest(limit: number, before: number | undefined, reader: { superuser: boolean }): Promise<ActivityEntry[]> {
    const entries = (await this.repository.latest(limit, before)).map(toActivityEntry);
    return reader.superuser ? entries : entries.map(withoutAccountDetails);
  }
}

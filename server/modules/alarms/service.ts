import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ALARM_KINDS, type Alarm, type AlarmKind } from '../../../contract/alarms';
import type { ServerMessage } from '../../../contract/live';
import { maskUrlSecrets } from '../../../recorder/url-secrets';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/http-error';
import type { ActivityService } from '../activity';
import type { AlarmLinks, AlarmRow, AlarmsRepository, LinkedAlarm } from './repository';

/** What a module says when something is wrong: one cause, named by a stable key. */
export interface AlarmCause {
  kind: AlarmKind;
  /** Names the cause, e.g. `recorder_died:cap-…`; a second raise of an open key changes nothing. */
  key: string;
  /** One sentence a person understands. */
  message: string;
  /** Default: the kind's severity (contract/alarms.ts). */
  severity?: Alarm['severity'];
  mosqueId?: string | null;
  mosqueName?: string | null;
  jobId?: string | null;
  instanceId?: string | null;
}

/** Told of every alarm raised, acknowledged or resolved (live feed, webhook, e-mail, metrics). */
export type AlarmListener = (alarm: Alarm, change: 'raised' | 'acknowledged' | 'resolved') => void;

export interface AlarmsDeps {
  repository: AlarmsRepository;
  clock: Clock;
  activity: ActivityService;
  publish: (message: ServerMessage) => void;
  log: FastifyBaseLogger;
}

/**
 * An alarm as people read it. Read with its mosque's name of now, it says that name, in its message too
 * (written when it was raised, with the name of then), so an alarm follows a rename.
 */
export function toAlarm(row: AlarmRow): Alarm {
  const raisedAs = row.mosque_name;
  const current = row.current_mosque_name ?? raisedAs;
  const renamed = raisedAs !== null && current !== null && current !== raisedAs;
  return {
    id: row.id,
    kind: row.kind as AlarmKind,
    severity: row.severity,
    mosque_id: row.mosque_id,
    mosque_name: current,
    job_id: row.job_id,
    instance_id: row.instance_id,
    message: maskUrlSecrets(renamed ? row.message.split(raisedAs).join(current) : row.message),
    raised_at: row.raised_at,
    acknowledged_at: row.acknowledged_at,
    acknowledged_by: row.acknowledged_by,
    resolved_at: row.resolved_at,
  };
}

/**
 * The one place alarms are raised, acknowledged and resolved (docs/architecture.md, "Capture"). Other modules
 * only raise and resolve causes; delivery (live feed here, webhook and e-mail through listeners)
 * happens once per change, on the server that made it.
 */
export class AlarmsService {
  private readonly listeners: AlarmListener[] = [];

  constructor(private readonly deps: AlarmsDeps) {}

  onChange(listener: AlarmListener): void {
    this.listeners.push(listener);
  }

  /** Raises an alarm for a cause unless one is open already; returns the open alarm either way. */
  async raise(cause: AlarmCause): Promise<Alarm> {
    const { repository, clock } = this.deps;
    const existing = await repository.findOpenByCause(cause.key);
    if (existing) return toAlarm(existing);
    const at = clock.now().toISOString();
    const row: AlarmRow = {
      id: `alm-${crypto.randomBytes(8).toString('hex')}`,
      cause_key: cause.key,
      kind: cause.kind,
      severity: cause.severity ?? ALARM_KINDS[cause.kind],
      mosque_id: cause.mosqueId ?? null,
      mosque_name: cause.mosqueName ?? null,
      job_id: cause.jobId ?? null,
      instance_id: cause.instanceId ?? null,
      message: cause.message,
      raised_at: at,
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: null,
      updated_at: at,
    };
    if (!(await repository.insertOpen(row))) {
      const raisedElsewhere = await repository.findOpenByCause(cause.key);
      if (raisedElsewhere) return toAlarm(raisedElsewhere);
    }
    const alarm = toAlarm(row);
    this.announce(alarm, 'raised');
    return alarm;
  }

  /**
   * Raises an alarm for a cause that never had one: once its alarm is resolved the cause stays quiet.
   * For causes that are events in one recording's story (its stall), not conditions that may come
   * back: a second stall of the same Friday is told by its outcome, not by a second alarm. Returns the
   * cause's alarm, open or resolved.
   */
  async raiseOnce(cause: AlarmCause): Promise<Alarm> {
    const earlier = await this.deps.repository.findLatestByCause(cause.key);
    return earlier ? toAlarm(earlier) : this.raise(cause);
  }

  /**
   * The alarm a cause deserves now, for causes whose figures change (a revised outcome, a count of
   * relaunches): an open alarm of the same kind takes the new text in place (the live feed shows it;
   * no second notification), one of another kind (capture_failed revised to partial) is resolved and
   * the new one raised, keeping the links the cause does not give.
   */
  async restate(cause: AlarmCause): Promise<Alarm> {
    const { repository, clock } = this.deps;
    const existing = await repository.findOpenByCause(cause.key);
    if (!existing) return this.raise(cause);
    if (existing.kind === cause.kind) {
      if (existing.message === cause.message) return toAlarm(existing);
      const updated = await repository.update(existing.id, {
        message: cause.message,
        updated_at: clock.now().toISOString(),
      });
      const alarm = toAlarm({ ...existing, ...updated, current_mosque_name: existing.current_mosque_name });
      this.deps.publish({ type: 'alarm', data: alarm });
      return alarm;
    }
    await this.resolve(cause.key);
    return this.raise({
      ...cause,
      mosqueId: cause.mosqueId ?? existing.mosque_id,
      mosqueName: cause.mosqueName ?? existing.mosque_name,
      jobId: cause.jobId ?? existing.job_id,
      instanceId: cause.instanceId ?? existing.instance_id,
    });
  }

  /** The causes cleared: their open alarms are resolved (no-op for causes with none). */
  async resolve(...keys: string[]): Promise<void> {
    const rows = await this.deps.repository.resolveOpen(keys, this.deps.clock.now().toISOString());
    for (const row of rows) this.announce(toAlarm(row), 'resolved');
  }

  /** The cause keys of the open alarms whose key starts with `prefix`. */
  async openKeys(prefix: string): Promise<string[]> {
    return (await this.deps.repository.openCauseKeys()).filter((key) => key.startsWith(prefix));
  }

  /** Resolves every open alarm whose key starts with `prefix` but is not in `stillTrue`. */
  async resolveAllExcept(prefix: string, stillTrue: ReadonlySet<string>): Promise<void> {
    const open = await this.deps.repository.openCauseKeys();
    await this.resolve(...open.filter((key) => key.startsWith(prefix) && !stillTrue.has(key)));
  }

  async acknowledge(id: string, actor: { id: number; username: string }): Promise<Alarm> {
    const { repository, clock } = this.deps;
    const row = await repository.findById(id);
    if (!row) throw notFound(`Alarm ${id} not found`);
    if (row.acknowledged_at) return toAlarm(row);
    const at = clock.now().toISOString();
    const updated = await repository.update(id, {
      acknowledged_at: at,
      acknowledged_by: actor.username,
      updated_at: at,
    });
    if (!updated) throw notFound(`Alarm ${id} not found`);
    const alarm = toAlarm({ ...updated, current_mosque_name: row.current_mosque_name });
    await this.deps.activity.record({
      actor,
      action: 'alarm.acknowledge',
      target: { type: 'alarm', id, label: alarm.message },
    });
    this.announce(alarm, 'acknowledged');
    return alarm;
  }

  async list(status: 'open' | 'all', limit: number): Promise<Alarm[]> {
    return (await this.deps.repository.list(status, limit)).map(toAlarm);
  }

  /** Alarms of these jobs or instances, and the open alarms of these causes (the Friday ledger links them). */
  linkedTo(links: AlarmLinks): Promise<LinkedAlarm[]> {
    return this.deps.repository.linkedTo(links);
  }

  /** Open critical alarms: while there is one, system health is degraded. */
  openCriticalCount(): Promise<number> {
    return this.deps.repository.countOpen('critical');
  }

  /** Open alarms by kind and severity. */
  openCounts(): Promise<{ kind: string; severity: string; count: number }[]> {
    return this.deps.repository.openCounts();
  }

  private announce(alarm: Alarm, change: 'raised' | 'acknowledged' | 'resolved'): void {
    this.deps.publish({ type: 'alarm', data: alarm });
    if (change !== 'acknowledged') {
      void this.deps.activity.record({
        actor: null,
        action: change === 'raised' ? 'alarm.raise' : 'alarm.resolve',
        target: { type: 'alarm', id: alarm.id, label: alarm.message },
        detail: {
          kind: alarm.kind,
          severity: alarm.severity,
          mosque_id: alarm.mosque_id,
          job_id: alarm.job_id,
          instance_id: alarm.instance_id,
        },
      });
    }
    for (const listener of this.listeners) {
      try {
        listener(alarm, change);
      } catch (error) {
        this.deps.log.error({ err: error, alarm: alarm.id }, 'an alarm listener failed');
      }
    }
  }
}

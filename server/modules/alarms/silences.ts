import crypto from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Alarm, AlarmKind, AlarmSilence, CreateSilenceBody } from '../../../contract/alarms';
import type { AlarmSilencesTable, Database } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { badRequest, notFound } from '../../lib/http-error';
import type { ActivityActor, ActivityService } from '../activity';

type SilenceRow = Selectable<AlarmSilencesTable>;

export class SilencesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: SilenceRow): Promise<void> {
    await this.db.insertInto('alarm_silences').values(row).execute();
  }

  findById(id: string): Promise<SilenceRow | undefined> {
    return this.db.selectFrom('alarm_silences').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Silences in force at `at` (there are few: operators set them by hand). */
  activeAt(at: string): Promise<SilenceRow[]> {
    return this.db
      .selectFrom('alarm_silences')
      .selectAll()
      .where('lifted_at', 'is', null)
      .where('starts_at', '<=', at)
      .where('ends_at', '>', at)
      .orderBy('ends_at')
      .execute();
  }

  recent(limit: number): Promise<SilenceRow[]> {
    return this.db
      .selectFrom('alarm_silences')
      .selectAll()
      .orderBy('starts_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async lift(id: string, at: string, by: string): Promise<SilenceRow | undefined> {
    return this.db
      .updateTable('alarm_silences')
      .set({ lifted_at: at, lifted_by: by })
      .where('id', '=', id)
      .where('lifted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }
}

/** How many ended or lifted silences `status=all` lists with the active ones. */
const SILENCES_LISTED = 200;

export interface SilencesDeps {
  repository: SilencesRepository;
  clock: Clock;
  activity: ActivityService;
  /** The mosque's name, or null when there is no such mosque. */
  mosqueName: (mosqueId: string) => Promise<string | null>;
}

/** Does this silence hold this alarm's notifications? Every field it names must match. */
export function silences(
  silence: Pick<AlarmSilence, 'mosque_id' | 'kind'>,
  alarm: Pick<Alarm, 'mosque_id' | 'kind'>,
): boolean {
  return (
    (silence.mosque_id === null || silence.mosque_id === alarm.mosque_id) &&
    (silence.kind === null || silence.kind === alarm.kind)
  );
}

/**
 * Silences an operator sets for a mosque or a kind of alarm, until a time: the alarms are still raised
 * and listed, their notifications are held (notification-policy.ts asks `holding`).
 */
export class SilencesService {
  constructor(private readonly deps: SilencesDeps) {}

  async list(status: 'active' | 'all'): Promise<AlarmSilence[]> {
    const now = this.deps.clock.now().toISOString();
    const rows =
      status === 'active'
        ? await this.deps.repository.activeAt(now)
        : await this.deps.repository.recent(SILENCES_LISTED);
    return Promise.all(rows.map((row) => this.toSilence(row)));
  }

  async create(body: CreateSilenceBody, actor: ActivityActor): Promise<AlarmSilence> {
    const { repository, clock, activity, mosqueName } = this.deps;
    if (body.mosque_id !== undefined && (await mosqueName(body.mosque_id)) === null)
      throw badRequest(`Mosque ${body.mosque_id} does not exist`);
    const now = clock.now();
    const row: SilenceRow = {
      id: `sil-${crypto.randomBytes(8).toString('hex')}`,
      mosque_id: body.mosque_id ?? null,
      kind: body.kind ?? null,
      comment: body.comment,
      created_by: actor.username,
      starts_at: now.toISOString(),
      ends_at: new Date(now.getTime() + body.duration_minutes * 60_000).toISOString(),
      lifted_at: null,
      lifted_by: null,
    };
    await repository.insert(row);
    const silence = await this.toSilence(row);
    await activity.record({
      actor,
      action: 'alarm.silence',
      target: { type: 'silence', id: row.id, label: subjectOf(silence) },
      detail: { until: row.ends_at, comment: row.comment },
    });
    return silence;
  }

  /** Ends a silence now; lifting one that already ended or was lifted changes nothing. */
  async lift(id: string, actor: ActivityActor): Promise<AlarmSilence> {
    const { repository, clock, activity } = this.deps;
    const lifted = await repository.lift(id, clock.now().toISOString(), actor.username);
    const row = lifted ?? (await repository.findById(id));
    if (!row) throw notFound(`Silence ${id} not found`);
    const silence = await this.toSilence(row);
    if (lifted)
      await activity.record({
        actor,
        action: 'alarm.silence_lift',
        target: { type: 'silence', id, label: subjectOf(silence) },
      });
    return silence;
  }

  /** The silences in force now (the policy checks each alarm against them). */
  async active(): Promise<Pick<AlarmSilence, 'id' | 'mosque_id' | 'kind'>[]> {
    return (await this.deps.repository.activeAt(this.deps.clock.now().toISOString())).map((row) => ({
      id: row.id,
      mosque_id: row.mosque_id,
      kind: row.kind as AlarmKind | null,
    }));
  }

  private async toSilence(row: SilenceRow): Promise<AlarmSilence> {
    const mosqueName = row.mosque_id ? await this.deps.mosqueName(row.mosque_id).catch(() => null) : null;
    return { ...row, kind: row.kind as AlarmKind | null, mosque_name: mosqueName };
  }
}

/** What a silence holds, as the activity log names it: "Al Noor Mosque", "stall alarms" or both. */
function subjectOf(silence: AlarmSilence): string {
  const mosque = silence.mosque_id ? (silence.mosque_name ?? silence.mosque_id) : null;
  const kind = silence.kind ? `${silence.kind} alarms` : null;
  return [mosque, kind].filter(Boolean).join(': ');
}

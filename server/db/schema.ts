import type { Generated } from 'kysely';

/*
 * Table types. Instants are stored as ISO 8601 UTC text and booleans as 0/1 integers in both
 * SQLite and PostgreSQL, so one repository serves both dialects without conversion code.
 * Each module adds its tables here.
 */

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username: the unique key, so names are unique case-insensitively. */
  username_key: string;
  email: string;
  full_name: string | null;
  role: 'admin' | 'user';
  is_active: number;
  is_superuser: number;
  password_hash: string;
  /** 1 while the password is the one generated at the first start (migration 022). */
  password_generated: Generated<number>;
  last_login: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** The JWT's `jti`. */
  id: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  ip: string | null;
  user_agent: string | null;
}

/** One row (id 1): bumped by every revocation and user change; servers drop cached sessions when it moves. */
export interface AuthGenerationTable {
  id: number;
  generation: number;
}

export interface SchedulerJobsTable {
  id: string;
  kind: 'recording' | 'recurring';
  name: string;
  func: string;
  trigger: string;
  next_run_time: string | null;
  status: 'scheduled' | 'launching' | 'launched' | 'captured' | 'partial' | 'failed' | 'missed' | 'cancelled';
  mosque_id: string | null;
  mosque_name: string | null;
  friday_date: string | null;
  prayer_time: string | null;
  timezone: string | null;
  recording_start: string | null;
  recording_end: string | null;
  url: string | null;
  duration: number | null;
  width: number | null;
  height: number | null;
  attempts: Generated<number>;
  last_error: string | null;
  late: Generated<number>;
  instance_id: string | null;
  /** `host/pid/nonce` of the scheduler process that holds the launch. */
  claimed_by: string | null;
  claimed_at: string | null;
  launched_at: string | null;
  created_at: string;
  updated_at: string;
  /** Why the job ended as it did (partial, failed, missed, cancelled), in words a person understands. */
  outcome_reason: string | null;
  /** Seconds of the window the media covers (measured by the recorder), once the outcome is known. */
  covered_seconds: number | null;
  /** Seconds from recording start to window end. */
  expected_seconds: number | null;
  recording_id: string | null;
  /** Who cancelled the job; null when the system did (a mosque no longer active), which may plan it again. */
  cancelled_by: string | null;
  /** When the pre-flight checks first ran for this job (10 minutes before its start). */
  preflight_at: string | null;
}

export interface SchedulerStateTable {
  id: number;
  running: number;
  updated_at: string;
  updated_by: string | null;
  /** Which server is planning (its claimant id), while its lease lasts. */
  planning_by: string | null;
  planning_until: string | null;
}

export interface MosquesTable {
  mosque_id: string;
  name: string;
  /** naturalSortKey(name): the name table sorts by it ("Mosque 2" before "Mosque 10"); written with the name. */
  name_sort: string;
  name_ar: string | null;
  google_maps_url: string | null;
  /** JSON array of language codes. */
  languages: string;
  /** docs/reference.md's ID_token: the stream source identifier (a URL, or an id for STREAM_URL_TEMPLATE). */
  id_token: string | null;
  active: number;
  broadcast_status: 'inactive' | 'playing' | 'ended';
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
  city: string | null;
  district: string | null;
  country: string | null;
  country_code: string | null;
  /** How the coordinates were obtained: manual, map_link, map_link_redirect. */
  coordinates_method: string | null;
  calculation_method: string | null;
  /** Local HH:MM in the mosque's zone. */
  fixed_jumuah_time: string | null;
  created_at: string;
  updated_at: string;
}

export interface ActivityTable {
  id: Generated<number>;
  at: string;
  actor_id: number | null;
  actor_username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  /** JSON object, or null. */
  detail: string | null;
}

/** Server settings by key; secret values are sealed with AES-256-GCM (server/lib/crypto.ts). */
export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
  updated_by: string | null;
}

export interface InstancesTable {
  /** The fleet's id (`cap-…`); the local driver uses it as its instance id too. */
  id: string;
  provider: 'local' | 'aws';
  /** The driver that sees it: `local:<host>:<data dir>` or `aws:<region>` ('' when unknown). */
  scope: Generated<string>;
  /** The driver's id (local: same as id; aws: the EC2 instance id); null while the launch is in flight. */
  provider_instance_id: string | null;
  name: string;
  state: 'pending' | 'running' | 'stopping' | 'stopped' | 'terminated';
  instance_type: string;
  mosque_id: string | null;
  url: string;
  method: string;
  duration: number;
  width: number;
  height: number;
  image_id: string | null;
  launch_time: string;
  /** When media first flowed (local) or the machine came up (aws): launch-time metrics. */
  running_at: string | null;
  ended_at: string | null;
  state_reason: string | null;
  job_id: string | null;
  updated_at: string;
  /** The recording window it was launched for (ISO UTC, migration 011): a relaunch records the same. */
  window_start: string | null;
  window_end: string | null;
}

export interface RecordingsTable {
  id: string;
  instance_id: string;
  mosque_id: string | null;
  url: string;
  status: 'recording' | 'captured' | 'partial' | 'failed';
  started_at: string;
  ended_at: string | null;
  bytes: number;
  duration_seconds: number | null;
  /** Absolute path of the file on this server (local driver), else null. */
  file_path: string | null;
  reason: string | null;
  /** Length of the recording window, and the seconds of it the media covers (migration 006). */
  expected_seconds: number | null;
  covered_seconds: number | null;
  /** JSON array of {start, end, reason}: the parts of the window without media. */
  gaps: Generated<string>;
  reconnects: Generated<number>;
  /** JSON array of the finished runs' readings when the fleet relaunched its recorder (migration 011). */
  runs: Generated<string>;
  /** When the server joined the segments of all its runs into its file in the store (migration 014). */
  store_joined_at: string | null;
  /** Judged without its recorder's result: the store is read again until then (migration 018). */
  provisional_until: string | null;
  /** JSON {sequence, end}: the last segment its HLS recorder kept, as last read (migration 026). */
  resume_point: string | null;
  /** JSON ContentSummary: what its recorder last reported of its content while it records (migration 028). */
  live_content: string | null;
  updated_at: string;
}

export interface ImagesTable {
  ami_id: string;
  provider: 'local' | 'aws';
  scope: Generated<string>;
  name: string;
  description: string;
  version: string;
  state: 'available' | 'pending' | 'failed';
  size_gb: number;
  created_at: string;
  /** JSON object of tags. */
  tags: string;
  source_instance_id: string | null;
  updated_at: string;
}

/** One alarm per raised cause (contract/alarms.ts); open while resolved_at is null. */
export interface AlarmsTable {
  /** `alm-` + 16 hex. */
  id: string;
  /** What was wrong, e.g. `recorder_died:cap-…`: unique among open alarms. */
  cause_key: string;
  kind: string;
  severity: 'critical' | 'warning' | 'info';
  mosque_id: string | null;
  mosque_name: string | null;
  job_id: string | null;
  instance_id: string | null;
  message: string;
  raised_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  updated_at: string;
}

/** One outbound delivery of an alarm change (contract/alarms.ts, alarmDeliverySchema). */
export interface AlarmDeliveriesTable {
  /** `dlv-` + 16 hex. */
  id: string;
  alarm_id: string;
  /** The message it went out in: alarms raised together share one (alarms/notification-policy.ts). */
  notification_id: string;
  channel: 'webhook' | 'email';
  event: 'raised' | 'repeated' | 'resolved';
  state: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: Generated<number>;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  /** The server sending it now, until `claim_until`; after that any server may take it over. */
  claimed_by: string | null;
  claim_until: string | null;
}

/** An event of the live feed, kept a while so other servers can relay it and a console that comes back can replay it. */
export interface LiveEventsTable {
  /** Increases with every event of this database: the sequence number consoles resume from. */
  id: Generated<number>;
  server_id: string;
  /** The message's type (replay leaves out the snapshots that initial_data supersedes). */
  type: string;
  /** The message as JSON, without its event id. */
  payload: string;
  created_at: string;
}

/** One failed attempt counted by a limiter (sign-ins per address and name, per address; password checks per account). */
export interface LimiterFailuresTable {
  id: Generated<number>;
  limiter: string;
  key: string;
  failed_at: string;
}

/** An operator's hold on the notifications of a mosque's alarms or of a kind, until ends_at (contract/alarms.ts). */
export interface AlarmSilencesTable {
  /** `sil-` + 16 hex. */
  id: string;
  mosque_id: string | null;
  kind: string | null;
  comment: string;
  created_by: string;
  starts_at: string;
  ends_at: string;
  lifted_at: string | null;
  lifted_by: string | null;
}

/** One server sharing the database (migration 020): dead when last_seen is more than 20 s old. */
/** A live socket a session holds on some server (the per-session cap is counted across servers). */
export interface LiveSocketsTable {
  id: string;
  session_id: string;
  server_id: string;
  opened_at: string;
}

export interface ServersTable {
  id: string;
  /** The machine's hostname: a dead server's local recorders can be adopted only on the same machine. */
  host: string;
  /** Where the other servers call it (internal routes): http://host:port. */
  internal_address: string;
  version: string;
  /** The scope of its capture driver (`local:<host>:<data dir>` or `aws:<region>`), as on its instances. */
  scope: string;
  started_at: string;
  last_seen: string;
  /** Set when it stopped cleanly (its recorders run on, it takes them back); null while it runs, or when it was lost. */
  stopped_at: string | null;
  /** The server that took it over once its lease ran out (it is dead from then on, its beats refused); null while it holds its lease. */
  taken_over_by: string | null;
  taken_over_at: string | null;
}

/** Which live server looks after the recorders of a scope whose own servers are all dead, and until when. */
export interface ScopeAdoptionsTable {
  scope: string;
  server_id: string;
  until: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  live_sockets: LiveSocketsTable;
  auth_generation: AuthGenerationTable;
  instances: InstancesTable;
  recordings: RecordingsTable;
  images: ImagesTable;
  mosques: MosquesTable;
  scheduler_jobs: SchedulerJobsTable;
  scheduler_state: SchedulerStateTable;
  activity: ActivityTable;
  settings: SettingsTable;
  alarms: AlarmsTable;
  alarm_deliveries: AlarmDeliveriesTable;
  alarm_silences: AlarmSilencesTable;
  live_events: LiveEventsTable;
  limiter_failures: LimiterFailuresTable;
  servers: ServersTable;
  scope_adoptions: ScopeAdoptionsTable;
}

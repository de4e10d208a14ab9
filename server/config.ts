import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, usernameSchema } from '../contract/auth';
import { DEFAULT_STREAM_URL_TEMPLATE } from '../contract/recording-configs';
import { parseS3Location } from './storage/s3-location';
import { MAX_RECORDINGS_PER_INSTANCE } from './capture/aws/shared-instance';

const PER_INSTANCE_RANGE = `RECORDINGS_PER_INSTANCE must be a whole number from 1 to ${MAX_RECORDINGS_PER_INSTANCE}`;

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value === '1' || value === 'true'));

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

const splitList = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean) ?? [];

/** Tag keys the driver writes itself (or AWS reserves): an operator tag must not shadow them. */
const RESERVED_TAG = /^(aws:|Name$|managed-by$|launch-id$|recording-id$|job-id$|idempotency-key$|mosque_id$|capture-)/;

/** `team=media,cost-centre=friday` as tags, else what is wrong with it. */
function parseExtraTags(value: string): Record<string, string> | string {
  const tags: Record<string, string> = {};
  for (const pair of splitList(value)) {
    const at = pair.indexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim() : '';
    const text = at > 0 ? pair.slice(at + 1).trim() : '';
    if (!key) return `AWS_EXTRA_TAGS: "${pair}" is not key=value (e.g. team=media,cost-centre=friday)`;
    if (key.length > 128 || text.length > 256)
      return `AWS_EXTRA_TAGS: "${key}" is too long (keys 128, values 256 characters at most)`;
    if (RESERVED_TAG.test(key)) return `AWS_EXTRA_TAGS: "${key}" is a tag the server writes itself`;
    tags[key] = text;
  }
  return tags;
}

/** `t3.small=0.0208,c6i.large=0.085` as USD per hour per instance type, else what is wrong with it. */
function parseHourlyPrices(value: string): Record<string, number> | string {
  const prices: Record<string, number> = {};
  for (const pair of splitList(value)) {
    const [type, price, extra] = pair.split('=').map((part) => part.trim());
    const usd = Number(price);
    if (!type || price === undefined || extra !== undefined || price === '' || !Number.isFinite(usd) || usd < 0)
      return `AWS_HOURLY_PRICES: "${pair}" is not type=dollars-per-hour (e.g. t3.small=0.0208)`;
    prices[type] = usd;
  }
  return prices;
}

/** A `key=value` list variable parsed by `parse`, whose error (a string) becomes the variable's issue. */
const pairList = <T extends Record<string, unknown>>(parse: (value: string) => T | string) =>
  optionalText.pipe(
    z
      .string()
      .transform((value, ctx) => {
        const parsed = parse(value);
        if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
        return typeof parsed === 'string' ? ({} as T) : parsed;
      })
      .optional(),
  );

/**
 * A local recorder runs this much nicer than the server by default: a Friday's recorders using every
 * core still leave the server the CPU it asks for (bench/server-peak.ts: the console's GET at p99 went
 * from 8.7 s to 456 ms with 100 recordings on two cores).
 */
const RECORDER_NICENESS = 10;

/** An audio-only file is encoded at the lowest priority by default: a Friday's live recorders come first (decision 025). */
const AUDIO_NICENESS = 19;

/** A whole number in [min, max], or unset. */
const wholeInRange = (name: string, min: number, max: number) =>
  optionalText.pipe(
    z.coerce
      .number<string | undefined>(`${name} must be a number`)
      .int(`${name} must be a whole number`)
      .min(min, `${name} must be ${min} to ${max}`)
      .max(max, `${name} must be ${min} to ${max}`)
      .optional(),
  );

/** Every environment variable the server reads; all optional (docs/architecture.md, "Contract for running it"). */
const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    // An empty PORT means the default, not port 0 (which would listen on a random port).
    PORT: optionalText.pipe(
      z.coerce.number<string | undefined>('PORT must be a number').int().min(0).max(65535).default(8000),
    ),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    // Where the other servers sharing the database call this one (recorder control, media); default http://HOST:PORT.
    INTERNAL_URL: optionalText.pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'INTERNAL_URL must be an http(s) URL the other servers reach this one on (e.g. http://10.0.0.5:8000)',
        })
        .optional(),
    ),
    // The machine this server runs on, as the servers sharing the database tell machines apart (a local
    // recorder's scope names it); default the hostname. No ':' (it separates the scope's parts).
    SERVER_HOST_NAME: optionalText.pipe(
      z
        .string()
        .regex(
          /^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/,
          'SERVER_HOST_NAME must be a host name: letters, digits, ".", "_" and "-", at most 253 characters',
        )
        .optional(),
    ),
    DATABASE_URL: optionalText.refine(
      (url) => url === undefined || /^(postgres(ql)?:\/\/|sqlite:|file:)/.test(url),
      'DATABASE_URL must be a postgres:// URL, or sqlite:/file: followed by a path',
    ),
    SECRET_KEY: optionalText.refine(
      (key) => key === undefined || key.length >= 32,
      'SECRET_KEY must be at least 32 characters',
    ),
    // Checked like any username now, rather than failing when the first superuser is created.
    ADMIN_USERNAME: optionalText.pipe(usernameSchema.default('admin')),
    ADMIN_PASSWORD: optionalText
      .refine((pw) => pw === undefined || pw.length >= 8, 'ADMIN_PASSWORD must be at least 8 characters')
      .refine(
        (pw) => pw === undefined || pw.length <= PASSWORD_MAX_LENGTH,
        `ADMIN_PASSWORD must be at most ${PASSWORD_MAX_LENGTH} characters`,
      ),
    CAPTURE_PROVIDER: z.enum(['local', 'aws']).default('local'),
    AWS_REGION: z.string().default('us-east-1'),
    AWS_ENDPOINT_URL: optionalText.pipe(z.url('AWS_ENDPOINT_URL must be a URL').optional()),
    FFMPEG_PATH: optionalText,
    STALL_TIMEOUT_SECONDS: optionalText.pipe(
      z.coerce.number<string | undefined>('STALL_TIMEOUT_SECONDS must be a number').int().min(2).max(3600).optional(),
    ),
    FFPROBE_PATH: optionalText,
    YTDLP_PATH: optionalText,
    RECORDER_RETRY_SECONDS: optionalText.pipe(
      z.coerce.number<string | undefined>('RECORDER_RETRY_SECONDS must be a number').min(0.5).max(300).optional(),
    ),
    RECORDER_RETRY_MAX_SECONDS: optionalText.pipe(
      z.coerce.number<string | undefined>('RECORDER_RETRY_MAX_SECONDS must be a number').min(0.5).max(600).optional(),
    ),
    // How far a local recorder's ffmpeg may fall behind an HLS stream before segments are let go (recorder_overloaded).
    RECORDER_OVERLOAD_SECONDS: optionalText.pipe(
      z.coerce
        .number<string | undefined>('RECORDER_OVERLOAD_SECONDS must be a number')
        .min(4, 'RECORDER_OVERLOAD_SECONDS must be 4 to 3600')
        .max(3600, 'RECORDER_OVERLOAD_SECONDS must be 4 to 3600')
        .optional(),
    ),
    // How much nicer than the server a local recorder runs (its ffmpeg too): 0 runs it at the server's priority.
    RECORDER_NICENESS: wholeInRange('RECORDER_NICENESS', 0, 19),
    // How much nicer than the server an audio-only file is encoded: 0 encodes it at the server's priority.
    AUDIO_NICENESS: wholeInRange('AUDIO_NICENESS', 0, 19),
    // How long before its window a recorder is started (boot and installs); default 0 local, 300 aws.
    CAPTURE_LEAD_SECONDS: optionalText.pipe(
      z.coerce
        .number<string | undefined>('CAPTURE_LEAD_SECONDS must be a number')
        .int('CAPTURE_LEAD_SECONDS must be whole seconds')
        .min(0, 'CAPTURE_LEAD_SECONDS must be 0 to 3600')
        .max(3600, 'CAPTURE_LEAD_SECONDS must be 0 to 3600')
        .optional(),
    ),
    // How long a machine may outlive its window before the reaper terminates it.
    CAPTURE_GRACE_SECONDS: optionalText.pipe(
      z.coerce
        .number<string | undefined>('CAPTURE_GRACE_SECONDS must be a number')
        .int('CAPTURE_GRACE_SECONDS must be whole seconds')
        .min(60, 'CAPTURE_GRACE_SECONDS must be 60 to 86400')
        .max(86_400, 'CAPTURE_GRACE_SECONDS must be 60 to 86400')
        .default(600),
    ),
    AWS_IMAGE_ID: optionalText,
    AWS_INSTANCE_TYPE: z.string().trim().min(1).default('t3.medium'),
    // Instance types and subnets to try in turn when EC2 has no capacity (or quota) for one; override the single ones.
    AWS_INSTANCE_TYPES: optionalText,
    AWS_SUBNET_ID: optionalText,
    AWS_SUBNET_IDS: optionalText,
    AWS_SECURITY_GROUP_ID: optionalText,
    // The role EC2 recorders upload with; unset, they get a pre-signed POST policy per recording instead.
    AWS_INSTANCE_PROFILE: optionalText,
    // Operator tags on every instance and volume (cost allocation): key=value pairs separated by commas.
    AWS_EXTRA_TAGS: pairList(parseExtraTags),
    // USD per hour of instance types, over the built-in us-east-1 list prices (instance-cost.ts): type=price pairs.
    AWS_HOURLY_PRICES: pairList(parseHourlyPrices),
    // At most this many recorder machines at once; a launch beyond it is refused. Unset: no cap.
    AWS_MAX_INSTANCES: wholeInRange('AWS_MAX_INSTANCES', 1, 10_000),
    // spot: spot machines, on-demand where EC2 has no spot capacity; on-demand (default): on-demand only.
    AWS_CAPACITY: z.enum(['on-demand', 'spot'], 'AWS_CAPACITY must be on-demand or spot').default('on-demand'),
    // The root volume of every recorder machine, in GB; unset, the image's own size.
    AWS_VOLUME_SIZE_GB: wholeInRange('AWS_VOLUME_SIZE_GB', 8, 16_384),
    // Recordings whose windows open within 10 minutes of each other share one EC2 instance, up to this many.
    RECORDINGS_PER_INSTANCE: optionalText.pipe(
      z.coerce
        .number<string | undefined>(PER_INSTANCE_RANGE)
        .int(PER_INSTANCE_RANGE)
        .min(1, PER_INSTANCE_RANGE)
        .max(MAX_RECORDINGS_PER_INSTANCE, PER_INSTANCE_RANGE)
        .default(1),
    ),
    RECORDINGS_STORE: optionalText.refine(
      (value) => value === undefined || value === 'local' || parseS3Location(value) !== undefined,
      'RECORDINGS_STORE must be "local" or s3://bucket/prefix (a valid bucket name, e.g. s3://sermons/recordings)',
    ),
    S3_ENDPOINT: optionalText.pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'S3_ENDPOINT must be an http(s) URL (e.g. http://127.0.0.1:9000 for MinIO)',
        })
        .optional(),
    ),
    STREAM_URL_TEMPLATE: z
      .string()
      .trim()
      .default(DEFAULT_STREAM_URL_TEMPLATE)
      .refine(
        (t) => t.includes('{id}') && URL.canParse(t.replaceAll('{id}', 'x')),
        'STREAM_URL_TEMPLATE must be a URL with {id} in it',
      ),
    MAPS_LINK_RESOLVE_ORIGIN: optionalText.pipe(z.url('MAPS_LINK_RESOLVE_ORIGIN must be a URL').optional()),
    REQUEST_TIMEOUT_SECONDS: optionalText.pipe(
      z.coerce.number<string | undefined>('REQUEST_TIMEOUT_SECONDS must be a number').int().min(1).max(600).default(30),
    ),
    MAPS_LINK_TIMEOUT_MS: optionalText.pipe(
      z.coerce
        .number<string | undefined>('MAPS_LINK_TIMEOUT_MS must be a number')
        .int()
        .min(100)
        .max(60_000)
        .default(5000),
    ),
    GITHUB_API_URL: z.url('GITHUB_API_URL must be a URL').default('https://api.github.com'),
    // Enables GET /metrics (Prometheus) behind this bearer token; unset, /metrics does not exist.
    METRICS_TOKEN: optionalText.refine(
      (token) => token === undefined || token.length >= 16,
      'METRICS_TOKEN must be at least 16 characters',
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: optionalText.pipe(z.enum(['readable', 'json'], 'LOG_FORMAT must be readable or json').optional()),
    DEMO_STREAM: flag,
    // Recordings that ended more than this many days ago are removed daily; unset keeps them until deleted.
    RETENTION_DAYS: optionalText.pipe(
      z.coerce.number<string | undefined>('RETENTION_DAYS must be a number').int().min(1).max(36_500).optional(),
    ),
    ALLOW_PRIVATE_STREAM_HOSTS: flag,
    ALLOWED_ORIGINS: optionalText,
    // Reverse proxies whose X-Forwarded-For names the client; unset, the connection's address is the client.
    TRUST_PROXY: optionalText.refine(
      (value) => splitList(value).every(isProxyEntry),
      'TRUST_PROXY must be a comma-separated list of proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal)',
    ),
    ALARM_WEBHOOK_URL: optionalText.pipe(
      z.url({ protocol: /^https?$/, error: 'ALARM_WEBHOOK_URL must be an http(s) URL' }).optional(),
    ),
    ALARM_WEBHOOK_SECRET: optionalText.refine(
      (secret) => secret === undefined || secret.length >= 16,
      'ALARM_WEBHOOK_SECRET must be at least 16 characters',
    ),
    SMTP_URL: optionalText.refine(
      (url) => url === undefined || /^smtps?:\/\/[^/]+/.test(url),
      'SMTP_URL must be an smtp:// or smtps:// URL',
    ),
    ALARM_EMAIL_TO: optionalText.pipe(
      z
        .string()
        .transform(splitList)
        .superRefine((addresses, ctx) => {
          const bad = addresses.filter((address) => !z.email().safeParse(address).success);
          if (bad.length > 0)
            ctx.addIssue({
              code: 'custom',
              message: `${bad.join(', ')} ${bad.length === 1 ? 'is not an e-mail address' : 'are not e-mail addresses'} (separate addresses by commas)`,
            });
        })
        .optional(),
    ),
    ALARM_EMAIL_FROM: optionalText.pipe(
      z.email('ALARM_EMAIL_FROM must be an e-mail address').default('alarms@capture.localhost'),
    ),
    // The notification policy (docs/operations/alarms.md): alarms raised within this many seconds go out as one message (0: each alone).
    ALARM_GROUP_WINDOW_SECONDS: optionalText.pipe(
      z.coerce
        .number<string | undefined>('ALARM_GROUP_WINDOW_SECONDS must be a number')
        .int('ALARM_GROUP_WINDOW_SECONDS must be whole seconds')
        .min(0, 'ALARM_GROUP_WINDOW_SECONDS must be 0 to 3600')
        .max(3600, 'ALARM_GROUP_WINDOW_SECONDS must be 0 to 3600')
        .default(30),
    ),
    // An alarm still open this many hours after it was last announced is announced again.
    ALARM_REPEAT_HOURS: optionalText.pipe(
      z.coerce
        .number<string | undefined>('ALARM_REPEAT_HOURS must be a number')
        .min(0.25, 'ALARM_REPEAT_HOURS must be 0.25 to 168')
        .max(168, 'ALARM_REPEAT_HOURS must be 0.25 to 168')
        .default(4),
    ),
    // Content assurance (docs/operations/content-assurance.md): a silent, frozen or black stream is alarmed after this many seconds of it.
    CONTENT_ALARM_SECONDS: optionalText.pipe(
      z.coerce
        .number<string | undefined>('CONTENT_ALARM_SECONDS must be a number')
        .int('CONTENT_ALARM_SECONDS must be whole seconds')
        .min(2, 'CONTENT_ALARM_SECONDS must be 2 to 3600')
        .max(3600, 'CONTENT_ALARM_SECONDS must be 2 to 3600')
        .default(120),
    ),
  })
  .superRefine((env, ctx) => {
    // A half-configured channel would silently deliver nothing: say so at start instead.
    if (env.ALARM_WEBHOOK_SECRET && !env.ALARM_WEBHOOK_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['ALARM_WEBHOOK_SECRET'],
        message: 'ALARM_WEBHOOK_SECRET is set but ALARM_WEBHOOK_URL is not',
      });
    if (env.SMTP_URL && !env.ALARM_EMAIL_TO)
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'SMTP_URL is set but ALARM_EMAIL_TO (who receives alarms) is not',
      });
    if (env.S3_ENDPOINT && !env.RECORDINGS_STORE?.startsWith('s3://'))
      ctx.addIssue({
        code: 'custom',
        path: ['S3_ENDPOINT'],
        message: 'S3_ENDPOINT is set but RECORDINGS_STORE is not an s3:// location',
      });
    // An EC2 recorder's disk goes with its instance (terminated at shutdown): a bucket is the only place its recording can stay.
    if (env.CAPTURE_PROVIDER === 'aws' && !env.RECORDINGS_STORE?.startsWith('s3://')) {
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTURE_PROVIDER'],
        message:
          'CAPTURE_PROVIDER=aws needs RECORDINGS_STORE=s3://bucket/prefix: EC2 recorders deliver to that bucket, and an instance keeps nothing once it ends (or set CAPTURE_PROVIDER=local)',
      });
    }
    if (env.ALARM_EMAIL_TO && !env.SMTP_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['ALARM_EMAIL_TO'],
        message: 'ALARM_EMAIL_TO is set but SMTP_URL (how to send) is not',
      });
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** Where the other servers sharing the database reach this one (servers table). */
  internalUrl: string;
  /** The machine this server runs on (SERVER_HOST_NAME, default the hostname): local recorders' scopes, the servers table, adoption. */
  hostName: string;
  /** `undefined` means SQLite at `<dataDir>/capture.db`. */
  databaseUrl: string | undefined;
  secretKey: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  captureProvider: 'local' | 'aws';
  awsRegion: string;
  awsEndpointUrl: string | undefined;
  ffmpegPath: string | undefined;
  /** How long a request (its headers and body) may take to arrive before it is answered 408. */
  requestTimeoutMs: number;
  /** Seconds without media before a recorder's watchdog ends its capture; undefined: the image's (60 s). */
  stallTimeoutSeconds: number | undefined;
  /** ffprobe and yt-dlp for the recorders; undefined: beside ffmpeg / on PATH. */
  ffprobePath: string | undefined;
  ytDlpPath: string | undefined;
  /** A recorder's first wait before trying a stream again, and the longest (defaults 5 s and 30 s). */
  recorderRetrySeconds: number | undefined;
  recorderRetryMaxSeconds: number | undefined;
  /** RECORDER_OVERLOAD_SECONDS: seconds of segments a local recorder's ffmpeg may have waiting (default 60). */
  recorderOverloadSeconds: number | undefined;
  /** RECORDER_NICENESS: how much nicer than the server a local recorder runs (default 10; 0: not lowered). */
  recorderNiceness: number;
  /** AUDIO_NICENESS: how much nicer than the server an audio-only file is encoded (default 19; 0: not lowered). */
  audioNiceness: number;
  /** CAPTURE_LEAD_SECONDS: how long before its window a recorder is started (default 0 local, 300 aws). */
  captureLeadSeconds: number;
  /** CAPTURE_GRACE_SECONDS: how long a machine may outlive its window before the reaper ends it. */
  captureGraceSeconds: number;
  /** AWS_EXTRA_TAGS: the operator's own tags on every instance and volume. */
  awsExtraTags: Record<string, string>;
  /** AWS_HOURLY_PRICES: the operator's USD per hour per instance type, over the built-in list prices. */
  awsHourlyPrices: Record<string, number>;
  /** AWS_MAX_INSTANCES: recorder machines at once; undefined, no cap. */
  awsMaxInstances: number | undefined;
  /** AWS_CAPACITY: spot machines (on-demand where spot has no capacity), or on-demand only. */
  awsCapacity: 'on-demand' | 'spot';
  /** AWS_VOLUME_SIZE_GB: every recorder's root volume; undefined, the image's size. */
  awsVolumeSizeGb: number | undefined;
  /** Recorder image, instance type and network for EC2 launches (aws provider). */
  awsImageId: string | undefined;
  /** AWS_INSTANCE_TYPES, else AWS_INSTANCE_TYPE: tried in this order on capacity errors. */
  awsInstanceTypes: string[];
  /** AWS_SUBNET_IDS, else AWS_SUBNET_ID (none: EC2's default): launches start at the next one in turn. */
  awsSubnetIds: string[];
  awsSecurityGroupId: string | undefined;
  /** Instance profile (name or ARN) EC2 recorders run with, to upload with its role. */
  awsInstanceProfile: string | undefined;
  /** RECORDINGS_PER_INSTANCE: how many recordings opening close together share one EC2 instance. */
  recordingsPerInstance: number;
  /** RECORDINGS_STORE: `local` (DATA_DIR/recordings) or `s3://bucket/prefix`. */
  recordingsStore: string;
  /** S3_ENDPOINT: MinIO or another S3-compatible service for the s3 store. */
  s3Endpoint: string | undefined;
  /** Stream URL for a mosque whose ID_token is not itself a URL; `{id}` is replaced by the token. */
  streamUrlTemplate: string;
  /** Send short map-link resolution to this origin instead of the link's host (tests, mirrors). */
  mapsLinkResolveOrigin: string | undefined;
  /** Time allowed to resolve one short map link, all redirects included. */
  mapsLinkTimeoutMs: number;
  githubApiUrl: string;
  /** Bearer token of GET /metrics; undefined keeps the endpoint disabled. */
  metricsToken: string | undefined;
  logLevel: string;
  /** How log lines are written; undefined: readable when the server's output is a terminal, else JSON. */
  logFormat: 'readable' | 'json' | undefined;
  demoStream: boolean;
  /** Days recordings are kept after they end; undefined keeps them until deleted. */
  retentionDays: number | undefined;
  /** Let recorders open streams on loopback, private and link-local hosts (off: only the demo stream). */
  allowPrivateStreamHosts: boolean;
  /** Origins allowed to open the live socket besides the server's own. */
  allowedOrigins: string[];
  /** Proxies trusted to name the client in X-Forwarded-For (addresses, CIDR ranges); empty: none. */
  trustProxy: string[];
  /** Outbound alarm webhook (Slack, Teams or any receiver) and the key its body is signed with. */
  alarmWebhookUrl: string | undefined;
  alarmWebhookSecret: string | undefined;
  /** Alarm e-mail: SMTP server URL (may hold credentials: never logged), recipients and sender. */
  smtpUrl: string | undefined;
  alarmEmailTo: string[];
  alarmEmailFrom: string;
  /** Notification policy: alarms raised within this window go out as one message; open ones are announced again after the repeat interval. */
  alarmGroupWindowMs: number;
  alarmRepeatIntervalMs: number;
  /** Seconds a content condition (silent, no audio track, frozen, black) lasts before it is alarmed. */
  contentAlarmSeconds: number;
  /** Directory of the built console; absent in tests that do not serve it. */
  consoleDir: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** This server's own listening address, or its hostname when it listens on every interface. */
function defaultInternalUrl(host: string, port: number): string {
  const name = ['0.0.0.0', '::', ''].includes(host) ? os.hostname() : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** Validates the environment once; throws a ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    internalUrl: (e.INTERNAL_URL ?? defaultInternalUrl(e.HOST, e.PORT)).replace(/\/+$/, ''),
    hostName: e.SERVER_HOST_NAME ?? os.hostname(),
    databaseUrl: e.DATABASE_URL,
    secretKey: e.SECRET_KEY,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    captureProvider: e.CAPTURE_PROVIDER,
    awsRegion: e.AWS_REGION,
    awsEndpointUrl: e.AWS_ENDPOINT_URL,
    ffmpegPath: e.FFMPEG_PATH,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    stallTimeoutSeconds: e.STALL_TIMEOUT_SECONDS,
    ffprobePath: e.FFPROBE_PATH,
    ytDlpPath: e.YTDLP_PATH,
    recorderRetrySeconds: e.RECORDER_RETRY_SECONDS,
    recorderRetryMaxSeconds: e.RECORDER_RETRY_MAX_SECONDS,
    recorderOverloadSeconds: e.RECORDER_OVERLOAD_SECONDS,
    recorderNiceness: e.RECORDER_NICENESS ?? RECORDER_NICENESS,
    audioNiceness: e.AUDIO_NICENESS ?? AUDIO_NICENESS,
    // A machine boots and installs for a minute or two before it can record; a local process starts at once.
    captureLeadSeconds: e.CAPTURE_LEAD_SECONDS ?? (e.CAPTURE_PROVIDER === 'aws' ? 300 : 0),
    captureGraceSeconds: e.CAPTURE_GRACE_SECONDS,
    awsExtraTags: e.AWS_EXTRA_TAGS ?? {},
    awsHourlyPrices: e.AWS_HOURLY_PRICES ?? {},
    awsMaxInstances: e.AWS_MAX_INSTANCES,
    awsCapacity: e.AWS_CAPACITY,
    awsVolumeSizeGb: e.AWS_VOLUME_SIZE_GB,
    awsImageId: e.AWS_IMAGE_ID,
    awsInstanceTypes: e.AWS_INSTANCE_TYPES ? splitList(e.AWS_INSTANCE_TYPES) : [e.AWS_INSTANCE_TYPE],
    awsSubnetIds: e.AWS_SUBNET_IDS ? splitList(e.AWS_SUBNET_IDS) : e.AWS_SUBNET_ID ? [e.AWS_SUBNET_ID] : [],
    awsSecurityGroupId: e.AWS_SECURITY_GROUP_ID,
    awsInstanceProfile: e.AWS_INSTANCE_PROFILE,
    recordingsPerInstance: e.RECORDINGS_PER_INSTANCE,
    recordingsStore: e.RECORDINGS_STORE ?? 'local',
    s3Endpoint: e.S3_ENDPOINT,
    streamUrlTemplate: e.STREAM_URL_TEMPLATE,
    mapsLinkResolveOrigin: e.MAPS_LINK_RESOLVE_ORIGIN,
    mapsLinkTimeoutMs: e.MAPS_LINK_TIMEOUT_MS,
    githubApiUrl: e.GITHUB_API_URL,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    // On unless DEMO_STREAM=0: a fresh install can record something before any real stream is configured.
    demoStream: e.DEMO_STREAM ?? true,
    retentionDays: e.RETENTION_DAYS,
    allowPrivateStreamHosts: e.ALLOW_PRIVATE_STREAM_HOSTS ?? false,
    allowedOrigins: splitList(e.ALLOWED_ORIGINS),
    trustProxy: splitList(e.TRUST_PROXY),
    alarmWebhookUrl: e.ALARM_WEBHOOK_URL,
    alarmWebhookSecret: e.ALARM_WEBHOOK_SECRET,
    smtpUrl: e.SMTP_URL,
    alarmEmailTo: e.ALARM_EMAIL_TO ?? [],
    alarmEmailFrom: e.ALARM_EMAIL_FROM,
    alarmGroupWindowMs: e.ALARM_GROUP_WINDOW_SECONDS * 1000,
    contentAlarmSeconds: e.CONTENT_ALARM_SECONDS,
    alarmRepeatIntervalMs: e.ALARM_REPEAT_HOURS * 3_600_000,
    consoleDir: path.resolve('dist'),
  };
}

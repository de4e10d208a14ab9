import path from 'node:path';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, usernameSchema } from '../contract/auth';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value === '1' || value === 'true'));

/** Every environment variable the server reads; all optional (DESIGN.md, "Contract for running it"). */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // An empty PORT means the default, not port 0 (which would listen on a random port).
  PORT: optionalText.pipe(z.coerce.number<string | undefined>('PORT must be a number').int().min(0).max(65535).default(8000)),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.refine(
    (url) => url === undefined || /^(postgres(ql)?:\/\/|sqlite:|file:)/.test(url),
    'DATABASE_URL must be a postgres:// URL, or sqlite:/file: followed by a path',
  ),
  SECRET_KEY: optionalText.refine((key) => key === undefined || key.length >= 32, 'SECRET_KEY must be at least 32 characters'),
  // Checked like any username now, rather than failing when the first superuser is created.
  ADMIN_USERNAME: optionalText.pipe(usernameSchema.default('admin')),
  ADMIN_PASSWORD: optionalText
    .refine((pw) => pw === undefined || pw.length >= 8, 'ADMIN_PASSWORD must be at least 8 characters')
    .refine((pw) => pw === undefined || pw.length <= PASSWORD_MAX_LENGTH, `ADMIN_PASSWORD must be at most ${PASSWORD_MAX_LENGTH} characters`),
  CAPTURE_PROVIDER: z.enum(['local', 'aws']).default('local'),
  AWS_REGION: z.string().default('us-east-1'),
  AWS_ENDPOINT_URL: optionalText.pipe(z.url('AWS_ENDPOINT_URL must be a URL').optional()),
  FFMPEG_PATH: optionalText,
  STALL_TIMEOUT_SECONDS: optionalText.pipe(z.coerce.number<string | undefined>('STALL_TIMEOUT_SECONDS must be a number').int().min(2).max(3600).optional()),
  FFPROBE_PATH: optionalText,
  YTDLP_PATH: optionalText,
  RECORDER_RETRY_SECONDS: optionalText.pipe(z.coerce.number<string | undefined>('RECORDER_RETRY_SECONDS must be a number').min(0.5).max(300).optional()),
  RECORDER_RETRY_MAX_SECONDS: optionalText.pipe(z.coerce.number<string | undefined>('RECORDER_RETRY_MAX_SECONDS must be a number').min(0.5).max(600).optional()),
  AWS_IMAGE_ID: optionalText,
  AWS_INSTANCE_TYPE: z.string().trim().min(1).default('t3.medium'),
  AWS_SUBNET_ID: optionalText,
  AWS_SECURITY_GROUP_ID: optionalText,
  STREAM_URL_TEMPLATE: z
    .string()
    .trim()
    .default('https://www.youtube.com/channel/{id}/live')
    .refine((t) => t.includes('{id}') && URL.canParse(t.replaceAll('{id}', 'x')), 'STREAM_URL_TEMPLATE must be a URL with {id} in it'),
  MAPS_LINK_RESOLVE_ORIGIN: optionalText.pipe(z.url('MAPS_LINK_RESOLVE_ORIGIN must be a URL').optional()),
  MAPS_LINK_TIMEOUT_MS: optionalText.pipe(z.coerce.number<string | undefined>('MAPS_LINK_TIMEOUT_MS must be a number').int().min(100).max(60_000).default(5000)),
  GITHUB_API_URL: z.url('GITHUB_API_URL must be a URL').default('https://api.github.com'),
  // Enables GET /metrics (Prometheus) behind this bearer token; unset, /metrics does not exist.
  METRICS_TOKEN: optionalText.refine((token) => token === undefined || token.length >= 16, 'METRICS_TOKEN must be at least 16 characters'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_STREAM: flag,
  // Recordings that ended more than this many days ago are removed daily; unset keeps them until deleted.
  RETENTION_DAYS: optionalText.pipe(z.coerce.number<string | undefined>('RETENTION_DAYS must be a number').int().min(1).max(36_500).optional()),
  ALLOWED_ORIGINS: optionalText,
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** `undefined` means SQLite at `<dataDir>/capture.db`. */
  databaseUrl: string | undefined;
  secretKey: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  captureProvider: 'local' | 'aws';
  awsRegion: string;
  awsEndpointUrl: string | undefined;
  ffmpegPath: string | undefined;
  /** Seconds without media before a recorder's watchdog ends its capture; undefined: the image's (60 s). */
  stallTimeoutSeconds: number | undefined;
  /** ffprobe and yt-dlp for the recorders; undefined: beside ffmpeg / on PATH. */
  ffprobePath: string | undefined;
  ytDlpPath: string | undefined;
  /** A recorder's first wait before trying a stream again, and the longest (defaults 5 s and 30 s). */
  recorderRetrySeconds: number | undefined;
  recorderRetryMaxSeconds: number | undefined;
  /** Recorder image, instance type and network for EC2 launches (aws provider). */
  awsImageId: string | undefined;
  awsInstanceType: string;
  awsSubnetId: string | undefined;
  awsSecurityGroupId: string | undefined;
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
  demoStream: boolean;
  /** Days recordings are kept after they end; undefined keeps them until deleted. */
  retentionDays: number | undefined;
  /** Origins allowed to open the live socket besides the server's own. */
  allowedOrigins: string[];
  /** Directory of the built console; absent in tests that do not serve it. */
  consoleDir: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
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
    databaseUrl: e.DATABASE_URL,
    secretKey: e.SECRET_KEY,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    captureProvider: e.CAPTURE_PROVIDER,
    awsRegion: e.AWS_REGION,
    awsEndpointUrl: e.AWS_ENDPOINT_URL,
    ffmpegPath: e.FFMPEG_PATH,
    stallTimeoutSeconds: e.STALL_TIMEOUT_SECONDS,
    ffprobePath: e.FFPROBE_PATH,
    ytDlpPath: e.YTDLP_PATH,
    recorderRetrySeconds: e.RECORDER_RETRY_SECONDS,
    recorderRetryMaxSeconds: e.RECORDER_RETRY_MAX_SECONDS,
    awsImageId: e.AWS_IMAGE_ID,
    awsInstanceType: e.AWS_INSTANCE_TYPE,
    awsSubnetId: e.AWS_SUBNET_ID,
    awsSecurityGroupId: e.AWS_SECURITY_GROUP_ID,
    streamUrlTemplate: e.STREAM_URL_TEMPLATE,
    mapsLinkResolveOrigin: e.MAPS_LINK_RESOLVE_ORIGIN,
    mapsLinkTimeoutMs: e.MAPS_LINK_TIMEOUT_MS,
    githubApiUrl: e.GITHUB_API_URL,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    demoStream: e.DEMO_STREAM ?? e.NODE_ENV === 'development',
    retentionDays: e.RETENTION_DAYS,
    allowedOrigins: e.ALLOWED_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean) ?? [],
    consoleDir: path.resolve('dist'),
  };
}

import path from 'node:path';
import { z } from 'zod';

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
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.refine(
    (url) => url === undefined || /^(postgres(ql)?:\/\/|sqlite:|file:)/.test(url),
    'DATABASE_URL must be a postgres:// URL, or sqlite:/file: followed by a path',
  ),
  SECRET_KEY: optionalText.refine((key) => key === undefined || key.length >= 32, 'SECRET_KEY must be at least 32 characters'),
  ADMIN_USERNAME: z.string().trim().min(1).default('admin'),
  ADMIN_PASSWORD: optionalText.refine((pw) => pw === undefined || pw.length >= 8, 'ADMIN_PASSWORD must be at least 8 characters'),
  CAPTURE_PROVIDER: z.enum(['local', 'aws']).default('local'),
  AWS_REGION: z.string().default('us-east-1'),
  AWS_ENDPOINT_URL: optionalText.pipe(z.url('AWS_ENDPOINT_URL must be a URL').optional()),
  FFMPEG_PATH: optionalText,
  GITHUB_API_URL: z.url('GITHUB_API_URL must be a URL').default('https://api.github.com'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_STREAM: flag,
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
  githubApiUrl: string;
  logLevel: string;
  demoStream: boolean;
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
    githubApiUrl: e.GITHUB_API_URL,
    logLevel: e.LOG_LEVEL,
    demoStream: e.DEMO_STREAM ?? e.NODE_ENV === 'development',
    allowedOrigins: e.ALLOWED_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean) ?? [],
    consoleDir: path.resolve('dist'),
  };
}

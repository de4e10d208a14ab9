export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(databaseUrl: string | undefined): Dialect {
  return databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
}

/**
 * `tsx tests/support/with-postgres.ts <command...>`: runs the command with TEST_DATABASE_URL pointing
 * at a temporary PostgreSQL cluster, then removes the cluster. Used by `npm run test:pg`.
 * When TEST_DATABASE_URL is already set, that server is used instead.
 */
import { spawnSync } from 'node:child_process';
import { startTemporaryPostgres } from '../../testkit/postgres';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: with-postgres <command> [args...]\n');
  process.exit(2);
}

const external = process.env.TEST_DATABASE_URL;
const cluster = external ? undefined : await startTemporaryPostgres();
const env = { ...process.env, TEST_DATABASE_URL: external ?? cluster?.adminUrl };
process.stdout.write(`PostgreSQL for tests: ${env.TEST_DATABASE_URL}\n`);
const result = spawnSync(command, args, { stdio: 'inherit', env, shell: false });
cluster?.destroy();
process.exit(result.status ?? 1);

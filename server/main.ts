import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { makeDataDirPrivate } from './lib/data-dir';

/** The exit status of a server that found its lease taken over (a supervisor restarts it). */
const LEASE_LOST_EXIT_CODE = 3;

/** Launcher: validate configuration, open everything, listen, and shut down cleanly on a signal. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  makeDataDirPrivate(config.dataDir);
  const app = await buildApp(config);
  const bootstrap = await app.ctx.users.bootstrapSuperuser({
    username: config.adminUsername,
    password: config.adminPassword,
    dataDir: config.dataDir,
  });
  if (bootstrap?.generatedPassword) {
    // Printed once, on purpose, to the terminal of whoever started the first run.
    process.stdout.write(
      `\nCreated superuser "${config.adminUsername}" with password: ${bootstrap.generatedPassword}\n` +
        `(also saved to ${config.dataDir}/initial-admin-password, readable only by this user)\n\n`,
    );
  } else if (bootstrap) {
    app.log.info({ username: config.adminUsername }, 'created superuser from ADMIN_PASSWORD');
  }

  let closing = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    await app.close();
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Another server took this one over (it was silent past its lease): it stops rather than work on beside
  // it; restarted by its supervisor, it registers afresh and takes its recorders back from their pid files.
  app.ctx.events.on('lease_lost', () => void shutdown('lease taken over', LEASE_LOST_EXIT_CODE));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(`Server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

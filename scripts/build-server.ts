/**
 * Builds the server and the recorder to plain JavaScript, so production runs them with `node` alone
 * (no TypeScript loader at start, nor in each recorder process). Part of `npm run build`, after the
 * console. Output:
 *   build/server/main.js        the server (npm run serve / npm start)
 *   build/recorder/recorder.mjs the recorder runtime, one file of Node built-ins only
 * Outside dist/ on purpose: dist/ is the console, served to anyone as static files.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUILD_DIR = path.join(ROOT, 'build');
/** Where the built server finds the built recorder, relative to itself (see server/capture/local/recorder-runtime.ts). */
const RECORDER_FROM_SERVER = '../recorder/recorder.mjs';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * The server bundles this repository's code only: packages stay in node_modules (native addons such as
 * better-sqlite3 and argon2, and packages that read their own data files, cannot be bundled), and
 * dynamic imports of packages (the AWS SDK, Octokit) stay dynamic, so they load only when used.
 */
export async function buildServer(outDir = path.join(BUILD_DIR, 'server')): Promise<Metafile> {
  const result = await build({
    ...common,
    entryPoints: [path.join(ROOT, 'server/main.ts')],
    outfile: path.join(outDir, 'main.js'),
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    define: { __RECORDER_BUNDLE__: JSON.stringify(RECORDER_FROM_SERVER) },
  });
  return result.metafile;
}

/** The recorder and its siblings in one file: what each local recorder runs and an image freezes. */
export async function buildRecorder(outDir = path.join(BUILD_DIR, 'recorder')): Promise<string> {
  const outfile = path.join(outDir, 'recorder.mjs');
  await build({ ...common, entryPoints: [path.join(ROOT, 'server/capture/recorder.ts')], outfile });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await Promise.all([buildServer(), buildRecorder()]);
  process.stdout.write(`Server and recorder built into ${path.relative(ROOT, BUILD_DIR)}/ in ${Math.round(performance.now() - started)} ms\n`);
}

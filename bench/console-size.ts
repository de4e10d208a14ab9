/**
 * Console size as served: the JavaScript bytes a browser receives (Accept-Encoding as Chromium sends
 * it) to show /login, and for the signed-in shell and each page beyond that, served by the server's
 * own console plugin from a build precompressed as `npm run build` does. The baseline is a bare React
 * + MUI page with a TextField and a Button (bench/baseline-hello), built, precompressed and served the
 * same way in the same run.
 */
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import react from '@vitejs/plugin-react';
import { build, type Manifest } from 'vite';
import { registerConsole } from '../server/plugins/console';
import { precompress } from '../scripts/precompress';
import { withRatio, type BenchResult } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, 'bench/.work');
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/**
 * Builds with a manifest. The console is built with its own vite.config.ts (its chunking is part of
 * what a visit downloads); the bare page with the same plugins and no configuration.
 */
async function buildWithManifest(projectRoot: string, outDir: string, ownConfig = false): Promise<Manifest> {
  await build({
    root: projectRoot,
    ...(ownConfig ? {} : { configFile: false as const, plugins: [react(), precompress()] }),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  return JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The JS chunks of manifest entries plus everything they import statically, transitively. */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

/** Bytes on the wire of these files, fetched from the console plugin as a browser would. */
async function servedBytes(dir: string, files: Iterable<string>): Promise<number> {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  await registerConsole(app, dir);
  try {
    let total = 0;
    for (const file of files) {
      const response = await app.inject({
        method: 'GET',
        url: `/${file}`,
        headers: { 'accept-encoding': BROWSER_ENCODINGS },
      });
      if (response.statusCode !== 200 || !/javascript/.test(String(response.headers['content-type'])))
        throw new Error(`/${file}: ${response.statusCode} ${response.headers['content-type']}`);
      total += response.rawPayload.length;
    }
    return total;
  } finally {
    await app.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const helloOut = path.join(work, 'hello');
  const helloManifest = await buildWithManifest(path.join(root, 'bench/baseline-hello'), helloOut);
  const baseline = await servedBytes(helloOut, staticClosure(helloManifest, ['index.html']));
  const baselineLabel = 'bare React + MUI TextField + Button page, as served';

  const appOut = path.join(work, 'console');
  const manifest = await buildWithManifest(root, appOut, true);
  const entry = staticClosure(manifest, ['index.html']);
  const lazyKeys = Object.keys(manifest).filter(
    (key) => manifest[key].isDynamicEntry && (/^src\/features\/[^/]+\//.test(key) || key === 'src/layout/AppShell.tsx'),
  );
  const loginKeys = lazyKeys.filter((key) => key.startsWith('src/features/login/'));
  const loginBytes = await servedBytes(appOut, new Set([...entry, ...staticClosure(manifest, loginKeys)]));

  const results: BenchResult[] = [
    withRatio({
      name: 'Console: JS on the wire to show /login (brotli as served)',
      figure: loginBytes,
      unit: 'bytes',
      baseline,
      baselineLabel,
      budget: 'at most 1.1x the baseline',
      withinBudget: loginBytes <= baseline * 1.1,
      budgetRow: 'login-bytes',
    }),
  ];
  for (const key of lazyKeys.sort()) {
    const own = await servedBytes(
      appOut,
      [...staticClosure(manifest, [key])].filter((f) => !entry.has(f)),
    );
    const label = key === 'src/layout/AppShell.tsx' ? 'the signed-in shell (AppShell)' : `page ${key.split('/')[2]}`;
    results.push(
      withRatio({
        name: `Console: ${label}, JS beyond the entry (as served)`,
        figure: own,
        unit: 'bytes',
        baseline,
        baselineLabel,
      }),
    );
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}

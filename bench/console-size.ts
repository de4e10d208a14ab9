/**
 * Console size: gzip bytes of the JS needed to show /login and of each route chunk, against a bare
 * React + MUI hello page built with the same tools in the same run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Manifest } from 'vite';
import { withRatio, type BenchResult } from './lib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, 'bench/.work');

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

async function buildWithManifest(projectRoot: string, outDir: string): Promise<Manifest> {
  await build({
    root: projectRoot,
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  return JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The chunk of a manifest entry plus everything it imports statically, transitively. */
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

const totalGzip = (outDir: string, files: Iterable<string>) => [...files].reduce((sum, f) => sum + gzipSize(path.join(outDir, f)), 0);

export async function run(): Promise<BenchResult[]> {
  const helloOut = path.join(work, 'hello');
  const helloManifest = await buildWithManifest(path.join(root, 'bench/baseline-hello'), helloOut);
  const baseline = totalGzip(helloOut, staticClosure(helloManifest, ['index.html']));

  const appOut = path.join(work, 'console');
  const manifest = await buildWithManifest(root, appOut);
  const entry = staticClosure(manifest, ['index.html']);
  const routeKeys = Object.keys(manifest).filter((key) => /^src\/features\/[^/]+\//.test(key) && manifest[key].isDynamicEntry);
  const loginKeys = routeKeys.filter((key) => key.startsWith('src/features/login/'));
  const loginBytes = totalGzip(appOut, new Set([...entry, ...staticClosure(manifest, loginKeys)]));

  const results: BenchResult[] = [
    withRatio({
      name: 'Console: JS to show /login (gzip)',
      figure: loginBytes,
      unit: 'bytes',
      baseline,
      baselineLabel: 'bare React + MUI hello page',
      budget: 'at most 1.3x the baseline',
      withinBudget: loginBytes <= baseline * 1.3,
    }),
  ];
  for (const key of routeKeys.sort()) {
    const own = totalGzip(appOut, [...staticClosure(manifest, [key])].filter((f) => !entry.has(f)));
    results.push(withRatio({ name: `Console: route chunk ${key.split('/')[2]} (gzip, beyond the entry)`, figure: own, unit: 'bytes', baseline, baselineLabel: 'bare React + MUI hello page' }));
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}

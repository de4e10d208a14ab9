import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the browser downloads; fonts (woff2) and images are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Files smaller than this are not worth a compressed copy. */
const MIN_BYTES = 1024;

/**
 * Writes name.br (brotli, best quality) and name.gz (gzip -9) beside every compressible file of the
 * console build, once, so the server sends compressed files without compressing per request
 * (@fastify/static's preCompressed). A copy that saves nothing is not written.
 */
export async function precompressFolder(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => COMPRESSIBLE.test(file));
  await Promise.all(
    files.map(async (file) => {
      const full = path.join(dir, file);
      const content = fs.readFileSync(full);
      if (content.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < content.length) fs.writeFileSync(`${full}.br`, br);
      if (gz.length < content.length) fs.writeFileSync(`${full}.gz`, gz);
      totals.files += 1;
      totals.bytes += content.length;
      totals.brotliBytes += Math.min(br.length, content.length);
    }),
  );
  return totals;
}

/** The Vite plugin: precompresses the build output once it is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { files, bytes, brotliBytes } = await precompressFolder(outDir);
      this.info?.(
        `precompressed ${files} files: ${Math.round(bytes / 1024)} KiB -> ${Math.round(brotliBytes / 1024)} KiB with brotli`,
      );
    },
  };
}

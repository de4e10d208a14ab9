import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3RecordingStore } from '../../storage/s3-store';

const ENTRY = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'recorder.ts');

/**
 * The recorder runtime as one ES module for plain `node` (22 or later): the recorder and its siblings
 * with the AWS SDK an instance role uploads with, about 0.6 MB. What an EC2 instance downloads at boot
 * and what scripts/bake-recorder-image.sh puts into an image.
 */
export async function bundleRecorder(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    legalComments: 'none',
    write: false,
    // The SDK's CommonJS parts require Node's modules: give the ES module a require.
    banner: { js: "import { createRequire as __recorderRequire } from 'node:module'; const require = __recorderRequire(import.meta.url);" },
  });
  return result.outputFiles[0].text;
}

/**
 * Puts the bundled runtime into the store once (keyed by its hash, under runtime/) and hands out
 * pre-signed links to it, so an instance needs no credentials to fetch it.
 */
export class RecorderRuntimeLinks {
  private published: Promise<string> | null = null;

  constructor(
    private readonly store: S3RecordingStore,
    private readonly bundle: () => Promise<string> = bundleRecorder,
  ) {}

  async link(seconds: number): Promise<string> {
    this.published ??= this.publish().catch((error: unknown) => {
      this.published = null;
      throw error;
    });
    return this.store.signedUrl(await this.published, seconds);
  }

  private async publish(): Promise<string> {
    const code = await this.bundle();
    const key = `runtime/recorder-${crypto.createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    if (!(await this.store.stat(key))) await this.store.putText(key, code, 'text/javascript');
    return key;
  }
}

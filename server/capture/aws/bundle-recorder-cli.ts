/*
 * Writes the recorder runtime as one ES module (the recorder, its siblings and the AWS SDK):
 *   npx tsx server/capture/aws/bundle-recorder-cli.ts dist-recorder/recorder.mjs
 * What scripts/bake-recorder-image.sh installs into a recorder image.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleRecorder } from './recorder-bundle';

const out = path.resolve(process.argv[2] ?? 'dist-recorder/recorder.mjs');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, await bundleRecorder());
process.stdout.write(`${out} (${fs.statSync(out).size} bytes)\n`);

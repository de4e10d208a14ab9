import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sourceFits } from '../../../recorder/recorder-hls';
import { FRAME_CODE, numberedStream } from '../../../testkit/numbered-stream';

const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

describe('recording the source as it is', () => {
  const segment = new Uint8Array(fs.readFileSync(numberedStream(1).segments[0].file));

  it('copies a stream that is already H.264 and AAC at the configured frame size', async () => {
    expect(
      await sourceFits({ ffprobePath: FFPROBE, width: FRAME_CODE.width, height: FRAME_CODE.height }, segment),
    ).toBe(true);
  });

  it('transcodes one of another size, and anything ffprobe cannot read', async () => {
    expect(await sourceFits({ ffprobePath: FFPROBE, width: 1280, height: 720 }, segment)).toBe(false);
    expect(
      await sourceFits(
        { ffprobePath: FFPROBE, width: FRAME_CODE.width, height: FRAME_CODE.height },
        new TextEncoder().encode('<html>404</html>'),
      ),
    ).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingReading, seedRecording } from '../helpers/recordings';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * A recording's duration never exceeds the window it was asked for: the joined file holds a few
 * seconds beyond each edge (the segment holding the window's first second, what ffmpeg wrote out at
 * the stop), and those are no part of the sermon the recording was made for.
 */
describe('a recording’s reported duration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const durationOf = async (instanceId: string) =>
    (await t.app.ctx.recordings.forInstance(instanceId))?.duration_seconds;

  it('is the media within the window: a file 6 s longer than its 600 s window reports 600 s', async () => {
    await seedRecording(t, 'cap-duration01', 'durationmosque');
    const ended = recordingReading({ status: 'captured', mediaSeconds: 606.2, coveredSeconds: 600 });
    expect(await t.app.ctx.recordings.applyReading('cap-duration01', ended)).toBe(true);
    expect(await durationOf('cap-duration01')).toBe(600);
  });

  it('is what the media holds when it holds less than the window', async () => {
    await seedRecording(t, 'cap-duration02', 'durationmosque');
    const ended = recordingReading({ status: 'partial', mediaSeconds: 412.5, coveredSeconds: 410 });
    expect(await t.app.ctx.recordings.applyReading('cap-duration02', ended)).toBe(true);
    expect(await durationOf('cap-duration02')).toBe(412.5);
  });
});

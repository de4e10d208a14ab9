import { afterAll, describe, expect, it } from 'vitest';
import { cpuLimit, type CpuLimit } from '../../testkit/cpu-limit';
import { startRadioMount, type RadioMount } from '../../testkit/radio-mount';
import { recorderProcess, type RecorderProcess } from '../../testkit/recorder-process';
import { scaled } from '../../testkit/time-scale';
import { pause } from '../../testkit/wait';

const WINDOW_SECONDS = 40;
/** When the recorder's ffmpeg is held, seconds into the window: it stays held to the window's end. */
const HELD_FROM_SECONDS = 15;
/** ffmpeg's share of one CPU while held: a copy of the mount with its loudness measured needs a few times more. */
const FFMPEG_CPU_PERCENT = 0.1;
/**
 * Stereo at 48 kHz: decoding it for the loudness is what a held copy spends its share on. A mono 44.1 kHz
 * tone, since only part of the sound is measured (docs/decisions/035-sound-sampled.md), left ffmpeg at
 * about 0.75x real time: 6 s behind at the end on a quiet machine, and once, in a loaded CI run, less
 * than the 2 s a gap is listed from. This one leaves it about 14 s behind.
 */
const MOUNT_SOURCE = 'sine=frequency=440:sample_rate=48000,aformat=channel_layouts=stereo';

/**
 * A radio copy starved of CPU: from the middle of its window to its end the recorder's ffmpeg runs in a
 * cgroup at 0.1% of a CPU while the mount plays on without a break, so ffmpeg's output falls behind the
 * clock. That lateness is ours: no `stream_dropped` may be put on the stream for it, and what ffmpeg had
 * not written when the window closed is named `recorder_overloaded` at the recording's end.
 */
describe('a radio copy whose ffmpeg is starved of CPU', () => {
  let limit: CpuLimit | undefined;
  let mount: RadioMount | undefined;
  let recorder: RecorderProcess | undefined;

  afterAll(async () => {
    limit?.lift();
    await recorder?.kill();
    recorder?.remove();
    await mount?.close();
    // The group goes once the last ffmpeg in it has exited.
    await limit?.remove();
  });

  it('puts its lateness down to the recorder, not to the stream', { timeout: scaled(120_000) }, async () => {
    limit = cpuLimit(`capture-starved-copy-${process.pid}`, FFMPEG_CPU_PERCENT);
    mount = await startRadioMount(MOUNT_SOURCE);
    await pause(3000); // on the air before the window opens
    recorder = recorderProcess({
      url: mount.url,
      seconds: WINDOW_SECONDS,
      width: 1280,
      height: 720,
      ytDlpPath: '/nonexistent/yt-dlp',
      settings: { segmentSeconds: 2 },
    });
    recorder.start();
    const windowStart = Date.parse(recorder.config.windowStart);
    await pause(windowStart + HELD_FROM_SECONDS * 1000 - Date.now());
    const pid = recorder.state()?.ffmpegPid;
    expect(pid, recorder.log()).toBeTypeOf('number');
    limit.hold(pid as number);
    const state = await recorder.finished(scaled(60_000));

    const gaps = state.coverage?.gaps ?? [];
    const seen = `${JSON.stringify(gaps)}\n${recorder.log()}`;
    // Before the lateness was told apart by ffmpeg's wait for a CPU, it read as five drops of the stream.
    expect(
      gaps.filter((g) => g.cause === 'stream_dropped' || g.cause === 'stream_stalled'),
      seen,
    ).toEqual([]);
    const behind = gaps.at(-1);
    expect(behind, seen).toMatchObject({
      cause: 'recorder_overloaded',
      reason: expect.stringMatching(/^Recorder fell behind: ffmpeg's output was [\d.]+ s behind the stream/),
      end: recorder.config.windowEnd,
    });
    expect(Date.parse(behind?.start ?? '') - windowStart, seen).toBeGreaterThanOrEqual(HELD_FROM_SECONDS * 1000);
    // Anything else is our connection's first seconds.
    for (const gap of gaps.slice(0, -1)) expect(gap, seen).toMatchObject({ cause: 'recorder_late' });
  });
});

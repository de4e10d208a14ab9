import { clip, mergeRanges, type FrameRange, type WindowTruth } from './fidelity-origin';
import { numberedToneSource, readToneFrames, TONE_PERIOD_SECONDS } from './numbered-audio';
import { FRAME_CODE } from './numbered-stream';
import { startRadioMount } from './radio-mount';
import { pause, waitFor } from './wait';

/**
 * The fidelity lab's radio: an Icecast-like mount without a file extension (testkit/radio-mount.ts)
 * playing the numbered tones (testkit/numbered-audio.ts) live, taken off the air at scripted times.
 * It keeps the truth the season scores against, in picture frames (25 a second) as the HLS origin does.
 */

/** The mount off the air for `seconds`, `at` seconds after the programme's start. */
export interface RadioDrop {
  kind: 'radio_drop';
  at: number;
  seconds: number;
}

export interface RadioDropTruth {
  fault: RadioDrop;
  /** Epoch ms it was off the air. */
  from: number;
  to: number;
  unavailable: FrameRange[];
}

export interface FidelityRadio {
  url: string;
  /** Epoch ms of the programme's start, from which the drops are timed. */
  startedAt: number;
  /** What a recording of [from, to) (epoch ms) should hold: what was on the air then, minus the drops. */
  window(from: number, to: number): WindowTruth;
  /** The drops that have happened. */
  faults(): RadioDropTruth[];
  /** How far behind its schedule the programme came on the air, at most (ms). */
  latestMs(): number;
  /** The picture-frame indices an audio recording of it holds. */
  readBack(file: string): Promise<number[]>;
  close(): Promise<void>;
}

const FRAME_MS = 1000 / FRAME_CODE.fps;

/** Starts the radio and returns once it has been on the air `onAirSeconds` (a listener then gets a burst of it). */
export async function startFidelityRadio(drops: RadioDrop[], onAirSeconds: number): Promise<FidelityRadio> {
  const last = Math.max(0, ...drops.map((drop) => drop.at + drop.seconds));
  if (last >= TONE_PERIOD_SECONDS)
    throw new Error(`a radio drop at ${last} s lies past the tones' ${TONE_PERIOD_SECONDS} s`);
  const mount = await startRadioMount(numberedToneSource());
  await waitFor(() => Number.isFinite(mount.startedAt()), 'the radio to be on the air', 10_000);
  const startedAt = mount.startedAt();
  const happened: RadioDropTruth[] = [];
  /**
   * The frames on the air in [from, to) (epoch ms), as the mount put them there: a programme held up (its
   * encoder or this process starved on a loaded machine) is on the air later than its schedule says.
   */
  const framesBetween = (from: number, to: number): FrameRange => ({
    first: Math.ceil(mount.programmeAt(from) / FRAME_MS),
    last: Math.ceil(mount.programmeAt(to) / FRAME_MS) - 1,
  });
  const timers = drops.map((fault) =>
    setTimeout(
      () =>
        void mount
          .drop(fault.seconds)
          .then(({ from, to }) => happened.push({ fault, from, to, unavailable: [framesBetween(from, to)] })),
      startedAt + fault.at * 1000 - Date.now(),
    ),
  );
  await pause(startedAt + onAirSeconds * 1000 - Date.now());
  return {
    url: mount.url,
    startedAt,
    window: (from, to) => {
      const frames = framesBetween(from, to);
      return {
        from,
        to,
        frames: frames.first <= frames.last ? frames : null,
        unavailable: clip(mergeRanges(happened.flatMap((drop) => drop.unavailable)), frames),
        broadcastAt: (frame) => mount.airedAt(frame * FRAME_MS),
      };
    },
    faults: () => happened,
    latestMs: () => mount.latestMs(),
    readBack: readToneFrames,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await mount.close();
    },
  };
}

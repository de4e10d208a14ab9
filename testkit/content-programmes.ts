import os from 'node:os';
import path from 'node:path';
import { madeOnce } from './made-once';

/**
 * Programmes whose content fails in a known span, for the content meter and its alarms: the test
 * pattern and tone of the ordinary test stream, with the sound muted, the picture frozen or black from
 * `from` to `to` seconds, or no sound track at all. Each is encoded once per machine (about 2 s of one
 * core) and looped by startHlsSource({ programme }), which copies it: the loop starts again at 0.
 */
export type ContentFault = 'silent' | 'frozen' | 'black' | 'no_audio';

export interface ContentProgramme {
  fault: ContentFault;
  /** Seconds into the programme where the fault starts and ends (ignored for no_audio). */
  from: number;
  to: number;
  /** The programme's length: its loop comes back to `from` after this. */
  seconds: number;
}

const RATE = 15;

/**
 * The filters that put a content fault into a programme of `rate` frames a second (the fidelity lab's
 * numbered programme has them too): the picture's chain, and the sound's or null for no sound track.
 * A frozen picture holds the frame at `from` until the one at `to`.
 */
export function faultFilters(
  p: Pick<ContentProgramme, 'fault' | 'from' | 'to'>,
  rate: number,
): { video: string; audio: string | null } {
  const during = `between(t,${p.from},${p.to})`;
  switch (p.fault) {
    case 'silent':
      return { video: 'null', audio: `volume=enable='${during}':volume=0` };
    case 'frozen':
      return {
        video: `split[moving][still];[moving][still]freezeframes=first=${p.from * rate}:last=${p.to * rate}:replace=${p.from * rate}`,
        audio: 'anull',
      };
    case 'black':
      return { video: `drawbox=enable='${during}':x=0:y=0:w=iw:h=ih:color=black:t=fill`, audio: 'anull' };
    case 'no_audio':
      return { video: 'null', audio: null };
  }
}

/** The programme's file, encoded the first time it is asked for (testkit/made-once.ts). */
export function contentProgramme(p: ContentProgramme): string {
  return madeOnce(
    path.join(os.tmpdir(), `capture-content-${p.fault}-${p.from}-${p.to}-${p.seconds}s.ts`),
    `the ${p.fault} programme`,
    (partial) => testProgrammeCommand(p.seconds, partial, faultFilters(p, RATE)),
  );
}

/**
 * The command that encodes `seconds` of the tests' programme (the test pattern and a 440 Hz tone, as
 * a mosque's encoder would send them) into `file`, through `filters` when a content fault is put in.
 */
export function testProgrammeCommand(
  seconds: number,
  file: string,
  filters?: { video: string; audio: string | null },
): string[] {
  const audio = filters?.audio;
  return [
    ...['ffmpeg', '-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${RATE}`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'],
    ...(filters
      ? [
          ...['-filter_complex', `[0:v]${filters.video}[v]${audio ? `;[1:a]${audio}[a]` : ''}`],
          ...['-map', '[v]', ...(audio ? ['-map', '[a]'] : [])],
        ]
      : []),
    ...['-t', String(seconds)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', String(RATE), '-pix_fmt', 'yuv420p'],
    // No sound track only where a fault's filters say so (null).
    ...(audio === null ? [] : ['-c:a', 'aac', '-b:a', '64k']),
    ...['-f', 'mpegts', file],
  ];
}

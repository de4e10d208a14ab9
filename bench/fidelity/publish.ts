import os from 'node:os';
import { sectionText } from '../published-sections';

/* The fidelity season's section of bench/RESULTS.md (`npm run fidelity -- --publish`). */

export interface FidelityRun {
  command: string;
  measuredAt: Date;
  loadAtStart: number[];
  wallSeconds: number;
  /** One paragraph per recording: its fault, what it kept and lost, its true holes and reported gaps. */
  details: string[];
  /** The season's JSON line. */
  figures: string;
}

export function fidelitySection(run: FidelityRun): string {
  const cpu = os.cpus();
  return sectionText('capture-fidelity', [
    '## Capture fidelity (real recorders, numbered streams)',
    '',
    `Measured by \`${run.command}\` on ${run.measuredAt.toISOString().slice(0, 10)}: ${cpu.length} cores (${cpu[0]?.model ?? 'unknown CPU'}), Node ${process.version}, load average ${run.loadAtStart.map((l) => l.toFixed(2)).join(', ')} at its start, ${run.wallSeconds} s in all.`,
    'The real server and its local recorders record live streams on loopback that say where they are in the programme (HLS and RTMP whose',
    'every frame shows its index, a radio mount whose every second sounds it), each with one scripted fault, the SIGKILL of its recorder, or',
    'its transcode\'s ffmpeg starved of CPU for half the window; each recording is read back frame by frame (bench/README.md, "Capture fidelity").',
    '`lost_by_us_seconds` is what the streams offered that the recordings lack, but for what the starved transcode lost inside its own',
    '`recorder_overloaded` gaps (`lost_to_starvation_seconds`, RECORDER_OVERLOAD_SECONDS=6); a gap is misplaced when it lies over 2 s from',
    'the true hole (one of under a second over no hole the read-back sees is not judged); `notifications` are the webhook posts.',
    'Three HLS streams also carry a content fault (sound muted, picture frozen, no sound track; CONTENT_ALARM_SECONDS=8): each must raise',
    'exactly its alarm and see it resolved within 30 s of the content coming back or the window ending; any other content alarm is false.',
    '',
    '```json',
    run.figures,
    '```',
    '',
    '<details><summary>Each recording</summary>',
    '',
    '```text',
    ...run.details,
    '```',
    '',
    '</details>',
  ]);
}

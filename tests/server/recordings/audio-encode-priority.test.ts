import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { hasAudio } from '../../../server/modules/recordings/audio-encode';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-priority-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('runs the encoding programs nicer than the server, their session group too', async () => {
  // A program in ffprobe's place that notes the priority the kernel gives it once it has been lowered.
  const noted = path.join(dir, 'noted');
  const program = path.join(dir, 'ffprobe');
  fs.writeFileSync(
    program,
    [
      '#!/bin/sh',
      'sleep 0.3',
      `{ ps -o ni= -p $$; cat /proc/$$/autogroup 2>/dev/null; } > '${noted}'`,
      'echo 0',
      '',
    ].join('\n'),
    { mode: 0o700 },
  );
  const niceness = 7;
  expect(await hasAudio('any.mp4', { ffmpegPath: 'ffmpeg', ffprobePath: program, niceness })).toBe(true);

  const [own, group] = fs.readFileSync(noted, 'utf8').split('\n');
  const expected = Math.min(19, os.getPriority() + niceness);
  expect(Number(own)).toBe(expected);
  // Linux weighs a session's group as a whole (where autogroup scheduling is on).
  if (group) expect(group).toMatch(new RegExp(`nice ${expected}$`));
});

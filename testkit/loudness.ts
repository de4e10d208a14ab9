import { spawnSync } from 'node:child_process';

/** EBU R128 integrated loudness of a file's first sound track, as ffmpeg's ebur128 measures it (NaN when none). */
export function integratedLufs(file: string): number {
  const { stderr } = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', file, '-map', '0:a:0', '-af', 'ebur128=framelog=verbose', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  return Number(/Summary:[\s\S]*?I:\s+(-?[\d.]+) LUFS/.exec(stderr)?.[1]);
}

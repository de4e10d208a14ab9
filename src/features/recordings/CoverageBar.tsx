import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Recording } from '../../../contract/instances';
import { GAP_CAUSE_LABELS } from '../../lib/gap-causes';
import { formatMediaDuration } from '../../lib/recording-outcome';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { countOf } from '../../../contract/plural';

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Share of the window the media covers (0..1), or null while unknown. */
export function coverageShare(recording: Pick<Recording, 'covered_seconds' | 'expected_seconds'>): number | null {
  const { covered_seconds: covered, expected_seconds: expected } = recording;
  if (covered === null || expected === null || expected <= 0) return null;
  return Math.max(0, Math.min(1, covered / expected));
}

/**
 * How far into its window a recording still going has been measured (ms from its start): what it
 * covered and its gaps so far, the last of which runs to the recorder's latest report.
 */
function measuredMs(recording: Recording): number {
  const gapMs = recording.gaps.reduce(
    (sum, gap) => sum + new Date(gap.end).getTime() - new Date(gap.start).getTime(),
    0,
  );
  return (recording.covered_seconds ?? 0) * 1000 + gapMs;
}

/**
 * The window as a bar: what was recorded, with each gap marked where it fell (red when it cost content,
 * amber when the stream was not on the air), the rest of the window after an operator's stop in grey,
 * and, while it records, the part of the window still to come in a neutral shade (neither recorded nor
 * lost). Positions are taken from the recording's start, so a gap at the start (a late stream) shows on
 * the left.
 */
export function CoverageBar({ recording }: { recording: Recording }) {
  const share = coverageShare(recording);
  if (share === null) return <Typography variant="body2">—</Typography>;
  const start = new Date(recording.started_at).getTime();
  const span = (recording.expected_seconds ?? 0) * 1000;
  const percentOf = (ms: number) => Math.max(0, Math.min(100, (ms / span) * 100));
  const at = (iso: string) => percentOf(new Date(iso).getTime() - start);
  const stillRecording = recording.status === 'recording';
  const aheadAt = stillRecording ? percentOf(measuredMs(recording)) : null;
  const summary = `${Math.floor(share * 1000) / 10}% covered${stillRecording ? ' so far' : ''} (${formatMediaDuration(recording.covered_seconds)} of ${formatMediaDuration(recording.expected_seconds)})`;
  const details = recording.gaps.map(
    (gap) =>
      `${clock(gap.start)}–${clock(gap.end)}: ${GAP_CAUSE_LABELS[gap.cause]}, ${gap.content_lost_seconds > 0 ? `${Math.round(gap.content_lost_seconds)} s lost` : 'nothing lost'} (${gap.reason})`,
  );
  const stoppedAt = recording.stopped_by && recording.ended_at ? at(recording.ended_at) : null;
  return (
    <Tooltip
      title={[summary, ...details].join('\n')}
      slotProps={{ tooltip: { sx: { whiteSpace: 'pre-line' } } }}
      {...TOOLTIP_DELAYS}
    >
      <Box
        tabIndex={0}
        aria-label={`${summary}${details.length ? `; ${countOf(details.length, 'gap')}` : ''}`}
        sx={{ minWidth: 120 }}
      >
        <Typography variant="body2">{`${Math.floor(share * 100)}%`}</Typography>
        <Box sx={{ position: 'relative', height: 6, borderRadius: 1, bgcolor: 'success.main', overflow: 'hidden' }}>
          {recording.gaps.map((gap) => (
            <Box
              key={gap.start}
              data-testid="coverage-gap"
              sx={{
                position: 'absolute',
                top: 0,
                bottom: 0,
                left: `${at(gap.start)}%`,
                width: `${Math.max(0.5, at(gap.end) - at(gap.start))}%`,
                bgcolor: gap.content_lost_seconds > 0 ? 'error.main' : 'warning.main',
              }}
            />
          ))}
          {stoppedAt !== null && (
            <Box
              data-testid="coverage-stopped"
              sx={{ position: 'absolute', top: 0, bottom: 0, left: `${stoppedAt}%`, right: 0, bgcolor: 'grey.600' }}
            />
          )}
          {aheadAt !== null && aheadAt < 100 && (
            <Box
              data-testid="coverage-ahead"
              sx={{ position: 'absolute', top: 0, bottom: 0, left: `${aheadAt}%`, right: 0, bgcolor: 'grey.800' }}
            />
          )}
          {aheadAt === null && stoppedAt === null && recording.gaps.length === 0 && share < 0.99 && (
            <Box
              data-testid="coverage-unaccounted"
              sx={{
                position: 'absolute',
                top: 0,
                bottom: 0,
                right: 0,
                width: `${(1 - share) * 100}%`,
                bgcolor: 'error.main',
              }}
            />
          )}
        </Box>
      </Box>
    </Tooltip>
  );
}

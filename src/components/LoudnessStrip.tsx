import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { RecordingContent } from '../../contract/content';
import { formatMediaDuration } from '../lib/recording-outcome';

/** The strip's loudness scale: quieter than the floor draws nothing, the ceiling fills the height. */
const FLOOR_LUFS = -60;
const CEILING_LUFS = -5;
/** Height of the loudness bars and of each lane under them (silent, frozen, black), in the strip's units. */
const BARS = 40;
const LANE = 6;

const lufs = (value: number | null) => (value === null ? 'no sound' : `${value.toFixed(1)} LUFS`);
const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** "Integrated loudness -20.4 LUFS · longest silence 3 min · peak -2.1 dBFS": what the strip sums up. */
export function contentSummaryText(content: RecordingContent): string {
  const parts = [
    `Integrated loudness ${lufs(content.integrated_lufs)}`,
    `longest silence ${content.longest_silence_seconds > 0 ? formatMediaDuration(content.longest_silence_seconds) : 'none'}`,
  ];
  if (content.frozen_seconds > 0) parts.push(`picture frozen ${formatMediaDuration(content.frozen_seconds)}`);
  if (content.black_seconds > 0) parts.push(`picture black ${formatMediaDuration(content.black_seconds)}`);
  if (content.peak_dbfs !== null) parts.push(`peak ${content.peak_dbfs.toFixed(1)} dBFS`);
  return parts.join(' · ');
}

/**
 * The recording's loudness over its window, one bar per 10 s (its loudness from -60 to -5 LUFS), with
 * three lanes under it marking how much of each 10 s was silent, frozen or black. A window the
 * recording did not measure (a gap) is left empty. With `slots`, the strip spans that many 10 s
 * readings ending at the last one, the readings drawn from its right edge (a running recording's last
 * minutes fill it as they come).
 */
export function LoudnessStrip({ content, slots }: { content: RecordingContent; slots?: number }) {
  const theme = useTheme();
  const count = Math.max(1, slots ?? 0, content.windows.length);
  /** Where the first reading is drawn: the slots before it are still to come. */
  const offset = count - content.windows.length;
  const lanes = [
    { key: 'silent', label: 'Silent', color: theme.palette.error.main, measure: 'silent_seconds' },
    { key: 'frozen', label: 'Frozen', color: theme.palette.warning.main, measure: 'frozen_seconds' },
    { key: 'black', label: 'Black', color: theme.palette.grey[700], measure: 'black_seconds' },
  ] as const;
  /** How much of window `i` the lane's condition took (0..1). */
  const share = (i: number, measure: (typeof lanes)[number]['measure']) => {
    const window = content.windows[i];
    return window && window.measured_seconds > 0 ? Math.min(1, window[measure] / window.measured_seconds) : 0;
  };
  const height = BARS + lanes.length * LANE;
  const first = content.windows[0];
  const last = content.windows.at(-1);
  const lastEnd = last ? Date.parse(last.start) + 10_000 : null;
  /** The strip's left edge: its first reading, or where the slots still to come begin. */
  const from = lastEnd !== null && offset > 0 ? new Date(lastEnd - count * 10_000).toISOString() : first?.start;
  return (
    <Box data-testid="loudness-strip">
      <Typography variant="body2" sx={{ mb: 1 }} data-testid="content-summary">
        {contentSummaryText(content)}
      </Typography>
      <Box
        component="svg"
        role="img"
        aria-label={`Loudness over the recording: ${contentSummaryText(content)}`}
        viewBox={`0 0 ${count} ${height}`}
        preserveAspectRatio="none"
        sx={{ display: 'block', width: '100%', height: 96, bgcolor: 'action.hover', borderRadius: 1 }}
      >
        {content.windows.map((window, i) => {
          if (window.loudness_lufs === null) return null;
          const level = (window.loudness_lufs - FLOOR_LUFS) / (CEILING_LUFS - FLOOR_LUFS);
          const bar = Math.max(0, Math.min(1, level)) * BARS;
          return (
            <rect
              key={window.start}
              x={offset + i}
              y={BARS - bar}
              width={1}
              height={bar}
              fill={theme.palette.primary.main}
            >
              <title>{`${clock(window.start)}: ${lufs(window.loudness_lufs)}`}</title>
            </rect>
          );
        })}
        {lanes.map((lane, row) =>
          content.windows.map((window, i) => {
            const part = share(i, lane.measure);
            return part > 0 ? (
              <rect
                key={`${lane.key}-${window.start}`}
                data-testid={`strip-${lane.key}`}
                x={offset + i}
                y={BARS + row * LANE}
                width={1}
                height={LANE}
                fill={lane.color}
                fillOpacity={0.3 + 0.7 * part}
              />
            ) : null;
          }),
        )}
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
        <Typography variant="caption">{from ? clock(from) : ''}</Typography>
        <Box sx={{ display: 'flex', gap: 1.5 }}>
          {lanes.map((lane) => (
            <Typography key={lane.key} variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <Box component="span" sx={{ width: 10, height: 10, bgcolor: lane.color, borderRadius: 0.5 }} />
              {lane.label}
            </Typography>
          ))}
        </Box>
        <Typography variant="caption">{lastEnd === null ? '' : clock(new Date(lastEnd).toISOString())}</Typography>
      </Box>
    </Box>
  );
}

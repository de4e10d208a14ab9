import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { sparkline } from '../../lib/sparkline';

interface SparklineProps {
  values: ReadonlyArray<number | null>;
  /** What the chart shows, for screen readers. */
  label: string;
  /** The top of the scale as text (e.g. "105 ms"); omitted when nothing is drawn. */
  formatMax?: (max: number) => string;
  startLabel?: string;
  endLabel?: string;
  height?: number;
}

const WIDTH = 240;

/**
 * A small hand-drawn SVG line chart that stretches to its container; gaps (null) break the line.
 * Strokes do not scale, and lone points are drawn as round caps, so they stay round when stretched.
 */
export function Sparkline({ values, label, formatMax, startLabel, endLabel, height = 56 }: SparklineProps) {
  const theme = useTheme();
  const { path, dots, max } = sparkline(values, WIDTH, height, 4);
  const colour = theme.palette.primary.light;
  return (
    <Box>
      <Box sx={{ position: 'relative' }}>
        <Box
          component="svg"
          role="img"
          aria-label={label}
          viewBox={`0 0 ${WIDTH} ${height}`}
          preserveAspectRatio="none"
          sx={{ width: '100%', height, display: 'block', bgcolor: 'rgba(255,255,255,0.03)', borderRadius: 1 }}
        >
          <line
            x1={0}
            y1={height - 4}
            x2={WIDTH}
            y2={height - 4}
            stroke={theme.palette.divider}
            strokeWidth={1}
            vectorEffect="non-scaling-stroke"
          />
          {path && (
            <path
              d={path}
              fill="none"
              stroke={colour}
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
              strokeLinejoin="round"
            />
          )}
          {dots.map((dot) => (
            <path
              key={`${dot.x}-${dot.y}`}
              d={`M${dot.x} ${dot.y} h0`}
              stroke={colour}
              strokeWidth={5}
              strokeLinecap="round"
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </Box>
        {formatMax && max > 0 && (
          <Typography
            variant="caption"
            color="textSecondary"
            sx={{ position: 'absolute', top: 2, left: 6, lineHeight: 1.2 }}
          >
            {formatMax(max)}
          </Typography>
        )}
      </Box>
      {(startLabel || endLabel) && (
        <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
          <Typography variant="caption" color="textSecondary">
            {startLabel}
          </Typography>
          <Typography variant="caption" color="textSecondary">
            {endLabel}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

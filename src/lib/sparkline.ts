/**
 * The SVG path of a small line chart. Values are laid out evenly from left to right; a null is a gap
 * (a minute without requests), so the line breaks there instead of pretending to be zero. The vertical
 * scale runs from 0 to the largest value (with 10 % headroom), so a flat line still reads as a level.
 */
export interface SparklineGeometry {
  /** `M x y L x y ...`, one `M` per run of values; '' when there is nothing to draw. */
  path: string;
  /** Points that stand alone (a value between two gaps), drawn as dots. */
  dots: Array<{ x: number; y: number }>;
  /** The largest value drawn (the scale's top is 10 % above it). */
  max: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

export function sparkline(
  values: ReadonlyArray<number | null>,
  width: number,
  height: number,
  padding = 2,
): SparklineGeometry {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const max = present.length > 0 ? Math.max(...present) : 0;
  if (present.length === 0 || values.length === 0) return { path: '', dots: [], max: 0 };
  const step = values.length > 1 ? (width - 2 * padding) / (values.length - 1) : 0;
  const top = max * 1.1;
  const scale = top > 0 ? (height - 2 * padding) / top : 0;
  const point = (value: number, index: number) => ({
    x: round(values.length > 1 ? padding + index * step : width / 2),
    y: round(height - padding - value * scale),
  });
  const parts: string[] = [];
  const dots: SparklineGeometry['dots'] = [];
  let run: Array<{ x: number; y: number }> = [];
  const flush = () => {
    if (run.length === 1) dots.push(run[0]);
    if (run.length > 0) parts.push(run.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' '));
    run = [];
  };
  values.forEach((value, index) => {
    if (value === null || !Number.isFinite(value)) flush();
    else run.push(point(value, index));
  });
  flush();
  return { path: parts.join(' '), dots, max };
}

/**
 * ffmpeg logs one "Opening '…' for reading" line per fetched HLS segment or playlist (and one "for writing"
 * per segment it writes): dozens a minute that bury the progress lines an operator looks for.
 */
const SEGMENT_OPENING = /\bOpening '[^']*' for (reading|writing)\b/;

export function isSegmentOpening(line: string): boolean {
  return SEGMENT_OPENING.test(line);
}

/** The lines worth showing, and how many segment openings were left out. */
export function withoutSegmentOpenings(lines: readonly string[]): { lines: string[]; hidden: number } {
  const kept = lines.filter((line) => !isSegmentOpening(line));
  return { lines: kept, hidden: lines.length - kept.length };
}

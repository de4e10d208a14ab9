import fs from 'node:fs';

/*
 * Sections of bench/RESULTS.md between two markers that `npm run bench`, which rewrites the rest of the
 * file, keeps: those a command of their own publishes (`npm run simulate -- --publish`, `npm run fidelity
 * -- --publish`, `npx tsx bench/density.ts --publish`, `npx tsx bench/density-peak.ts --publish`, `npx tsx bench/server-peak.ts --publish`,
 * `npx tsx bench/hostile-segment.ts --publish`, `npx tsx bench/content-cost.ts --publish`), each replacing
 * its own, and the test suites' timings and the server's figures at fleet size, which are kept by hand.
 */

export const PUBLISHED_SECTIONS = [
  'test-suites',
  'server-fleet-size',
  'simulated-season',
  'capture-fidelity',
  'recorder-density',
  'hostile-segment',
  'recorder-peak-copy',
  'recorder-peak-transcode',
  'server-peak',
  'content-cost-copy',
  'content-cost-transcode',
] as const;
export type PublishedSectionName = (typeof PUBLISHED_SECTIONS)[number];

const markers = (name: PublishedSectionName) => ({ start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` });

/** The section's lines between its markers. */
export function sectionText(name: PublishedSectionName, lines: string[]): string {
  const { start, end } = markers(name);
  return `${[start, ...lines, end].join('\n')}\n`;
}

/** The section as it stands in a RESULTS.md text, or '' when it has none. */
export function existingSection(markdown: string, name: PublishedSectionName): string {
  const { start, end } = markers(name);
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  return from >= 0 && to > from ? `${markdown.slice(from, to + end.length)}\n` : '';
}

/** Every published section a RESULTS.md text holds, in the order of PUBLISHED_SECTIONS. */
export function existingSections(markdown: string): string[] {
  return PUBLISHED_SECTIONS.map((name) => existingSection(markdown, name)).filter(Boolean);
}

/** Writes the section into the file: in place of the old one, else at the end. */
export function publishSection(file: string, name: PublishedSectionName, section: string): void {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const old = existingSection(current, name);
  const next = old ? current.replace(old, section) : `${current.trimEnd()}\n\n${section}`;
  fs.writeFileSync(file, next);
}

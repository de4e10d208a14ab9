import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The project's own Markdown: the README, CONTRIBUTING, bench's pages and everything under docs/. */
function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.posix.join('docs', file.split(path.sep).join('/')));
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', 'bench/RESULTS.md', ...docs].sort();
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const outsideCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of outsideCode.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  from: string;
  target: string;
}

/** Every relative link of a Markdown file (inline links; code blocks and spans left out). */
function relativeLinks(file: string): Link[] {
  const text = fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => ({ from: file, target }));
}

/** Why a link does not resolve, or undefined when it does. */
function problemOf({ from, target }: Link): string | undefined {
  if (target.startsWith('/')) return 'an absolute path: link within the repository, relatively';
  const [filePart, anchor] = target.split('#');
  const resolved = filePart ? path.posix.normalize(path.posix.join(path.posix.dirname(from), filePart)) : from;
  if (resolved.startsWith('..')) return 'a path outside the repository';
  const absolute = path.join(ROOT, resolved);
  if (!fs.existsSync(absolute)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return 'an anchor into a file that is not Markdown';
  return anchorsOf(fs.readFileSync(absolute, 'utf8')).has(anchor) ? undefined : `no heading #${anchor}`;
}

describe('the documentation', () => {
  it('has links that all resolve, to files and headings within the repository', () => {
    const broken = markdownFiles()
      .flatMap(relativeLinks)
      .map((link) => ({ link, problem: problemOf(link) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ link, problem }) => `${link.from}: (${link.target}) ${problem}`);
    expect(broken).toEqual([]);
  });

  it('finds the links it checks: the README reaches the reference, and a broken one is reported', () => {
    expect(relativeLinks('README.md').map((link) => link.target)).toContain('docs/reference.md');
    expect(problemOf({ from: 'README.md', target: 'docs/nowhere.md' })).toBe('no such file');
    expect(problemOf({ from: 'README.md', target: 'docs/reference.md#no-such-heading' })).toBe(
      'no heading #no-such-heading',
    );
    expect(problemOf({ from: 'docs/README.md', target: '../../outside.md' })).toBe('a path outside the repository');
  });
});

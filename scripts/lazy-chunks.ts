import path from 'node:path';
import type { ChunkingContext, CodeSplittingGroup } from 'rolldown';

/** A module loaded lazily on its own, without the signed-in console: it and its static imports make one chunk. */
export interface ApartChunk {
  name: string;
  /** The module, from the project's root. */
  module: string;
}

/**
 * The console's chunks, by how a visit loads them. Left to itself the bundler cut the signed-in console
 * into some 80 chunks, shared pieces of MUI and of the console each in its own file: /config waited for
 * them over HTTP/1.1's six connections for 1.2 s (issue 27). Here:
 * - `initial`: everything the entry imports statically (what /login shows), in one file with the entry;
 * - each `apart` module with its static imports, in a chunk of its own: a module the login page loads
 *   (the auth calls, for signing in and the first-run hint) must not drag the console in;
 * - `lazy-shared`: every other module that two or more lazy chunks import (the shell and pages share
 *   MUI, react-query, the API modules), in one file;
 * - whatever one page alone imports stays in that page's chunk.
 * The groups never capture a module of the entry's graph (`$initial`), so /login loads no byte more.
 */
export function consoleChunkGroups(apart: ApartChunk[]): CodeSplittingGroup[] {
  const initial = new Set<string>();
  const closures = new Map<string, Set<string>>();
  const closureOf = (module: string, ctx: ChunkingContext): Set<string> => {
    const known = closures.get(module);
    if (known) return known;
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      for (const next of ctx.getModuleInfo(id)?.importedIds ?? []) visit(next);
    };
    visit(path.resolve(module));
    closures.set(module, seen);
    return seen;
  };
  const inApart = (id: string, ctx: ChunkingContext) => apart.some(({ module }) => closureOf(module, ctx).has(id));
  return [
    // First (highest priority): the entry's graph, recorded so that the other groups leave it alone.
    { debugName: 'initial', priority: 3, tags: ['$initial'], name: (id) => (initial.add(id), 'initial') },
    ...apart.map(({ name, module }): CodeSplittingGroup => ({
      debugName: name,
      priority: 2,
      name: (id, ctx) => (initial.has(id) || !closureOf(module, ctx).has(id) ? null : name),
      includeDependenciesRecursively: false,
    })),
    {
      debugName: 'lazy-shared',
      priority: 1,
      name: (id, ctx) => (initial.has(id) || inApart(id, ctx) ? null : 'lazy-shared'),
      minShareCount: 2,
      includeDependenciesRecursively: false,
    },
  ];
}

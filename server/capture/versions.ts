/** Orders semantic versions (1.10.0 after 1.9.0); a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: pre ?? null };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre.localeCompare(y.pre);
}

/** The latest of the available images: highest version, then newest. */
export function latestImage<T extends { state: string; version: string; createdAt: string }>(
  images: T[],
): T | undefined {
  return images
    .filter((image) => image.state === 'available')
    .sort((a, b) => compareVersions(b.version, a.version) || b.createdAt.localeCompare(a.createdAt))[0];
}

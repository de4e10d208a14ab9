/** A small seeded PRNG (mulberry32): the same seed gives the same season on any machine. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxInclusive: number): number {
    return Math.floor(this.between(min, maxInclusive + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

/**
 * A generator of its own for one sermon, derived from the season's seed and the sermon's identity:
 * its faults do not depend on the order in which the server happens to launch things.
 */
export function randomFor(seed: number, ...parts: (string | number)[]): Random {
  let hash = 2166136261 ^ seed;
  for (const char of parts.join('|')) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  }
  return new Random(hash >>> 0);
}

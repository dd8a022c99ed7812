/**
 * Seeded randomness. Everything the simulator makes up comes from here so that the same seed always
 * yields the same data and the same fault sequence (Math.random is never used).
 */

/** A 32-bit integer finaliser (lowbias32). Bijective on 32-bit values, which hashId uniqueness relies on. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A stateless hash of (index, salt): lets a field be derived on demand instead of being stored. */
export function hash2(a: number, b: number): number {
  return mix32(mix32(a) ^ Math.imul(b + 0x9e3779b9, 0x85ebca6b));
}

/** Small fast PRNG (mulberry32). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = mix32(seed ^ 0xa5a5a5a5);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const v = items[this.int(items.length)];
    if (v === undefined) throw new Error('pick from an empty list');
    return v;
  }

  /** Picks with a skew towards the front of the list (index ~ n * u^k), so a few items dominate. */
  skewed(n: number, k = 2): number {
    return Math.min(n - 1, Math.floor(n * Math.pow(this.next(), k)));
  }
}

/** Picks from a list by a precomputed 32-bit hash instead of a PRNG draw. */
export function pickBy<T>(items: readonly T[], h: number): T {
  const v = items[h % items.length];
  if (v === undefined) throw new Error('pick from an empty list');
  return v;
}

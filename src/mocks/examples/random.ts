/**
 * The example generator's only source of randomness: a seeded one (FNV-1a hashes the seed
 * to 32 bits, mulberry32 draws from it), so the same seed gives the same value in Node and
 * in workerd, with no `Math.random` and no `crypto`. A mock answer can then be reproduced
 * from the request it answers, and a failing generated test from the seed it prints.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const TWO_32 = 4294967296;

/** The 32-bit FNV-1a hash of `text`'s UTF-16 code units, from `basis`. */
function fnv1a(text: string, basis: number = FNV_OFFSET): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

/**
 * A seeded generator. `fork(label)` derives an independent one from this one's seed and
 * the label (not from how many draws were made), so that the value made for one member of
 * an object does not change when a sibling member draws more or fewer numbers.
 */
export class Random {
  private state: number;
  private readonly base: number;

  private constructor(base: number) {
    this.base = base;
    this.state = base;
  }

  /** A generator for `seed`: the same seed, the same draws. */
  static from(seed: string): Random {
    return new Random(fnv1a(seed));
  }

  /** A generator derived from this one's seed and `label`, independent of draws made. */
  fork(label: string | number): Random {
    return new Random(fnv1a(`\u0000${label}`, this.base ^ 0x9e3779b9));
  }

  /** A number in [0, 1) (mulberry32, 32 bits). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / TWO_32;
  }

  /** An integer in [min, max], both included (safe integers; 53 bits of randomness). */
  int(min: number, max: number): number {
    if (!(max > min)) return min;
    const fraction = this.next() + this.next() / TWO_32;
    return Math.min(max, min + Math.floor(fraction * (max - min + 1)));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One of `items` (which must not be empty). */
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A shuffled copy of `items` (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = this.int(0, i);
      const swap = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = swap;
    }
    return copy;
  }
}

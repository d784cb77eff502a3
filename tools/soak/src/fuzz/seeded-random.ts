/**
 * A small deterministic random source (mulberry32): the same seed gives the same sequence on every machine and
 * Node version, so a fuzz run that found something can be replayed with its seed.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, below). */
  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Cannot pick from nothing');
    return items[this.int(items.length)] as T;
  }

  /** One of `weights`' keys, each as likely as its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let ticket = this.next() * total;
    for (const [key, weight] of entries) {
      ticket -= weight;
      if (ticket < 0) return key;
    }
    return (entries[entries.length - 1] as [K, number])[0];
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let index = 0; index < length; index++) out[index] = this.int(256);
    return out;
  }
}

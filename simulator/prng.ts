/**
 * A small seeded pseudo-random generator (mulberry32) so that the simulator's seeded state and its
 * chaos faults are the same on every run for a given seed.
 */
export class Prng {
  /** The generator's 32-bit state; saving and restoring it resumes the same sequence. */
  state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next unsigned 32-bit integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new RangeError("pick from an empty array");
    return item;
  }

  /** `length` lowercase hexadecimal digits. */
  hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.nextUint32().toString(16).padStart(8, "0");
    return out.slice(0, length);
  }

  /** `length` lowercase ASCII letters. */
  letters(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += String.fromCharCode(97 + this.int(26));
    return out;
  }

  /** A version-4-shaped UUID, e.g. `3f1c2a4e-9b0d-4c1e-8f2a-0123456789ab`. */
  uuid(): string {
    const h = this.hex(32).split("");
    h[12] = "4";
    h[16] = "89ab"[this.int(4)] ?? "8";
    const s = h.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

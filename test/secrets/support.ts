/**
 * The private key the secret tests seed, and the scan that proves it appears nowhere.
 *
 * The key's last 12 characters are what a server shows of it (`********-****-****-5ec7e7c0ffee`), so
 * they legitimately appear in outputs; everything before them must never appear anywhere.
 */
import * as util from "node:util";
import { expect } from "vitest";

export const PRIVATE_KEY = "7e57c0de-RECOGNIZABLE-PRIVATE-KEY-5ec7e7c0ffee";
/** The part of the key no server shows. */
export const HIDDEN_PART = PRIVATE_KEY.slice(0, -12);
/** The key as Ops Manager (and the simulator) shows it. */
export const SERVER_REDACTED = "********-****-****-5ec7e7c0ffee";
/** The key as the provider masks it when a server sends it whole: all but `-` and the last 4. */
export const PROVIDER_MASKED = "********-************-*******-***-********ffee";

/** Everything a value can show of itself: JSON, and `util.inspect` with hidden fields, for errors. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  const parts: string[] = [];
  try {
    parts.push(JSON.stringify(value) ?? "");
  } catch {
    // Circular: util.inspect below covers it.
  }
  parts.push(util.inspect(value, { showHidden: true, depth: null, maxStringLength: null }));
  if (value instanceof Error) parts.push(value.message, String(value.stack));
  return parts.join("\n");
}

/**
 * Asserts that none of `secrets` (nor the hidden part of the seeded key) appears in `produced`.
 * `what` names each item in the failure.
 */
export function expectNoSecret(produced: Array<[what: string, value: unknown]>, secrets: string[]): void {
  const needles = [...new Set([PRIVATE_KEY, HIDDEN_PART, "RECOGNIZABLE", ...secrets])];
  const leaks: string[] = [];
  for (const [what, value] of produced) {
    const text = textOf(value);
    for (const needle of needles) if (text.includes(needle)) leaks.push(`${what} contains ${needle}`);
  }
  expect(leaks).toEqual([]);
}

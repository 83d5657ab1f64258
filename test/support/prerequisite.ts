/**
 * Suites that need something from outside the repository (a CLI, Debian's servers, the npm registry,
 * openssl). Where it is missing, a suite is skipped with its reason in one line; under `CI=true` it is
 * instead one failing test that names what is missing, so that a CI run cannot pass without it.
 */
import { describe, it } from "vitest";

/** Whether a missing prerequisite fails rather than skips (CI sets `CI=true`). */
export const MISSING_FAILS = process.env.CI === "true";

/**
 * `describe(name, options, body)` when `missing` is undefined; otherwise a skip that says why, or under CI a
 * failing test that says what is missing.
 */
export function describeNeeding(
  name: string,
  missing: string | undefined,
  body: () => void,
  options: { timeout?: number } = {},
): void {
  if (missing === undefined) {
    describe(name, options, body);
    return;
  }
  if (MISSING_FAILS) {
    describe(name, () => {
      it("has what it needs", () => {
        throw new Error(`${name}: cannot run under CI without ${missing}`);
      });
    });
    return;
  }
  console.warn(`${name}: skipped, ${missing}`);
  describe.skip(name, body);
}

/** `it(name, fn)` when `missing` is undefined; otherwise skipped with its reason, or failing under CI. */
export function itNeeding(
  name: string,
  missing: string | undefined,
  fn: () => Promise<void> | void,
  timeout?: number,
): void {
  if (missing === undefined) {
    it(name, fn, timeout);
    return;
  }
  if (MISSING_FAILS) {
    it(name, () => {
      throw new Error(`${name}: cannot run under CI without ${missing}`);
    });
    return;
  }
  console.warn(`${name}: skipped, ${missing}`);
  it.skip(name, fn);
}

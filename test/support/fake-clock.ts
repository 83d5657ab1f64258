/**
 * Time as the subject of a test, with real sockets beside it: vitest's fake `setTimeout` and
 * `clearTimeout` (and nothing else: I/O, `setImmediate` and promises stay real), so a deadline or a
 * backoff fires when the test moves the clock, never because the machine was slow.
 */
import { vi } from "vitest";

/** One turn of the event loop: pending I/O callbacks and the promise jobs they start have run. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Several turns of the event loop, for work that crosses a socket (a write, the peer's read). */
export async function turns(count = 20): Promise<void> {
  for (let i = 0; i < count; i += 1) await turn();
}

/**
 * Turns the event loop until `done()` holds, moving no clock: for what the other side of a socket does
 * (a request arriving, bytes written). A condition that never holds ends in the test's own timeout.
 */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await turn();
}

/** A promise and whether it has settled yet, read without awaiting it. */
export function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const settle = () => {
    done = true;
  };
  promise.then(settle, settle);
  return { promise, settled: () => done };
}

/**
 * Runs `body` with fake `setTimeout`/`clearTimeout` (and, with `date`, a fake `Date` on the same clock),
 * real ones restored after, whatever happens.
 */
export async function withFakeTimeouts<T>(
  body: () => Promise<T>,
  options: { date?: boolean } = {},
): Promise<T> {
  const toFake: NonNullable<Parameters<typeof vi.useFakeTimers>[0]>["toFake"] = [
    "setTimeout",
    "clearTimeout",
  ];
  if (options.date) toFake.push("Date");
  vi.useFakeTimers({ toFake });
  try {
    return await body();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Moves the fake clock `stepMs` at a time, letting the event loop turn between steps, until `done()`
 * holds; fails after `maxMs` of fake time. Returns the fake time moved.
 */
export async function advanceUntil(done: () => boolean, stepMs: number, maxMs: number): Promise<number> {
  let moved = 0;
  await turns();
  while (!done()) {
    if (moved >= maxMs) throw new Error(`not done after ${moved} ms of fake time`);
    vi.advanceTimersByTime(stepMs);
    moved += stepMs;
    await turns();
  }
  return moved;
}

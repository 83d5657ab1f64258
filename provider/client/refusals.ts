/**
 * What the calls to one server learn together of its refused connections (`ECONNREFUSED`): nothing
 * listens at the port, for a restart's moment or, at a wrong port, for good.
 */

/** How long the first refusal of an outage is retried for, from when it was met. */
export const REFUSAL_WINDOW_MS = 2_000;

/** How long after its window an outage is believed: a refused call gives up without retrying. */
export const REFUSAL_MEMORY_MS = 30_000;

/** What a refused call does next; see {@link Refusals.refused}. */
export type RefusalStep =
  /** Wait `delayMs`, then try again: this call retries for every call. */
  | { kind: "retry"; delayMs: number }
  /** Another call is retrying: wait for it. `true` when the server still refused at its end. */
  | { kind: "wait"; stillRefused: Promise<boolean> }
  /** Give up now. */
  | { kind: "give-up" };

interface Outage {
  /** The call retrying for every call; `undefined` once the window is spent. */
  leader: object | undefined;
  /** When the first refusal was met. */
  since: number;
  /** Once the window is spent: until when the outage is believed. */
  until: number | undefined;
  stillRefused: Promise<boolean>;
  end(stillRefused: boolean): void;
}

const GIVE_UP: RefusalStep = { kind: "give-up" };

/** The record of one server's refusals, shared by every call a client makes to it. */
export class Refusals {
  private outage: Outage | undefined;
  private readonly windowMs: number;
  private readonly memoryMs: number;

  /** `windowMs` default {@link REFUSAL_WINDOW_MS}, `memoryMs` default {@link REFUSAL_MEMORY_MS}. */
  constructor(options: { windowMs?: number; memoryMs?: number } = {}) {
    this.outage = undefined;
    this.windowMs = options.windowMs ?? REFUSAL_WINDOW_MS;
    this.memoryMs = options.memoryMs ?? REFUSAL_MEMORY_MS;
  }

  /** The server answered: it takes connections. Calls waiting on a retry go on at once. */
  answered(): void {
    const outage = this.outage;
    this.outage = undefined;
    outage?.end(false);
  }

  /**
   * `call` was refused at `now`. `delayMs` is the wait before another attempt that the call's own policy
   * allows (`undefined`: it allows none). The first call refused retries while its next attempt falls
   * within the window from its first refusal; another call refused meanwhile waits for it; once the
   * window is spent, every refused call gives up until {@link REFUSAL_MEMORY_MS} has passed.
   */
  refused(call: object, now: number, delayMs: number | undefined): RefusalStep {
    let outage = this.outage;
    if (outage?.until !== undefined && now >= outage.until) outage = undefined;
    if (outage === undefined) {
      outage = startOutage(call, now);
      this.outage = outage;
    }
    if (outage.until !== undefined || delayMs === undefined) {
      if (outage.leader === call) this.spend(outage, now);
      return GIVE_UP;
    }
    if (outage.leader !== call) return { kind: "wait", stillRefused: outage.stillRefused };
    if (now + delayMs - outage.since <= this.windowMs) return { kind: "retry", delayMs };
    this.spend(outage, now);
    return GIVE_UP;
  }

  /** `call` is done with the refusals (it ended, or failed otherwise); those it retried for go on alone. */
  release(call: object): void {
    const outage = this.outage;
    if (outage?.leader !== call || outage.until !== undefined) return;
    this.outage = undefined;
    outage.end(false);
  }

  private spend(outage: Outage, now: number): void {
    outage.leader = undefined;
    outage.until = now + this.memoryMs;
    outage.end(true);
  }
}

function startOutage(leader: object, since: number): Outage {
  let end: (stillRefused: boolean) => void = () => {};
  const stillRefused = new Promise<boolean>((resolve) => {
    end = resolve;
  });
  return { leader, since, until: undefined, stillRefused, end };
}

/**
 * What a fault chosen for a request (./faults) does to it before the API acts: wait, hang, drop the
 * connection, or answer in the server's place. What it does after (drop, or answer after acting) is
 * the pipeline's last step (./pipeline).
 */
import type * as http from "node:http";
import type { DigestAuthenticator } from "./digest";
import type { ChosenFault } from "./faults";
import { type Framed, faultAnswer } from "./framing";
import type { ProfileRules } from "./profiles";
import { send } from "./respond";
import type { Fault, RecordedRequest } from "./types";

/** Whether a fault answers with a status of its own (a raw answer or an error), instead of the API's. */
export function answersItself(fault: Fault): boolean {
  return fault.raw !== undefined || fault.status !== undefined;
}

/** Applies faults to requests; holds the timers of delayed requests so that a close can cancel them. */
export class FaultEffects {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly rules: ProfileRules,
    private readonly digest: DigestAuthenticator,
  ) {}

  /**
   * Applies what `chosen` does before the request is acted on, and records its name.
   * @returns `true` when that ends the request (an answer sent, a connection dropped, or none ever).
   */
  async hold(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    entry: RecordedRequest,
    chosen: ChosenFault,
  ): Promise<boolean> {
    const { fault } = chosen;
    entry.fault = chosen.name;
    if (fault.delayMs !== undefined) {
      await this.sleep(fault.delayMs);
      if (this.stopped) return true;
    }
    if (fault.holdUntil !== undefined) {
      await Promise.resolve(fault.holdUntil).catch(() => undefined);
      if (this.stopped) return true;
    }
    if (fault.hang) return true;
    if (fault.drop === "before") {
      req.socket.destroy();
      return true;
    }
    if (answersItself(fault) && !fault.actThenFail) {
      fault.whenAnswered?.(entry);
      send(res, entry, this.answer(fault));
      return true;
    }
    return false;
  }

  /** The answer of a fault that {@link answersItself}; a 401 carries a fresh challenge. */
  answer(fault: Fault): Framed {
    return faultAnswer(fault, this.rules, () => this.digest.challenge(false));
  }

  /** Cancels every delay under way: those requests are never answered (the server's close ends them). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

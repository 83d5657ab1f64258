/**
 * Fault injection: a queue of faults matched by method and path, and seeded random chaos.
 */
import type { DigestAuthenticator } from "./digest";
import { Prng } from "./prng";
import type { ChaosOptions, Fault, FaultController } from "./types";

/** A fault picked for one request, with the name recorded in the request log. */
export interface ChosenFault {
  name: string;
  fault: Fault;
}

interface QueuedFault {
  fault: Fault;
  remaining: number;
}

function validateFault(fault: Fault): void {
  if (fault.times !== undefined && !(Number.isInteger(fault.times) && fault.times >= 1)) {
    throw new RangeError(`fault.times must be a positive integer, got ${fault.times}`);
  }
  if (
    fault.status !== undefined &&
    !(Number.isInteger(fault.status) && fault.status >= 100 && fault.status <= 599)
  ) {
    throw new RangeError(`fault.status must be an HTTP status, got ${fault.status}`);
  }
  if (fault.delayMs !== undefined && !(fault.delayMs >= 0)) {
    throw new RangeError(`fault.delayMs must be >= 0, got ${fault.delayMs}`);
  }
  if (fault.holdUntil !== undefined && typeof fault.holdUntil?.then !== "function") {
    throw new TypeError("fault.holdUntil must be a promise");
  }
  if (fault.drop !== undefined && !["before", "after", "mid"].includes(fault.drop)) {
    throw new RangeError(`fault.drop must be "before", "after" or "mid", got ${String(fault.drop)}`);
  }
  if (fault.beforeAuth && (fault.actThenFail || fault.drop === "after" || fault.drop === "mid")) {
    throw new RangeError('a beforeAuth fault cannot act: no actThenFail, no drop "after" or "mid"');
  }
  if (fault.beforeAuth && fault.user !== undefined) {
    throw new RangeError("a beforeAuth fault cannot match a user: no credentials are read before it");
  }
  if (fault.whenAnswered !== undefined && typeof fault.whenAnswered !== "function") {
    throw new TypeError("fault.whenAnswered must be a function");
  }
}

/** Checks a page cap: `undefined`, or a whole number from 1 to 500. */
export function validatePageCap(count: number | undefined, name: string): void {
  if (count !== undefined && !(Number.isInteger(count) && count >= 1 && count <= 500)) {
    throw new RangeError(`${name} must be an integer from 1 to 500, got ${count}`);
  }
}

/** Describes a fault for the request log, e.g. `delay+status-503`. */
export function faultName(fault: Fault): string {
  const parts: string[] = [];
  if (fault.beforeAuth) parts.push("before-auth");
  if (fault.delayMs !== undefined) parts.push("delay");
  if (fault.holdUntil !== undefined) parts.push("held");
  if (fault.hang) parts.push("hang");
  if (fault.drop) parts.push(`drop-${fault.drop}`);
  if (fault.actThenFail) parts.push("act-then-fail");
  if (fault.raw) parts.push(`raw-${fault.raw.status}`);
  else if (fault.status !== undefined) parts.push(`status-${fault.status}`);
  if (fault.whenAnswered) parts.push("when-answered");
  return parts.length > 0 ? parts.join("+") : "none";
}

/** The simulator's {@link FaultController}, plus the lookup the server does per request. */
export class Faults implements FaultController {
  private queue: QueuedFault[] = [];
  private chaosOptions: ChaosOptions | undefined;
  private chaosPrng = new Prng(1);
  private readonly digest: DigestAuthenticator;
  private readonly defaultNonceLifetimeMs: number;
  private readonly defaultPageCap: number | undefined;
  /** The most keys a page serves, whatever `itemsPerPage` asks; `undefined`: no cap. */
  pageCap: number | undefined;

  constructor(digest: DigestAuthenticator, defaultNonceLifetimeMs: number, defaultPageCap?: number) {
    this.digest = digest;
    this.defaultNonceLifetimeMs = defaultNonceLifetimeMs;
    this.defaultPageCap = defaultPageCap;
    this.pageCap = defaultPageCap;
  }

  add(...faults: Fault[]): void {
    for (const fault of faults) {
      validateFault(fault);
      this.queue.push({ fault: { ...fault }, remaining: fault.times ?? 1 });
    }
  }

  chaos(options: ChaosOptions | undefined): void {
    this.chaosOptions = options ? { ...options } : undefined;
    this.chaosPrng = new Prng(options?.seed ?? 1);
  }

  nonceLifetime(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`nonce lifetime must be >= 0 ms, got ${ms}`);
    this.digest.lifetimeMs = ms;
  }

  nonceLifetimeRequests(count: number | undefined): void {
    if (count !== undefined && !(Number.isInteger(count) && count >= 1)) {
      throw new RangeError(`nonce lifetime in requests must be a positive integer, got ${count}`);
    }
    this.digest.lifetimeRequests = count;
  }

  expireNonces(): void {
    this.digest.expireAll();
  }

  refuseNonceReuse(on: boolean): void {
    this.digest.refuseReuse = on;
  }

  maxItemsPerPage(count: number | undefined): void {
    validatePageCap(count, "maxItemsPerPage");
    this.pageCap = count;
  }

  clear(): void {
    this.queue = [];
    this.chaos(undefined);
    this.digest.refuseReuse = false;
    this.digest.lifetimeMs = this.defaultNonceLifetimeMs;
    this.digest.lifetimeRequests = undefined;
    this.pageCap = this.defaultPageCap;
  }

  /**
   * The fault for an authenticated request, consuming one use of the first matching queued fault;
   * otherwise a chaos fault when chaos is on. With `beforeAuth`, the first matching `beforeAuth` fault
   * for any request, before its credentials are checked (never chaos).
   * @param relPath the path below the API root.
   * @param user the digest user that signed the request (none before authentication).
   */
  take(method: string, relPath: string, beforeAuth = false, user?: string): ChosenFault | undefined {
    const index = this.queue.findIndex(
      ({ fault }) =>
        (fault.beforeAuth ?? false) === beforeAuth &&
        (fault.method === undefined || fault.method.toUpperCase() === method.toUpperCase()) &&
        (fault.pathPrefix === undefined || relPath.startsWith(fault.pathPrefix)) &&
        (fault.user === undefined || fault.user === user),
    );
    const queued = this.queue[index];
    if (queued) {
      queued.remaining -= 1;
      if (queued.remaining <= 0) this.queue.splice(index, 1);
      return { name: faultName(queued.fault), fault: queued.fault };
    }
    if (beforeAuth) return undefined;
    const chaos = this.chaosOptions;
    if (!chaos) return undefined;
    const r = this.chaosPrng.next();
    const rate503 = chaos.rate503 ?? 0;
    const rate429 = chaos.rate429 ?? 0;
    const rateDropMid = chaos.rateDropMid ?? 0;
    if (r < rate503) return { name: "chaos-503", fault: { status: 503 } };
    if (r < rate503 + rate429) {
      return { name: "chaos-429", fault: { status: 429, retryAfterSeconds: chaos.retryAfterSeconds ?? 1 } };
    }
    if (r < rate503 + rate429 + rateDropMid) return { name: "chaos-drop-mid", fault: { drop: "mid" } };
    return undefined;
  }
}

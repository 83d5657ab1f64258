/** Retry policy: which failures are worth another attempt, and how long to wait before it. */
import { ApiError } from "./errors/api-error";
import { AuthenticationError } from "./errors/authentication-error";
import { InvalidArgumentError } from "./errors/invalid-argument-error";
import { NetworkError } from "./errors/network-error";
import { OpsManagerError } from "./errors/opsmanager-error";
import { SchemeMismatchError } from "./errors/scheme-mismatch-error";
import { TimeoutError } from "./errors/timeout-error";
import { TlsError } from "./errors/tls-error";
import type { Refusals } from "./refusals";
import type { HttpMethod, RetryOptions } from "./types";

/** What retrying needs to know of a request: whether repeating it is safe. */
export interface RetryTarget {
  method: HttpMethod;
  /** The caller's declaration; default {@link isIdempotentMethod} of `method`. */
  idempotent?: boolean;
}

/** {@link RetryOptions} with every default filled in. */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxElapsedMs: number;
}

/** Test seams and counters for {@link withRetries}. */
export interface RetryHooks {
  /** Called before each wait. */
  onRetry?(info: { attempt: number; delayMs: number; error: unknown }): void;
  sleep?(ms: number): Promise<void>;
  now?(): number;
  /** A number in [0, 1); default `Math.random`. */
  random?(): number;
  /** The server's {@link Refusals}, shared by its calls: a refused connection is retried briefly, for all. */
  refusals?: Refusals;
  /**
   * Ends every wait at once when it aborts; `attempt` is then called straight away, and is the one to
   * refuse to go on (it knows what to say).
   */
  signal?: AbortSignal;
}

/** Statuses worth retrying for idempotent requests. */
const RETRY_STATUSES = [429, 502, 503, 504];
/** Statuses that mean a request was not acted on: rate limited, or not accepted for service. */
const RETRY_STATUSES_NOT_ACTED = [429, 503];
/** RFC 9110 §9.2.2: the methods whose effect is the same however often they are sent. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/** Whether `method` is idempotent by definition (RFC 9110 §9.2.2); callers declare others, as in undici. */
export function isIdempotentMethod(method: HttpMethod): boolean {
  return IDEMPOTENT_METHODS.has(method);
}

function checkNumber(option: string, value: number | undefined, min: number, integer: boolean): void {
  if (value === undefined) return;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < min ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? "an integer" : "a number";
    throw new InvalidArgumentError(option, `must be ${kind} ≥ ${min} (got ${String(value)})`);
  }
}

/** The defaults ({@link RetryOptions}): backoff enough to ride out a server restart or a rate limit. */
export const RETRY_DEFAULTS: Readonly<RetryPolicy> = {
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  maxElapsedMs: 120_000,
};

/** The policy for `options`, each left out from {@link RETRY_DEFAULTS}; throws an `InvalidArgumentError`. */
export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  checkNumber("retry.maxAttempts", options.maxAttempts, 1, true);
  checkNumber("retry.baseDelayMs", options.baseDelayMs, 0, false);
  checkNumber("retry.maxDelayMs", options.maxDelayMs, 0, false);
  checkNumber("retry.maxElapsedMs", options.maxElapsedMs, 0, false);
  if (options.maxAttempts !== undefined && options.maxAttempts > 100) {
    throw new InvalidArgumentError("retry.maxAttempts", `must be at most 100 (got ${options.maxAttempts})`);
  }
  return {
    maxAttempts: options.maxAttempts ?? RETRY_DEFAULTS.maxAttempts,
    baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
    maxElapsedMs: options.maxElapsedMs ?? RETRY_DEFAULTS.maxElapsedMs,
  };
}

/**
 * Whether `error` from `request` is worth another attempt. An idempotent request (by method or
 * declaration) is retried on network errors, timeouts, 429, 502, 503 and 504; any other only where the
 * server cannot have acted on it: nothing was sent, 429, 503, or a failed challenge GET (retried as a
 * GET is). Never a TLS, scheme or credentials failure.
 */
export function isRetryable(request: RetryTarget, error: unknown): boolean {
  const repeatable = request.idempotent ?? isIdempotentMethod(request.method);
  if (
    error instanceof TlsError ||
    error instanceof SchemeMismatchError ||
    error instanceof AuthenticationError
  )
    return false;
  if (error instanceof NetworkError) return repeatable || !error.requestSent;
  if (error instanceof TimeoutError) return repeatable || !error.requestSent;
  if (error instanceof ApiError) {
    // An answer to the challenge request: the request itself was not sent, so retrying is as safe as
    // retrying that GET.
    const statuses = repeatable || !error.requestSent ? RETRY_STATUSES : RETRY_STATUSES_NOT_ACTED;
    return statuses.includes(error.status);
  }
  return false;
}

/** Whether `error` is a connection the server refused: nothing listens at its port now. */
export function isRefusal(error: unknown): boolean {
  return error instanceof NetworkError && error.causeCode === "ECONNREFUSED";
}

/** Full jitter (a uniform wait in [0, min(maxDelayMs, baseDelayMs·2^attempt))), attempt from 0. */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** A `Retry-After` in ms, from delay-seconds or an HTTP-date (RFC 9110 §10.2.3); else `undefined`. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function defaultSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => clearTimeout(timer);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/** `waited`, or sooner: when `signal` aborts. */
function untilAborted<T>(waited: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return waited;
  if (signal.aborted) return Promise.resolve(undefined);
  let stop: () => void = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    stop = () => resolve(undefined);
    signal.addEventListener("abort", stop, { once: true });
  });
  return Promise.race([waited, aborted]).finally(() => signal.removeEventListener("abort", stop));
}

/**
 * Runs `attempt` until it succeeds, fails with an error not worth retrying, or the policy's attempts or
 * time run out; then throws the last error. A `Retry-After` is waited out in full while `maxElapsedMs`
 * has that much left; past it, the error says so at once. Given `refusals`, a refused connection is
 * retried as they say instead. Given `signal`, its abort ends any wait.
 */
export async function withRetries<T>(
  request: RetryTarget,
  policy: RetryPolicy,
  attempt: (index: number) => Promise<T>,
  hooks: RetryHooks = {},
): Promise<T> {
  const now = hooks.now ?? Date.now;
  const sleep = (ms: number) =>
    untilAborted(hooks.sleep ? hooks.sleep(ms) : defaultSleep(ms, hooks.signal), hooks.signal);
  const started = now();
  const final = (error: unknown, attempts: number): unknown => {
    if (error instanceof OpsManagerError) error.noteAttempts(attempts, now() - started);
    return error;
  };
  const refusals = hooks.refusals;
  // This call, as the shared record of refusals knows it.
  const caller = {};
  try {
    for (let index = 0; ; index += 1) {
      try {
        return await attempt(index);
      } catch (error) {
        const allowed = index + 1 < policy.maxAttempts && isRetryable(request, error);
        const left = policy.maxElapsedMs - (now() - started);
        const backoff = allowed ? backoffDelay(index, policy, hooks.random) : 0;
        if (refusals !== undefined && isRefusal(error)) {
          const step = refusals.refused(caller, now(), allowed && backoff <= left ? backoff : undefined);
          if (step.kind === "give-up") throw final(error, index + 1);
          if (step.kind === "wait") {
            if (await untilAborted(step.stillRefused, hooks.signal)) throw final(error, index + 1);
            hooks.onRetry?.({ attempt: index + 1, delayMs: 0, error });
          } else {
            hooks.onRetry?.({ attempt: index + 1, delayMs: step.delayMs, error });
            await sleep(step.delayMs);
          }
          continue;
        }
        refusals?.release(caller);
        if (!allowed) throw final(error, index + 1);
        let delay = backoff;
        if (error instanceof ApiError && error.retryAfterMs !== undefined) {
          // RFC 9110 §10.2.3: coming back sooner is refused again; a wait past the budget is pointless.
          if (error.retryAfterMs > left) {
            throw final(error.beyondRetryBudget(left, policy.maxElapsedMs), index + 1);
          }
          delay = Math.max(error.retryAfterMs, Math.min(backoff, left));
        }
        if (delay > left) throw final(error, index + 1);
        hooks.onRetry?.({ attempt: index + 1, delayMs: delay, error });
        await sleep(delay);
      }
    }
  } finally {
    refusals?.release(caller);
  }
}

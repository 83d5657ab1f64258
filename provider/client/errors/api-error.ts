import { type CallInfo, callHead, notSentNote } from "./format";
import type { ErrorCode } from "./opsmanager-error";
import { RequestError } from "./request-error";

/** What the server said in a non-2xx answer, and the request it answered. */
export interface ApiErrorInit extends CallInfo {
  status: number;
  /** `errorCode` of the server's error body, e.g. `INVALID_ATTRIBUTE`. */
  errorCode?: string;
  /** `detail` of the server's error body. */
  detail?: string;
  /** `reason` of the server's error body (the status text), e.g. `Bad Request`. */
  reason?: string;
  /** `parameters` of the server's error body. */
  parameters?: unknown[];
  /** The server's `Retry-After`, in ms, when it sent one. */
  retryAfterMs?: number;
  /** Up to 200 characters of a body that was not a JSON error (an HTML error page, say). */
  bodySnippet?: string;
  /** `Location` of a redirect. */
  location?: string;
  /** Set when a `Retry-After` asked for more than the retry budget had left: what was left, of how much. */
  retryBudget?: RetryBudget;
  /** What to do, from a layer that knows what the request meant (which id a 404 is about), not HTTP's. */
  hint?: string;
}

/** The part of the retry budget (`maxElapsedMs`) that was left when a `Retry-After` did not fit it. */
export interface RetryBudget {
  leftMs: number;
  totalMs: number;
}

/** Every field of {@link ApiErrorInit} but the call's, each present (`undefined` where the server did not say). */
type ServerAnswer = { readonly [K in Exclude<keyof ApiErrorInit, keyof CallInfo>]: ApiErrorInit[K] };

/** The one list of an {@link ApiError}'s own fields: what `from` (an init, or an error) says of the answer. */
function serverAnswer(from: Omit<ApiErrorInit, keyof CallInfo>): ServerAnswer {
  return {
    status: from.status,
    errorCode: from.errorCode,
    detail: from.detail,
    reason: from.reason,
    parameters: from.parameters,
    retryAfterMs: from.retryAfterMs,
    bodySnippet: from.bodySnippet,
    location: from.location,
    retryBudget: from.retryBudget,
    hint: from.hint,
  };
}

/**
 * The server answered with a status that is not 2xx (code `OM_ERR_API`).
 *
 * @example
 * `PATCH /orgs/5f1…/apiKeys/5f2… failed: 400 INVALID_ATTRIBUTE — desc must be 1 to 250 characters (correct the value the server names and run again)`
 */
export class ApiError extends RequestError implements ServerAnswer {
  declare readonly status: number;
  declare readonly errorCode: string | undefined;
  declare readonly detail: string | undefined;
  declare readonly reason: string | undefined;
  declare readonly parameters: unknown[] | undefined;
  declare readonly retryAfterMs: number | undefined;
  declare readonly bodySnippet: string | undefined;
  declare readonly location: string | undefined;
  declare readonly retryBudget: RetryBudget | undefined;
  declare readonly hint: string | undefined;

  constructor(init: ApiErrorInit, code: ErrorCode = "OM_ERR_API", message = formatApiErrorMessage(init)) {
    super(code, message, init);
    this.name = "ApiError";
    Object.assign(this, serverAnswer(init));
  }

  /** The call and the server's answer, for building another error about the same answer. */
  answer(): ApiErrorInit {
    return { ...this.call(), ...serverAnswer(this) };
  }

  /** A copy saying that its `Retry-After` asked for more than the `leftMs` left of the `totalMs` budget. */
  beyondRetryBudget(leftMs: number, totalMs: number): ApiError {
    return this.copyWith({ retryBudget: { leftMs, totalMs } });
  }

  /** A copy with `hint` as its advice ({@link ApiErrorInit.hint}): several callers may hold the original. */
  withHint(hint: string): ApiError {
    return this.copyWith({ hint });
  }

  /** A new error with every field of this one, `change` applied, and the attempts it noted. */
  private copyWith(change: Partial<ApiErrorInit>): ApiError {
    const copy = this.rebuild({ ...this.answer(), ...change });
    if (this.attempts !== undefined) copy.noteAttempts(this.attempts, this.elapsedMs ?? 0);
    return copy;
  }

  /** An error of this one's kind from `init`: a subclass that keeps more than `init` says overrides it. */
  protected rebuild(init: ApiErrorInit): ApiError {
    return new ApiError(init);
  }
}

/** What HTTP says about a status; the API layer and the resources add their own with `withHint`. */
function hintFor(init: ApiErrorInit): string | undefined {
  if (init.hint !== undefined) return init.hint;
  const { status } = init;
  if (status >= 300 && status < 400) {
    return init.location
      ? `the server redirected to ${init.location}; use that address as the base URL`
      : "the server redirected; check the base URL (https or http, host and port)";
  }
  if (status === 400) return "correct the value the server names and run again";
  if (status === 404) return "check the id";
  if (status === 409) return "the resource changed meanwhile; try again";
  if (status === 429) return "rate limited; try again later";
  if (status >= 500) return "the server failed; try again";
  return undefined;
}

/** What `Retry-After` asked for and, when it did not fit the retry budget, by how much. */
function waitNote(init: ApiErrorInit): string | undefined {
  if (init.retryAfterMs === undefined) return undefined;
  const wait = `the server asked to wait ${seconds(init.retryAfterMs, Math.ceil)}`;
  if (init.retryBudget === undefined) return wait;
  const { leftMs, totalMs } = init.retryBudget;
  return `${wait}, more than the ${seconds(Math.max(0, leftMs), Math.floor)} left of the ${seconds(totalMs, Math.round)} retry budget, so it was not retried`;
}

/** `12 s`, `0.5 s`: to a tenth of a second, rounded by `round`. */
function seconds(ms: number, round: (n: number) => number): string {
  return `${round(ms / 100) / 10} s`;
}

function formatApiErrorMessage(init: ApiErrorInit): string {
  const label = init.errorCode ?? init.reason;
  let text = `${callHead(init)} failed: ${init.status}${label ? ` ${label}` : ""}`;
  if (init.detail) text += ` — ${init.detail}`;
  else if (init.bodySnippet) text += ` — the server answered with ${init.bodySnippet}`;
  const advice = [hintFor(init), waitNote(init)].filter((part) => part !== undefined).join("; ");
  if (advice) text += ` (${advice})`;
  return text + notSentNote(init);
}

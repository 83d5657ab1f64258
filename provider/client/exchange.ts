/** One answered round trip: its body read within a limit or dropped, under the round trip's deadline. */
import type { Dispatcher } from "undici";
import { type BodyStream, ERROR_BODY_BYTES, type ErrorBody, parseErrorBody, readLimited } from "./body";
import { type Call, callInfo } from "./call";
import type { DigestResponseLike, ResponseHeaders } from "./digest-types";
import { ResponseTooLargeError } from "./errors/response-too-large-error";

/** A response whose body is still to be read. */
export interface Exchange extends DigestResponseLike {
  /** Reads the whole body; past `limit` bytes stops, destroys the stream, and throws. */
  readAll(limit: number): Promise<Buffer>;
  /** Reads at most `limit` bytes and drops the rest. */
  readSome(limit: number): Promise<Buffer>;
}

/** One round trip's deadline, over connect, headers and the whole body until it is read or discarded. */
export class RoundTripTimer {
  readonly signal: AbortSignal;
  timedOut: boolean;
  private body: BodyStream | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    const controller = new AbortController();
    this.signal = controller.signal;
    this.timedOut = false;
    this.body = undefined;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      controller.abort();
      // undici's body timeout restarts with every chunk; a trickling body is cut here.
      this.body?.destroy();
    }, ms);
    this.timer.unref();
  }

  /** The body now being read, which the deadline cuts. */
  watch(body: BodyStream): void {
    this.body = body;
  }

  finish(): void {
    clearTimeout(this.timer);
  }
}

/** An answered round trip whose body is not read yet. */
export interface RoundTrip {
  call: Call;
  probe: boolean;
  status: number;
  headers: ResponseHeaders;
  stream: Dispatcher.ResponseData["body"];
  timer: RoundTripTimer;
}

/** The exchange of `trip`, its deadline ending when the body is read or dropped; `fail` maps a cut body. */
export function openExchange(trip: RoundTrip, fail: (error: unknown) => Error): Exchange {
  return {
    status: trip.status,
    headers: trip.headers,
    discard: () => discard(trip),
    readAll: (limit) => read(trip, limit, true, fail),
    readSome: (limit) => read(trip, limit, false, fail),
  };
}

async function read(
  trip: RoundTrip,
  limit: number,
  strict: boolean,
  fail: (error: unknown) => Error,
): Promise<Buffer> {
  const tooLarge = (contentLength: number | undefined) =>
    new ResponseTooLargeError({
      ...callInfo(trip.call, trip.probe),
      status: trip.status,
      limitBytes: limit,
      ...(contentLength === undefined ? {} : { contentLength }),
    });
  try {
    return await readLimited(trip.stream, trip.headers["content-length"], limit, strict, tooLarge);
  } catch (error) {
    if (error instanceof ResponseTooLargeError) throw error;
    throw fail(error);
  } finally {
    trip.timer.finish();
  }
}

async function discard(trip: RoundTrip): Promise<void> {
  try {
    await trip.stream.dump({ limit: ERROR_BODY_BYTES });
  } catch {
    // A body we do not use may fail to drain; the connection is then closed, which is fine.
  } finally {
    trip.timer.finish();
  }
}

/**
 * A 401 to a signed request, its body read (up to the error-body cap) before the digest session sees
 * it, so that the caller's `pastAuthentication` can say whether it was written past authentication:
 * the session must then neither sign the request again (its body would cross twice) nor read the 401
 * as a refused nonce.
 */
export async function peekedExchange(
  exchange: Exchange,
  clean: (text: string) => string,
  isPastAuthentication: ((answer: ErrorBody) => boolean) | undefined,
): Promise<Exchange> {
  const { status, headers } = exchange;
  let body: Buffer | undefined;
  let failure: unknown;
  try {
    body = await exchange.readSome(ERROR_BODY_BYTES);
  } catch (error) {
    // A body that breaks off fails only a read for the error message; dropping it never failed.
    failure = error;
  }
  const bodyRead = async (limit: number): Promise<Buffer> => {
    if (body === undefined) throw failure;
    return body.subarray(0, limit);
  };
  return {
    status,
    headers,
    pastAuthentication:
      body !== undefined && isPastAuthentication?.(parseErrorBody(body, headers, clean)) === true,
    discard: async () => {},
    readAll: bodyRead,
    readSome: bodyRead,
  };
}

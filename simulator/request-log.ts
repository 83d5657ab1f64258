/**
 * The simulator's request log: each request as it arrived, parsed for tests to assert on. The log must
 * never hold a private key, whatever a client sends: every private key the state holds or ever held is
 * replaced by `[REDACTED]`.
 */
import type * as http from "node:http";
import type { SimState } from "./state";
import type { RecordedRequest } from "./types";

function tryParseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The requests the simulator received, in order, scrubbed of private keys. */
export class RequestLog {
  /** The recorded requests; the simulator hands out this array itself, so a test sees it grow. */
  readonly requests: RecordedRequest[] = [];
  private seq = 0;

  /**
   * @param state Tells a private key from other text.
   * @param adminPrivateKey The admin key's private key, scrubbed wherever it appears.
   * @param record Whether to keep the records (`SimulatorOptions.record`); they are numbered either way.
   */
  constructor(
    private readonly state: SimState,
    private readonly adminPrivateKey: string,
    private readonly record: boolean,
  ) {}

  /** `text` with every private key the state holds or held, and the admin key's, as `[REDACTED]`. */
  scrub(text: string): string {
    const scrubbed = text.replace(/[\w-]+/g, (token) => (this.state.isSecret(token) ? "[REDACTED]" : token));
    return scrubbed.split(this.adminPrivateKey).join("[REDACTED]");
  }

  /** `fields` with every value scrubbed. */
  scrubRecord(fields: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields)) {
      Object.defineProperty(out, name, {
        value: this.scrub(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  /** The record of a request as it arrived, without its `Authorization` header (its digest fields come later). */
  add(
    method: string,
    path: string,
    query: Record<string, string>,
    incoming: http.IncomingHttpHeaders,
    rawBody: string,
  ): RecordedRequest {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming)) {
      if (name === "authorization" || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const scrubbedBody = this.scrub(rawBody);
    const entry: RecordedRequest = {
      seq: ++this.seq,
      receivedAt: performance.now(),
      method,
      path: this.scrub(path),
      query: this.scrubRecord(query),
      headers: this.scrubRecord(headers),
      rawBody: scrubbedBody,
      body: tryParseJson(scrubbedBody),
      authenticated: false,
      status: 0,
    };
    if (this.record) this.requests.push(entry);
    return entry;
  }
}

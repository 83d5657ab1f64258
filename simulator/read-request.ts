/**
 * The pipeline's first step (./pipeline): a request read whole, its target split into path and query as
 * the server reads them, and recorded (./request-log); then what is refused before authentication, a
 * body too large or a path outside the API root.
 */
import type * as http from "node:http";
import { API_ROOT, errorBody } from "./answers";
import { type Framed, jsonHeaders } from "./framing";
import type { RequestLog } from "./request-log";
import type { RecordedRequest } from "./types";

/** The largest request body the simulator takes; past it, a request is answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request as read, and its record in the log, which the later steps complete. */
export interface IncomingRequest {
  /** The method, upper case. */
  method: string;
  /** The request target as received, path and query string: what a digest `uri` must match. */
  target: string;
  /** The target's path, still percent-encoded. */
  path: string;
  /** The target's query parameters. */
  query: Record<string, string>;
  /** The body as text; past {@link MAX_BODY_BYTES}, only what came before. */
  rawBody: string;
  /** Whether the body was longer than {@link MAX_BODY_BYTES}. */
  tooLarge: boolean;
  /** Its record in the request log. */
  entry: RecordedRequest;
}

function parseQuery(queryString: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(queryString)) {
    // The first occurrence wins, as a servlet's getParameter does; defineProperty keeps `__proto__` a
    // plain key.
    if (Object.getOwnPropertyDescriptor(query, name) === undefined) {
      Object.defineProperty(query, name, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return query;
}

/** Reads `req` to its end and records it in `log`. */
export async function readRequest(req: http.IncomingMessage, log: RequestLog): Promise<IncomingRequest> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  const rawBody = Buffer.concat(chunks).toString("utf8");
  const method = (req.method ?? "GET").toUpperCase();
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  const query = parseQuery(q < 0 ? "" : target.slice(q + 1));
  const entry = log.add(method, path, query, req.headers, rawBody);
  return { method, target, path, query, rawBody, tooLarge: size > MAX_BODY_BYTES, entry };
}

/** The answer to a request refused before authentication: a body too large, a path outside the API. */
export function refusalBeforeAuth({ tooLarge, path }: IncomingRequest): Framed | undefined {
  if (tooLarge) {
    const body = errorBody(413, "PAYLOAD_TOO_LARGE", `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    return { status: 413, headers: jsonHeaders(), text: JSON.stringify(body) };
  }
  if (path !== API_ROOT && !path.startsWith(`${API_ROOT}/`)) {
    const body = errorBody(404, "RESOURCE_NOT_FOUND", `Cannot find resource ${path}.`, [path]);
    return { status: 404, headers: jsonHeaders(), text: JSON.stringify(body) };
  }
  return undefined;
}

/** A path under the API root, below it: `/orgs/…`, or `/` for the root itself. */
export function belowApiRoot(path: string): string {
  return path.slice(API_ROOT.length) || "/";
}

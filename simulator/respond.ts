/**
 * Putting a framed answer (./framing) on the wire: whole, cut in the middle as a `drop: "mid"` fault
 * asks, or, when a step of the pipeline threw, a bare 500. The status sent is written to the request's
 * record.
 */
import type * as http from "node:http";
import { errorBody } from "./answers";
import type { Framed } from "./framing";
import type { RecordedRequest } from "./types";

/** Sends `framed` whole, unless the connection is gone or an answer has already started. */
export function send(
  res: http.ServerResponse,
  entry: RecordedRequest,
  { status, headers, text }: Framed,
): void {
  if (res.destroyed || res.headersSent) return;
  entry.status = status;
  res.writeHead(status, { ...headers, "Content-Length": String(Buffer.byteLength(text)) });
  res.end(text);
}

/** Sends the headers of `framed` and half its body (at least a byte), then closes the connection. */
export function sendCut(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  entry: RecordedRequest,
  framed: Framed,
): void {
  const buf = Buffer.from(framed.text);
  entry.status = framed.status;
  res.writeHead(framed.status, { ...framed.headers, "Content-Length": String(buf.length) });
  res.write(buf.subarray(0, Math.max(1, Math.floor(buf.length / 2))), () => req.socket.destroy());
}

/** Answers 500 `UNEXPECTED_ERROR` for an `error` a step threw, or closes the connection if an answer began. */
export function sendUnexpected(res: http.ServerResponse, error: unknown): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = errorBody(500, "UNEXPECTED_ERROR", `Unexpected error: ${(error as Error).message}`);
  const text = JSON.stringify(body);
  res.writeHead(500, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

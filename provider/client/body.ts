/** Response bodies: read within a byte limit, decoded by their charset, parsed as JSON or as an error. */
import type { ResponseHeaders } from "./digest-types";
import { type CallInfo, quoteSnippet } from "./errors/format";
import { ResponseShapeError } from "./errors/response-shape-error";
import { isRecord } from "./is-record";

/** Error bodies are read only this far: enough for any JSON error or the start of an HTML page. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** What an error answer's body says, every field redacted. */
export interface ErrorBody {
  errorCode?: string;
  detail?: string;
  reason?: string;
  parameters?: unknown[];
  /** The start of a body that is not a JSON object, with its media type. */
  bodySnippet?: string;
}

/** A response body as undici gives it. */
export interface BodyStream extends AsyncIterable<unknown> {
  destroy(): void;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body of `stream`, at most `limit` bytes; a huge body is never buffered. With `strict`, a body
 * that declares (`contentLength`) or turns out to be longer destroys the stream and throws
 * `tooLarge(declared)`; without, it is cut at `limit` and the rest dropped. A stream's own failure is
 * thrown as it is.
 */
export async function readLimited(
  stream: BodyStream,
  contentLength: string | string[] | undefined,
  limit: number,
  strict: boolean,
  tooLarge: (declared: number | undefined) => Error,
): Promise<Buffer> {
  const declared = Number(firstValue(contentLength));
  if (strict && Number.isFinite(declared) && declared > limit) {
    stream.destroy();
    throw tooLarge(declared);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    if (total + buffer.length > limit) {
      stream.destroy();
      if (strict) throw tooLarge(undefined);
      chunks.push(buffer.subarray(0, limit - total));
      total = limit;
      break;
    }
    chunks.push(buffer);
    total += buffer.length;
  }
  return Buffer.concat(chunks, total);
}

function decode(raw: Buffer, headers: ResponseHeaders): string {
  const type = firstValue(headers["content-type"]) ?? "";
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(type)?.[1]?.toLowerCase();
  const latin1 = charset === "iso-8859-1" || charset === "latin1" || charset === "us-ascii";
  return raw.toString(latin1 ? "latin1" : "utf8");
}

/** The fields of an error answer's body; `clean` redacts the text first, since it goes into a message. */
export function parseErrorBody(
  raw: Buffer,
  headers: ResponseHeaders,
  clean: (text: string) => string,
): ErrorBody {
  const text = clean(decode(raw, headers));
  if (text.trim() === "") return {};
  if (/^\s*[{[]/.test(text)) {
    try {
      const json: unknown = JSON.parse(text);
      if (isRecord(json)) {
        return {
          errorCode: typeof json.errorCode === "string" ? json.errorCode : undefined,
          detail: typeof json.detail === "string" ? json.detail : undefined,
          reason: typeof json.reason === "string" ? json.reason : undefined,
          parameters: Array.isArray(json.parameters) ? json.parameters : undefined,
        };
      }
    } catch {
      // Not JSON after all: quoted below.
    }
  }
  const type = firstValue(headers["content-type"])?.split(";")[0]?.trim();
  return { bodySnippet: `${type ? `${type} ` : ""}${quoteSnippet(text)}` };
}

/**
 * The parsed JSON of a 2xx answer to `call`, `undefined` for an empty body. Throws a
 * `ResponseShapeError` for a body of another media type or one that does not parse; what it quotes
 * goes through `clean`.
 */
export function parseJsonBody(
  call: CallInfo,
  status: number,
  headers: ResponseHeaders,
  raw: Buffer,
  clean: (text: string) => string,
): unknown {
  if (raw.length === 0) return undefined;
  const text = decode(raw, headers);
  if (text.trim() === "") return undefined;
  const type = firstValue(headers["content-type"])?.split(";")[0]?.trim().toLowerCase();
  if (type !== undefined && type !== "" && !/^application\/([\w.-]+\+)?json$/.test(type)) {
    throw new ResponseShapeError({
      ...call,
      status,
      description: `the body is ${type}, not JSON${type === "text/html" ? " (a proxy or login page, perhaps)" : ""}`,
      bodySnippet: quoteSnippet(clean(text)),
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? ` (${clean(error.message).slice(0, 120)})` : "";
    throw new ResponseShapeError({
      ...call,
      status,
      description: `the body is not valid JSON${why}`,
      bodySnippet: quoteSnippet(clean(text)),
    });
  }
}

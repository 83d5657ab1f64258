import { baseUrlOf, type CallInfo } from "./format";
import { RequestError } from "./request-error";

/** A body that is not what was expected, and what was wrong with it. */
export interface ResponseShapeErrorInit extends CallInfo {
  status: number;
  /** What was wrong, e.g. `the body is not valid JSON` or `the body does not match the expected schema`. */
  description: string;
  /** Individual problems, each naming the field, e.g. `results[0].id: expected string, got number`. */
  issues?: readonly string[];
  /** Up to 200 characters of the body, already quoted. */
  bodySnippet?: string;
  /** What to check, from a layer that knows which API the base URL should lead to. Default: the base URL. */
  hint?: string;
}

/**
 * The server answered, but the body is not what was expected (code `OM_ERR_RESPONSE_SHAPE`): not JSON,
 * a wrong content type (an HTML page from a proxy, say), or JSON that does not match the schema. The
 * request itself succeeded; the data was rejected.
 */
export class ResponseShapeError extends RequestError {
  readonly status: number;
  readonly description: string;
  readonly issues: readonly string[];
  readonly bodySnippet: string | undefined;
  readonly hint: string | undefined;

  constructor(init: ResponseShapeErrorInit) {
    const issues = init.issues ?? [];
    let text = `${init.method} ${init.path} answered ${init.status}, but ${init.description}`;
    if (issues.length > 0) {
      const shown = issues.slice(0, 5).join("; ");
      text += ` (${shown}${issues.length > 5 ? `; and ${issues.length - 5} more` : ""})`;
    }
    if (init.bodySnippet) text += `; the body starts with ${init.bodySnippet}`;
    text += `; ${init.hint ?? "check that the base URL points at the API this client was meant for"} (base URL: ${baseUrlOf(init)})`;
    super("OM_ERR_RESPONSE_SHAPE", text, init);
    this.name = "ResponseShapeError";
    this.status = init.status;
    this.description = init.description;
    this.issues = issues;
    this.bodySnippet = init.bodySnippet;
    this.hint = init.hint;
  }

  /** The call and what was wrong with the body, for building another error about the same answer. */
  answer(): ResponseShapeErrorInit {
    return {
      ...this.call(),
      status: this.status,
      description: this.description,
      issues: this.issues,
      bodySnippet: this.bodySnippet,
      hint: this.hint,
    };
  }

  /** The same error with `hint` as its advice. The original is left as it is (several callers may hold it). */
  withHint(hint: string): ResponseShapeError {
    const copy = new ResponseShapeError({ ...this.answer(), hint });
    if (this.attempts !== undefined) copy.noteAttempts(this.attempts, this.elapsedMs ?? 0);
    return copy;
  }
}

import { callSuffix } from "./format";
import { OpsManagerError } from "./opsmanager-error";

/** A body that is not what was expected, and what was wrong with it. */
export interface ResponseShapeErrorInit {
  method: string;
  /** Path below the API root. */
  path: string;
  /** The absolute URL; when absent the message ends with the path. */
  url?: string;
  status: number;
  /** What was wrong, e.g. `the body is not valid JSON` or `the body does not match the expected schema`. */
  description: string;
  /** Individual problems, each naming the field, e.g. `results[0].id: expected string, got number`. */
  issues?: readonly string[];
  /** Up to 200 characters of the body, already quoted. */
  bodySnippet?: string;
}

/**
 * The server answered, but the body is not what was expected (code `OM_ERR_RESPONSE_SHAPE`): not JSON,
 * a wrong content type (an HTML page from a proxy, say), or JSON that does not match the schema. The
 * request itself succeeded; the data was rejected.
 */
export class ResponseShapeError extends OpsManagerError {
  readonly method: string;
  readonly path: string;
  readonly url: string | undefined;
  readonly status: number;
  readonly description: string;
  readonly issues: readonly string[];
  readonly bodySnippet: string | undefined;

  constructor(init: ResponseShapeErrorInit) {
    const issues = init.issues ?? [];
    let text = `${init.method} ${init.path} answered ${init.status}, but ${init.description}`;
    if (issues.length > 0) {
      const shown = issues.slice(0, 5).join("; ");
      text += ` (${shown}${issues.length > 5 ? `; and ${issues.length - 5} more` : ""})`;
    }
    if (init.bodySnippet) text += `; the body starts with ${init.bodySnippet}`;
    text +=
      "; check that the base URL points at the Ops Manager API and that the server version is supported";
    text += init.url
      ? callSuffix({ method: init.method, path: init.path, url: init.url })
      : `: ${init.method} ${init.path}`;
    super("OM_ERR_RESPONSE_SHAPE", text);
    this.name = "ResponseShapeError";
    this.method = init.method;
    this.path = init.path;
    this.url = init.url;
    this.status = init.status;
    this.description = init.description;
    this.issues = issues;
    this.bodySnippet = init.bodySnippet;
  }
}

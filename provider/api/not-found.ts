import { ApiError, AuthenticationError } from "../client/errors";

/** The ids a request put in its path, by the names the API reference gives them. */
export interface PathIds {
  orgId?: string;
  apiKeyId?: string;
  groupId?: string;
  jobId?: string;
}

type IdName = keyof PathIds;

// The error table's "not found" codes, and the path parameter each one is about.
const ID_OF_CODE: Record<string, IdName> = {
  ORG_NOT_FOUND: "orgId",
  API_KEY_NOT_FOUND: "apiKeyId",
  GROUP_NOT_FOUND: "groupId",
  LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP: "jobId",
};

const WHAT: Record<IdName, string> = {
  orgId: "organization",
  apiKeyId: "API key",
  groupId: "project",
  jobId: "log collection job",
};

function named(name: IdName, ids: PathIds): string {
  return `${name} ${JSON.stringify(ids[name])}`;
}

/**
 * `error` with advice that names the id it is about, when it is a "not found" answer (404, or the error
 * table's 400 `API_KEY_NOT_FOUND`); any other error as it is.
 *
 * @example
 * // 404 ORG_NOT_FOUND — No organization with ID 5f…ee exists. (check orgId "5f…ee": the server has
 * // no organization with that id, or these credentials cannot see it)
 */
export function explainNotFound(error: unknown, ids: PathIds): unknown {
  if (!(error instanceof ApiError) || error instanceof AuthenticationError) return error;
  const about = error.errorCode === undefined ? undefined : ID_OF_CODE[error.errorCode];
  // 400 or 404 alike, as the Terraform Atlas provider takes it after its users' reports.
  const keyNotFound = about === "apiKeyId";
  if (error.status !== 404 && !keyNotFound) return error;
  if (about !== undefined && ids[about] !== undefined) {
    const where =
      about === "apiKeyId" && ids.orgId !== undefined
        ? ` in organization ${ids.orgId}`
        : about === "jobId" && ids.groupId !== undefined
          ? ` in project ${ids.groupId}`
          : "";
    const deletable = about === "apiKeyId" || about === "jobId";
    const gone = deletable ? "; it may have been deleted" : ", or these credentials cannot see it";
    return error.withHint(
      `check ${named(about, ids)}: the server has no ${WHAT[about]} with that id${where}${gone}`,
    );
  }
  const sent = (Object.keys(WHAT) as IdName[]).filter((name) => ids[name] !== undefined);
  if (sent.length === 0) return error;
  const list = sent.map((name) => named(name, ids)).join(" and ");
  return error.withHint(
    `check ${list}; if they are right, check that the base URL leads to the server's API root ` +
      "(a URL with no path gets /api/public/v1.0)",
  );
}

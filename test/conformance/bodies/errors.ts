/**
 * Error answers of the deployed server. Only two bodies are published as such (bad credentials, and
 * the Go client's own error test); the others are built from the documented error shape
 * (`{detail, error, errorCode, parameters, reason}`, NOTES.md) with the description of the error
 * table as `detail`, its placeholders filled with the ids of the request each one answers in the tests.
 */
import { DOCS_KEY_ID, DOCS_ORG_ID } from "./org-api-keys";
import { ERROR_HEADERS, type PublishedAnswer } from "./types";

const ERROR_TABLE =
  'Ops Manager documentation, page "Public API Error Codes" ' +
  "(https://www.mongodb.com/docs/ops-manager/current/reference/api-error-codes/)";

/** The project the error answers name (any 24-hex id: the tests send it). */
export const ERROR_GROUP_ID = "5e66185d917b220fbd8bb4d1";
/** A job id for the answers of a job's own endpoints. */
export const ERROR_JOB_ID = "5c810cc4ff7a256345ff97b7";
/** An address of the documentation range (RFC 5737) for the access-list error. */
export const CALLER_ADDRESS = "203.0.113.9";

/** One row of the error table, its placeholders filled, as {@link constructed} builds an answer from it. */
export interface TableRow {
  code: string;
  status: number;
  reason: string;
  /** The table's description with its placeholders filled. */
  detail: string;
  parameters: unknown[];
  note?: string;
  headers?: Record<string, string>;
}

/** The answer a row of the error table describes, in the documented error shape. */
export function constructed(row: TableRow): PublishedAnswer {
  const body = {
    detail: row.detail,
    error: row.status,
    errorCode: row.code,
    parameters: row.parameters,
    reason: row.reason,
  };
  return {
    source: `${ERROR_TABLE}, row ${row.code} (${row.status})`,
    kind: "constructed",
    note: row.note,
    status: row.status,
    headers: { ...ERROR_HEADERS, ...row.headers },
    body: JSON.stringify(body),
  };
}

/**
 * Bad credentials: a 401 with no `errorCode` at all, as deployed servers answer a digest answer they
 * refuse (NOTES.md; a public acceptance-test log of the Terraform Atlas provider shows the Atlas API
 * answering 401 with the same `detail` and reason and an empty error code).
 */
export const badCredentials: PublishedAnswer = {
  source: "NOTES.md, The deployed server, where it differs from the spec (401 without an errorCode)",
  kind: "published",
  status: 401,
  headers: ERROR_HEADERS,
  body: '{"detail":"You are not authorized for this resource.","error":401,"reason":"Unauthorized"}',
};

/** The one error body the Go clients publish: `parameters` left out, a 409. */
export const goErrorBody: PublishedAnswer = {
  source:
    "mongodb/go-client-mongodb-atlas@5efe06bc071d1945b9443c6cec17b6104211cd67, mongodbatlas/mongodbatlas_test.go, TestCheckResponse",
  kind: "published",
  note: "The Go test hands this body to a response whose status is 400; the body says 409, served here.",
  status: 409,
  headers: ERROR_HEADERS,
  body: '{"error":409, "errorCode": "GROUP_ALREADY_EXISTS", "reason":"Conflict", "detail":"A group with name \\"Test\\" already exists"}',
};

/** `API_KEY_NOT_FOUND` as the table has it: 400, to a PATCH of a key that is not there. */
export const apiKeyNotFound400 = constructed({
  code: "API_KEY_NOT_FOUND",
  status: 400,
  reason: "Bad Request",
  detail: `No API Key with ID ${DOCS_KEY_ID} exists.`,
  parameters: [DOCS_KEY_ID],
});

/** `API_KEY_NOT_FOUND` with 404, which users of the Terraform Atlas provider reported (NOTES.md). */
export const apiKeyNotFound404 = constructed({
  code: "API_KEY_NOT_FOUND",
  status: 404,
  reason: "Not Found",
  detail: `No API Key with ID ${DOCS_KEY_ID} exists.`,
  parameters: [DOCS_KEY_ID],
  note: "The table says 400; NOTES.md says servers also answer 404 with this code.",
});

export const userUnauthorized = constructed({
  code: "USER_UNAUTHORIZED",
  status: 401,
  reason: "Unauthorized",
  detail: "Current user is not authorized to perform this action.",
  parameters: [],
});

export const notOrgAdmin = constructed({
  code: "NOT_ORG_ADMIN",
  status: 401,
  reason: "Unauthorized",
  detail: `The currently logged in user does not have the administrator role in organization ${DOCS_ORG_ID}.`,
  parameters: [DOCS_ORG_ID],
});

export const notInGroup = constructed({
  code: "NOT_IN_GROUP",
  status: 401,
  reason: "Unauthorized",
  detail: "The current user is not in the group, or the group does not exist.",
  parameters: [],
});

export const ipAddressNotOnAccessList = constructed({
  code: "IP_ADDRESS_NOT_ON_ACCESS_LIST",
  status: 403,
  reason: "Forbidden",
  detail: `IP address ${CALLER_ADDRESS} is not allowed to access this resource.`,
  parameters: [CALLER_ADDRESS],
  note: "The description is the row's from before 5.0, when the code was IP_ADDRESS_NOT_ON_WHITELIST.",
});

const rateLimitedRow = {
  code: "RATE_LIMITED",
  status: 429,
  reason: "Too Many Requests",
  detail: `Resource /api/public/v1.0/orgs/${DOCS_ORG_ID}/apiKeys is limited to 100 requests every 1 minutes.`,
  parameters: [`/api/public/v1.0/orgs/${DOCS_ORG_ID}/apiKeys`, 100, 1],
};

/** `RATE_LIMITED` as the table documents it: no `Retry-After`. */
export const rateLimited = constructed({
  ...rateLimitedRow,
  note: "The resource and the numbers filling the placeholders are examples.",
});

/** `RATE_LIMITED` with a `Retry-After` of 1 s (NOTES.md: servers send one), short for the tests. */
export const rateLimitedRetryAfter = constructed({
  ...rateLimitedRow,
  headers: { "retry-after": "1" },
  note: "The resource and the numbers filling the placeholders are examples; Retry-After chosen short.",
});

/**
 * `INVALID_ENUM_VALUE` to a create that sent the log type `DATABASE`. Hypothetical: no source says
 * a server refuses `DATABASE` (NOTES.md: not documented either way); this is what a user would meet
 * if one did.
 */
export const invalidEnumValue = constructed({
  code: "INVALID_ENUM_VALUE",
  status: 400,
  reason: "Bad Request",
  detail: "An invalid enumeration value DATABASE was specified.",
  parameters: ["DATABASE"],
  note: "The value filling the placeholder is hypothetical (see the TSDoc).",
});

export const groupNotFound = constructed({
  code: "GROUP_NOT_FOUND",
  status: 404,
  reason: "Not Found",
  detail: `No group with ID ${ERROR_GROUP_ID} exists.`,
  parameters: [ERROR_GROUP_ID],
});

export const orgNotFound = constructed({
  code: "ORG_NOT_FOUND",
  status: 404,
  reason: "Not Found",
  detail: `No organization with ID ${DOCS_ORG_ID} exists.`,
  parameters: [DOCS_ORG_ID],
});

export const invalidLogRequestSize = constructed({
  code: "INVALID_LOG_REQUEST_SIZE",
  status: 400,
  reason: "Bad Request",
  detail: "Log request size must be a positive number.",
  parameters: [],
});

/** To `PATCH /groups/{GROUP-ID}/logCollectionJobs/{JOB-ID}` (extend) with a date too far ahead. */
export const expirationDateTooDistant = constructed({
  code: "EXPIRATION_DATE_TOO_DISTANT",
  status: 400,
  reason: "Bad Request",
  detail: "Expiration date for log collection request job can only be as far as 6 months in the future.",
  parameters: [],
});

/** To an extension with a date that has passed. */
export const expirationDateMustBeInFuture = constructed({
  code: "EXPIRATION_DATE_MUST_BE_IN_FUTURE",
  status: 400,
  reason: "Bad Request",
  detail: "Expiration date for log collection request job must be in the future.",
  parameters: [],
});

/** To an extension of a job that has expired. */
export const cannotExtendExpiredJob = constructed({
  code: "CANNOT_EXTEND_EXPIRED_JOB",
  status: 403,
  reason: "Forbidden",
  detail: "Cannot extend duration of logs that have already expired.",
  parameters: [],
});

/** To any request about a job the project does not have (a delete of a job deleted already, say). */
export const logCollectionJobNotFoundInGroup = constructed({
  code: "LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP",
  status: 404,
  reason: "Not Found",
  detail: `No log collection job with ID ${ERROR_JOB_ID} exists in group ${ERROR_GROUP_ID}.`,
  parameters: [ERROR_JOB_ID, ERROR_GROUP_ID],
  note: "The description is the table's newer one, with its two placeholders; an older table has 'No job with the given ID exists in this group.'",
});

/** To `GET /groups/{GROUP-ID}/logCollectionJobs/{JOB-ID}/download`, which the provider does not send. */
export const cannotDownloadExpiredJob = constructed({
  code: "CANNOT_DOWNLOAD_EXPIRED_JOB",
  status: 403,
  reason: "Forbidden",
  detail: "Cannot download a log collection request job in the EXPIRED state.",
  parameters: [],
});

import { ApiError, type ApiErrorInit } from "../client/errors";

/** The operations of this API layer, and the ids they act on. */
export type Operation =
  | { kind: "listOrgApiKeys"; orgId: string }
  | { kind: "updateOrgApiKey"; orgId: string }
  | { kind: "createOrgApiKey"; orgId: string }
  | { kind: "deleteOrgApiKey"; orgId: string }
  | { kind: "apiKeyAccessList"; orgId: string }
  | { kind: "createLogCollectionJob"; groupId: string }
  | { kind: "listLogCollectionJobs"; groupId: string }
  | { kind: "extendLogCollectionJob"; groupId: string }
  | { kind: "deleteLogCollectionJob"; groupId: string }
  | { kind: "listProjectApiKeys"; groupId: string }
  | { kind: "assignProjectApiKey"; groupId: string }
  | { kind: "unassignProjectApiKey"; groupId: string };

const JOB_WORK = {
  createLogCollectionJob: "creating a log collection job",
  listLogCollectionJobs: "reading a project's log collection jobs",
  extendLogCollectionJob: "extending a log collection job",
  deleteLogCollectionJob: "deleting a log collection job",
} as const;

// Roles per operation, from the Ops Manager API documentation's pages "Organization Programmatic API
// Keys", "Log Collection Jobs" and "Project API Keys".
function describe(operation: Operation): { what: string; needs: string } {
  switch (operation.kind) {
    case "listOrgApiKeys":
      return {
        what: "listing an organization's API keys",
        needs: `a role in organization ${operation.orgId} (any organization role, such as Organization Read Only)`,
      };
    case "createOrgApiKey":
    case "deleteOrgApiKey":
      return {
        what: `${operation.kind === "createOrgApiKey" ? "creating" : "deleting"} an organization API key`,
        needs: `the Organization Owner (ORG_OWNER) or Organization User Admin role in organization ${operation.orgId}`,
      };
    case "updateOrgApiKey":
      return {
        what: "updating an organization API key",
        needs: `the Organization Owner (ORG_OWNER) or Organization User Admin role in organization ${operation.orgId}`,
      };
    case "listProjectApiKeys":
      return {
        what: "listing a project's API keys",
        needs: `a role in project ${operation.groupId} (any project role, such as Project Read Only)`,
      };
    case "assignProjectApiKey":
    case "unassignProjectApiKey":
      return {
        what:
          operation.kind === "assignProjectApiKey"
            ? "assigning an API key to a project or setting its roles there"
            : "unassigning an API key from a project",
        needs: `the Project Owner (GROUP_OWNER) or Project User Admin (GROUP_USER_ADMIN) role in project ${operation.groupId}, or Organization Owner`,
      };
    case "apiKeyAccessList":
      return {
        what: "reading or changing an API key's access list",
        needs: `the Organization Owner (ORG_OWNER) role in organization ${operation.orgId}, or to be that API key`,
      };
    case "createLogCollectionJob":
    case "listLogCollectionJobs":
    case "extendLogCollectionJob":
    case "deleteLogCollectionJob":
      return {
        what: JOB_WORK[operation.kind],
        needs:
          `a role in project ${operation.groupId} that allows log collection: Project Automation Admin ` +
          "(GROUP_AUTOMATION_ADMIN), Project Backup Admin (GROUP_BACKUP_ADMIN) or Project Monitoring Admin " +
          "(GROUP_MONITORING_ADMIN), or Project Owner (GROUP_OWNER)",
      };
  }
}

/**
 * The server took the credentials but not this call (code `OM_ERR_FORBIDDEN`): a 401 with an `errorCode`
 * (`USER_UNAUTHORIZED`, `NOT_ORG_ADMIN`, …), which deployed servers answer to valid credentials without
 * the role the operation needs; bad credentials get one without, an `AuthenticationError`.
 *
 * @example
 * `PATCH /orgs/5f1…/apiKeys/5f2… failed: 401 USER_UNAUTHORIZED — Current user is not authorized to perform this action. (the credentials were accepted, but updating an organization API key needs the Organization Owner (ORG_OWNER) or Organization User Admin role in organization 5f1…; give the API key that role, or configure a key that has it)`
 */
export class AuthorizationError extends ApiError {
  /** What was being done, e.g. `updating an organization API key`. */
  readonly operation: string;
  /** The role (or roles) the documentation says the operation needs. */
  readonly requiredRole: string;

  /** The operation as it was given, so that a copy ({@link ApiError.withHint}) stays this class. */
  private readonly given: Operation;

  /** `hint` replaces the role advice, for a copy that says something else (`withHint`). */
  constructor(cause: ApiError, operation: Operation, hint?: string) {
    const { what, needs } = describe(operation);
    super(
      {
        ...cause.answer(),
        hint:
          hint ??
          `the credentials were accepted, but ${what} needs ${needs}; give the API key that role, or ` +
            "configure a key that has it",
      },
      "OM_ERR_FORBIDDEN",
    );
    // The retries that ended in the refusal are the cause's: say them as it did.
    if (cause.attempts !== undefined) this.noteAttempts(cause.attempts, cause.elapsedMs ?? 0);
    this.name = "AuthorizationError";
    this.operation = what;
    this.requiredRole = needs;
    this.given = operation;
  }

  protected override rebuild(init: ApiErrorInit): ApiError {
    return new AuthorizationError(new ApiError(init), this.given, init.hint);
  }
}

/** `error` as an {@link AuthorizationError} when it is a 401 with an `errorCode`; any other as it is. */
export function explainAuthorization(error: unknown, operation: Operation): unknown {
  if (error instanceof ApiError && error.status === 401 && error.errorCode !== undefined) {
    return new AuthorizationError(error, operation);
  }
  return error;
}

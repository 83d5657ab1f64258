/**
 * Which caller may call which operation, as the deployed server decides it (the `deployed` profile).
 * A caller whose roles do not allow the call gets 401 with an `errorCode`, as deployed servers answer
 * valid credentials without the role (NOTES.md); bad credentials get 401 without one (./digest).
 *
 * Roles per operation, from the Ops Manager API documentation: listing an organization's API keys or
 * reading one needs any role in the organization; creating, updating or deleting one needs Organization
 * Owner (or Organization User Admin, a role the simulator does not model); a key's access list is open
 * to the key itself and to Organization Owners, anyone else gets the error table's 400
 * `API_KEY_ACCESS_LIST_ACCESS_DENIED`; listing a project's keys needs a role in the project, assigning
 * or unassigning one needs Project Owner (or Project User Admin); and log collection needs a project
 * role such as Project Automation Admin, Backup Admin or Monitoring Admin. An Organization Owner holds Project Owner
 * in every project of its organization, and every project of the simulator belongs to its seeded
 * organization. The seeded admin key may call everything in every organization and project the
 * simulator holds, so that tests can arrange any org without granting roles first.
 */
import type { SimState } from "./state";
import type { SimApiKey } from "./types";

/** Project roles that allow log collection: creating, reading, extending or deleting a job. */
export const LOG_COLLECTION_ROLES: readonly string[] = [
  "GROUP_OWNER",
  "GROUP_AUTOMATION_ADMIN",
  "GROUP_BACKUP_ADMIN",
  "GROUP_MONITORING_ADMIN",
];

/** Project roles that may assign an organization key to the project, change its roles there, or unassign it. */
export const KEY_ASSIGNMENT_ROLES: readonly string[] = ["GROUP_OWNER", "GROUP_USER_ADMIN"];

/** An operation, and the organization or project it acts in. */
export type Operation =
  | { kind: "listApiKeys"; orgId: string }
  | { kind: "getApiKey"; orgId: string }
  | { kind: "createApiKey"; orgId: string }
  | { kind: "patchApiKey"; orgId: string }
  | { kind: "deleteApiKey"; orgId: string }
  | { kind: "apiKeyAccessList"; orgId: string; keyId: string }
  | { kind: "listProjectApiKeys"; groupId: string }
  | { kind: "assignProjectApiKey"; groupId: string }
  | { kind: "logCollectionJobs"; groupId: string };

/** Why the call is refused: the error body's `errorCode` and `detail`, and its status when not 401. */
export interface Refusal {
  errorCode: string;
  detail: string;
  status?: number;
}

const UNAUTHORIZED: Refusal = {
  errorCode: "USER_UNAUTHORIZED",
  detail: "Current user is not authorized to perform this action.",
};
const NOT_IN_GROUP: Refusal = {
  errorCode: "NOT_IN_GROUP",
  detail: "Current user is not in the group, or the group does not exist.",
};

const ACCESS_LIST_DENIED: Refusal = {
  errorCode: "API_KEY_ACCESS_LIST_ACCESS_DENIED",
  detail: "API Key access lists are only accessible by the API Key or by a user administrator.",
  status: 400,
};

function inGroup(key: SimApiKey, state: SimState, groupId: string, roleNames?: readonly string[]) {
  if (hasOrgRole(key, state.orgId, "ORG_OWNER")) return undefined;
  const roles = key.roles.filter((r) => r.groupId === groupId);
  if (roles.length === 0) return NOT_IN_GROUP;
  if (roleNames === undefined) return undefined;
  return roles.some((r) => roleNames.includes(r.roleName)) ? undefined : UNAUTHORIZED;
}

function hasOrgRole(key: SimApiKey, orgId: string, roleName?: string): boolean {
  return key.roles.some((r) => r.orgId === orgId && (roleName === undefined || r.roleName === roleName));
}

/** The refusal `caller` (a public key) gets for `operation`, or `undefined` when it may call it. */
export function refusal(state: SimState, caller: string, operation: Operation): Refusal | undefined {
  const key = state.apiKeyByPublicKey(caller);
  if (key === undefined || key.id === state.adminKeyId) return undefined;
  switch (operation.kind) {
    case "listApiKeys":
    case "getApiKey":
      return hasOrgRole(key, operation.orgId) ? undefined : UNAUTHORIZED;
    case "createApiKey":
    case "patchApiKey":
    case "deleteApiKey":
      return hasOrgRole(key, operation.orgId, "ORG_OWNER") ? undefined : UNAUTHORIZED;
    case "apiKeyAccessList":
      return key.id === operation.keyId || hasOrgRole(key, operation.orgId, "ORG_OWNER")
        ? undefined
        : ACCESS_LIST_DENIED;
    case "listProjectApiKeys":
      return inGroup(key, state, operation.groupId);
    case "assignProjectApiKey":
      return inGroup(key, state, operation.groupId, KEY_ASSIGNMENT_ROLES);
    case "logCollectionJobs":
      return inGroup(key, state, operation.groupId, LOG_COLLECTION_ROLES);
  }
}

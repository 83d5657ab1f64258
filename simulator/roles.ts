/**
 * Which caller may call which operation, as the deployed server decides it (the `deployed` profile).
 * A caller whose roles do not allow the call gets 401 with an `errorCode`, as deployed servers answer
 * valid credentials without the role (NOTES.md); bad credentials get 401 without one (./digest).
 *
 * Roles per operation, from the Ops Manager API documentation: listing an organization's API keys
 * needs any role in the organization, updating one needs Organization Owner (or Organization User
 * Admin, a role the simulator does not model), and log collection needs a project role such as
 * Project Automation Admin, Backup Admin or Monitoring Admin. An Organization Owner holds Project Owner
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

/** An operation, and the organization or project it acts in. */
export type Operation =
  | { kind: "listApiKeys"; orgId: string }
  | { kind: "patchApiKey"; orgId: string }
  | { kind: "logCollectionJobs"; groupId: string };

/** Why the call is refused: the error body's `errorCode` and `detail`. */
export interface Refusal {
  errorCode: string;
  detail: string;
}

const UNAUTHORIZED: Refusal = {
  errorCode: "USER_UNAUTHORIZED",
  detail: "Current user is not authorized to perform this action.",
};
const NOT_IN_GROUP: Refusal = {
  errorCode: "NOT_IN_GROUP",
  detail: "Current user is not in the group, or the group does not exist.",
};

function hasOrgRole(key: SimApiKey, orgId: string, roleName?: string): boolean {
  return key.roles.some((r) => r.orgId === orgId && (roleName === undefined || r.roleName === roleName));
}

/** The refusal `caller` (a public key) gets for `operation`, or `undefined` when it may call it. */
export function refusal(state: SimState, caller: string, operation: Operation): Refusal | undefined {
  const key = state.apiKeyByPublicKey(caller);
  if (key === undefined || key.id === state.adminKeyId) return undefined;
  switch (operation.kind) {
    case "listApiKeys":
      return hasOrgRole(key, operation.orgId) ? undefined : UNAUTHORIZED;
    case "patchApiKey":
      return hasOrgRole(key, operation.orgId, "ORG_OWNER") ? undefined : UNAUTHORIZED;
    case "logCollectionJobs": {
      if (hasOrgRole(key, state.orgId, "ORG_OWNER")) return undefined;
      const inGroup = key.roles.filter((r) => r.groupId === operation.groupId);
      if (inGroup.length === 0) return NOT_IN_GROUP;
      return inGroup.some((r) => LOG_COLLECTION_ROLES.includes(r.roleName)) ? undefined : UNAUTHORIZED;
    }
  }
}

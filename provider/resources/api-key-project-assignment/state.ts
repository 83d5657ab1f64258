/**
 * ApiKeyProjectAssignment's state as every version wrote it, brought to today's shape in one place:
 * each method that reads state starts with {@link upgradeAssignmentState}, which applies
 * {@link ASSIGNMENT_STATE}'s steps from the version the state was written at
 * (../shared/state-version.ts).
 */
import type { GroupRole } from "../../api/types";
import {
  type StateReader,
  type StateUpgrade,
  type StoredVersion,
  upgradeState,
} from "../shared/state-version";
import type { ApiKeyProjectAssignmentProviderOutputs } from "./types";

const text = (value: unknown) => (typeof value === "string" ? value : "");
const texts = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** The resource's id: the project, then the key, as `{GROUP-ID}/{API-KEY-ID}`. */
export function assignmentId(groupId: string, apiKeyId: string): string {
  return `${groupId}/${apiKeyId}`;
}

/** The project and key an id names (`Resource.get` gives an id and no state), or empty strings. */
export function idParts(id: string): { groupId: string; apiKeyId: string } {
  const [groupId = "", apiKeyId = "", ...rest] = id.split("/");
  return rest.length === 0 ? { groupId, apiKeyId } : { groupId: "", apiKeyId: "" };
}

/**
 * Version 0 to 1: state written before versions, by any earlier version, read by which fields are
 * present. The project and key from the state, else from the id (`Resource.get` gives no state); a
 * missing list as empty, roles as a set; a missing `restoreOnDelete` as false; a missing `previous` as
 * not recorded, so that delete puts nothing back on a guess.
 */
function fromVersion0(
  olds: Partial<ApiKeyProjectAssignmentProviderOutputs>,
  id: string,
): ApiKeyProjectAssignmentProviderOutputs {
  const fromId = idParts(id);
  const previous = olds.previous;
  const recorded = previous?.recorded === true;
  const state: ApiKeyProjectAssignmentProviderOutputs = {
    apiKeyId: text(olds.apiKeyId) || fromId.apiKeyId,
    groupId: text(olds.groupId) || fromId.groupId,
    roles: [...new Set(texts(olds.roles))].sort() as GroupRole[],
    restoreOnDelete: olds.restoreOnDelete === true,
    previous: { recorded, roles: recorded ? [...new Set(texts(previous?.roles))].sort() : [] },
  };
  // Named servers came later: state without one is on the default server.
  if (typeof olds.server === "string") state.server = olds.server;
  return state;
}

/**
 * ApiKeyProjectAssignment's state versions: `steps[v]` takes version v to v + 1, and version 1 is
 * today's {@link ApiKeyProjectAssignmentProviderOutputs}.
 */
export const ASSIGNMENT_STATE: StateUpgrade<ApiKeyProjectAssignmentProviderOutputs> = {
  resource: "ApiKeyProjectAssignment",
  steps: [fromVersion0],
};

/**
 * Any ApiKeyProjectAssignment state in today's shape, from the version it was written at; `method`
 * (with the assignment's id, `{GROUP-ID}/{API-KEY-ID}`) is named in the error for a version newer than
 * this code knows.
 */
export function upgradeAssignmentState(
  olds: Partial<ApiKeyProjectAssignmentProviderOutputs> & StoredVersion,
  id: string,
  method: StateReader,
): ApiKeyProjectAssignmentProviderOutputs {
  return upgradeState(ASSIGNMENT_STATE, olds, id, method);
}

/**
 * ApiKeyProjectAssignment's state as every version wrote it, brought to today's shape in one place:
 * each method that reads state starts with {@link upgradeAssignmentState}, so a field added later gets
 * its default here.
 */
import type { GroupRole } from "../../api/types";
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
 * Any ApiKeyProjectAssignment state in today's shape: the project and key from the state, else from
 * the id; a missing list as empty, roles as a set; a missing `restoreOnDelete` as false; a missing
 * `previous` as not recorded, so that delete puts nothing back on a guess.
 */
export function upgradeAssignmentState(
  olds: Partial<ApiKeyProjectAssignmentProviderOutputs>,
  id = "",
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

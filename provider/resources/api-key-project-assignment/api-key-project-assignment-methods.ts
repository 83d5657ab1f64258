/**
 * ApiKeyProjectAssignment's provider methods, as the dynamic-provider host calls them. Loaded in the
 * host by `pulumi-opsmanager/host`, never captured by a serialized provider.
 */
import { isApiKeyGone } from "../../api/api-key-gone";
import { hex24Rule } from "../../api/ids";
import { assignProjectApiKey, unassignProjectApiKey } from "../../api/project-api-keys";
import { isProjectGone } from "../../api/project-gone";
import type { GroupRole } from "../../api/types";
import { asDynamicDiff, type FieldDiff } from "../shared/field-diff";
import { inContext } from "../shared/in-context";
import { linkedKeyId } from "../shared/preview-links";
import {
  carriedOriginal,
  managedHere,
  managedName,
  noteManagedHere,
  recordLostToReplacement,
  rememberOriginal,
  warnRecordLost,
} from "../shared/replacement";
import { ResourceError } from "../shared/resource-error";
import { currentClient, whenConfigured } from "../shared/runtime";
import {
  checkResource,
  clientIn,
  onServer,
  serverChanged,
  serverDiff,
  serverField,
} from "../shared/server-input";
import { isUnknown } from "../shared/validate";
import { warn } from "../shared/warn";
import { checkAssignmentInputs, roleSet, sameRoles } from "./api-key-project-assignment-inputs";
import { findAssignment, rememberAssignment } from "./project-key-cache";
import { assignmentId, upgradeAssignmentState } from "./state";
import type {
  ApiKeyProjectAssignmentProviderInputs,
  ApiKeyProjectAssignmentProviderOutputs,
  PreviousAssignment,
} from "./types";

const where = (s: { apiKeyId: string; groupId: string; server?: string }) =>
  `ApiKeyProjectAssignment (API key ${s.apiKeyId} in project ${s.groupId}${onServer(s.server)})`;

/** The assignment as the replacement rule (../shared/replacement.ts) names it. */
const assignmentName = (s: { apiKeyId: string; groupId: string; server?: string }) =>
  managedName(s.server, `assignment ${s.groupId}/${s.apiKeyId}`);

/** The roles a state recorded as the key's before this program assigned it: a replacement carries them. */
function rememberPrevious(state: ApiKeyProjectAssignmentProviderOutputs): void {
  if (state.previous.recorded) rememberOriginal(assignmentName(state), state.previous.roles);
}

function outputsOf(
  inputs: ApiKeyProjectAssignmentProviderInputs,
  roles: readonly string[],
  previous: PreviousAssignment,
): ApiKeyProjectAssignmentProviderOutputs {
  return {
    apiKeyId: inputs.apiKeyId,
    groupId: inputs.groupId,
    // The server's names as it lists them: a role a newer server adds passes through.
    roles: roleSet(roles) as GroupRole[],
    restoreOnDelete: inputs.restoreOnDelete ?? false,
    previous,
    ...serverField(inputs),
  };
}

/** One PATCH setting the key's whole set of roles in the project; the shared listing learns it. */
async function setRoles(
  server: string | undefined,
  groupId: string,
  apiKeyId: string,
  roles: readonly string[],
): Promise<void> {
  const client = currentClient(server);
  const set = roleSet(roles);
  await assignProjectApiKey(client, groupId, apiKeyId, set as GroupRole[]);
  rememberAssignment(client, groupId, apiKeyId, set);
}

/**
 * Whether an `apiKeyId` not known yet, in a dynamic preview, is the id the assignment has: the key it
 * comes from was diffed in this deployment as keeping that id (../shared/preview-links.ts). When no key
 * says, the preview shows a replacement that `up` makes only if the id changes, and a warning says so.
 */
function keepsKeyId(
  news: ApiKeyProjectAssignmentProviderInputs,
  state: { apiKeyId: string; groupId: string },
) {
  if (!isUnknown(news.apiKeyId)) return false;
  const link = linkedKeyId(news, state.apiKeyId);
  if (link === "unlinked") {
    warn(
      `${where(state)}: this preview cannot tell whether apiKeyId changes (it comes from a value not known before \`pulumi up\`, ` +
        "not from an OrgApiKey's own apiKeyId output that this preview diffed), so it shows a replacement; `pulumi up` replaces " +
        "the assignment only if the id it gets differs.",
    );
  }
  return link === "same";
}

/** `check`: one failure per bad input, naming the rule; values not known yet pass. */
export function check(_olds: object, news: object) {
  return checkResource<ApiKeyProjectAssignmentProviderInputs>(news, checkAssignmentInputs);
}

/**
 * The diff against the state, field by field: another key or project is a replacement (the new assignment first, then
 * the old one taken away, so that a key rotated through `keepers` keeps its access until the old key
 * goes); roles (as a set) and `restoreOnDelete` are updates.
 */
export async function fieldDiff(
  id: string,
  olds: Partial<ApiKeyProjectAssignmentProviderOutputs>,
  news: ApiKeyProjectAssignmentProviderInputs,
): Promise<FieldDiff> {
  // Whether another name reaches the same server is read from the stack config.
  await whenConfigured();
  const state = upgradeAssignmentState(olds, id, "diff");
  rememberPrevious(state);
  const changed = (value: unknown, old: unknown) => isUnknown(value) || value !== old;
  const replaces: string[] = [];
  const server = serverDiff(news, state);
  if (server.replace) replaces.push("server");
  if (changed(news.groupId, state.groupId)) replaces.push("groupId");
  if (changed(news.apiKeyId, state.apiKeyId) && !keepsKeyId(news, state)) replaces.push("apiKeyId");
  const rolesDiffer = isUnknown(news.roles) || !sameRoles(news.roles ?? [], state.roles);
  const restoreDiffers =
    isUnknown(news.restoreOnDelete) || (news.restoreOnDelete ?? false) !== state.restoreOnDelete;
  const updates = [
    ...(rolesDiffer ? ["roles"] : []),
    ...(restoreDiffers ? ["restoreOnDelete"] : []),
    ...(server.rename ? ["server"] : []),
  ];
  return { replaces, updates, deleteBeforeReplace: false };
}

/** `diff` as the dynamic host takes it: {@link fieldDiff} without the fields. */
export async function diff(
  id: string,
  olds: Partial<ApiKeyProjectAssignmentProviderOutputs>,
  news: ApiKeyProjectAssignmentProviderInputs,
) {
  return asDynamicDiff(await fieldDiff(id, olds, news));
}

/**
 * `create`: one PATCH with the declared roles, which assigns the key or sets the roles of an
 * assignment that exists. With `restoreOnDelete`, the project's shared listing is read first to record
 * what the key had there (nothing: it was not assigned), which delete puts back.
 */
export async function create(inputs: ApiKeyProjectAssignmentProviderInputs) {
  await whenConfigured();
  let previous: PreviousAssignment = { recorded: false, roles: [] };
  let carried = true;
  try {
    if (inputs.restoreOnDelete === true) {
      // An older resource of this assignment, seen in this process, recorded what was there before.
      const older = carriedOriginal<string[]>(assignmentName(inputs));
      carried = older !== undefined;
      const before =
        older ?? (await findAssignment(currentClient(inputs.server), inputs.groupId, inputs.apiKeyId));
      previous = { recorded: true, roles: before ?? [] };
    }
    await setRoles(inputs.server, inputs.groupId, inputs.apiKeyId, inputs.roles);
    noteManagedHere(assignmentName(inputs), carried);
  } catch (error) {
    const advice = isApiKeyGone(error)
      ? " The key must be an API key of the project's organization: check apiKeyId (a key created in the same program is passed as key.apiKeyId)."
      : "";
    throw inContext(where(inputs), error, advice);
  }
  return {
    id: assignmentId(inputs.groupId, inputs.apiKeyId),
    outs: outputsOf(inputs, inputs.roles, previous),
  };
}

/**
 * `read` (refresh): the key's roles in the project as its shared listing shows them now. An
 * assignment the listing lacks (twice, as a key missing from the org's listing) leaves the stack.
 */
export async function read(id: string, olds: Partial<ApiKeyProjectAssignmentProviderOutputs> = {}) {
  await whenConfigured();
  const state = upgradeAssignmentState(olds, id, "read");
  rememberPrevious(state);
  if (hex24Rule(state.groupId) !== undefined || hex24Rule(state.apiKeyId) !== undefined) {
    throw new ResourceError(
      `ApiKeyProjectAssignment ${id}: reading an assignment needs its groupId and apiKeyId (24 hexadecimal digits each), in the state or as the id {groupId}/{apiKeyId}.`,
    );
  }
  try {
    const roles = await findAssignment(currentClient(state.server), state.groupId, state.apiKeyId);
    if (roles === undefined) return { id: "", props: {} };
    const props = { ...state, roles: roles as GroupRole[] };
    const inputs: ApiKeyProjectAssignmentProviderInputs = {
      apiKeyId: state.apiKeyId,
      groupId: state.groupId,
      roles: roles as GroupRole[],
      ...serverField(state),
    };
    if (state.restoreOnDelete) inputs.restoreOnDelete = true;
    // Returning inputs too makes a preview after refresh show roles changed by hand as drift, the
    // server's roles going back to the declared ones (pulumi/pulumi#21315).
    return { id: assignmentId(state.groupId, state.apiKeyId), props, inputs };
  } catch (error) {
    throw inContext(where(state), error);
  }
}

/**
 * `update`: one PATCH with the whole set of roles when they differ from the state's (drift found by
 * refresh included), else no request. `restoreOnDelete` changes no request: what it puts back was
 * recorded at create (set only later, nothing was, and delete takes the assignment away).
 */
export async function update(
  id: string,
  olds: Partial<ApiKeyProjectAssignmentProviderOutputs>,
  news: ApiKeyProjectAssignmentProviderInputs,
) {
  await whenConfigured();
  const state = upgradeAssignmentState(olds, id, "update");
  rememberPrevious(state);
  if (news.groupId !== state.groupId || news.apiKeyId !== state.apiKeyId || serverChanged(news, state)) {
    throw new ResourceError(
      `${where(state)} cannot move to another key, project or server in place; it must be replaced.`,
    );
  }
  let roles = state.roles;
  if (!sameRoles(news.roles, state.roles)) {
    try {
      await setRoles(state.server, news.groupId, news.apiKeyId, news.roles);
    } catch (error) {
      const gone = isApiKeyGone(error)
        ? " The key may have been deleted outside Pulumi: run `pulumi refresh` to drop the assignment from the stack."
        : "";
      throw inContext(where(news), error, gone);
    }
    roles = roleSet(news.roles) as GroupRole[];
  }
  return { outs: outputsOf(news, roles, state.previous) };
}

/**
 * `delete`: one DELETE taking the key out of the project; with `restoreOnDelete` and roles recorded at
 * create, one PATCH putting them back instead. A key or assignment already gone, or a project that no
 * longer exists, leaves nothing to do; nor does an assignment this deployment created anew for the same
 * key and project (the resource's replacement, which Pulumi creates before it deletes the old one).
 */
export async function remove(
  id: string,
  olds: Partial<ApiKeyProjectAssignmentProviderOutputs>,
): Promise<void> {
  await whenConfigured();
  const state = upgradeAssignmentState(olds, id, "delete");
  rememberPrevious(state);
  const client = clientIn(`deleting ${where(state)}`, state.server);
  if (managedHere(assignmentName(state))) {
    // Renamed without an alias: the roles this resource would put back are lost with its record.
    const lost =
      state.restoreOnDelete && state.previous.recorded && recordLostToReplacement(assignmentName(state));
    if (lost && !sameRoles(state.previous.roles, state.roles)) {
      const roles =
        state.previous.roles.length > 0
          ? `roles ${[...state.previous.roles].sort().join(", ")}`
          : "no roles (it was not assigned)";
      warnRecordLost(`ApiKeyProjectAssignment (${where(state)})`, "assignment", roles);
    }
    return;
  }
  const restore = state.restoreOnDelete && state.previous.recorded && state.previous.roles.length > 0;
  try {
    if (restore) {
      await setRoles(state.server, state.groupId, state.apiKeyId, state.previous.roles);
      return;
    }
    await unassignProjectApiKey(client, state.groupId, state.apiKeyId);
    rememberAssignment(client, state.groupId, state.apiKeyId, []);
  } catch (error) {
    if (isApiKeyGone(error) || isProjectGone(error)) {
      rememberAssignment(client, state.groupId, state.apiKeyId, []);
      return;
    }
    throw inContext(`${restore ? "restoring" : "deleting"} ${where(state)}`, error);
  }
}

/**
 * OrgApiKey's `delete`: a created key is deleted; an adopted key stays on the server, and with
 * `restoreOnDelete` gets back what it had before Pulumi managed it.
 */
import { isApiKeyGone } from "../../api/api-key-gone";
import type { ApiKeyChange } from "../../api/api-keys";
import type { OrgRole } from "../../api/schemas";
import { managedHere, recordLostToReplacement, warnRecordLost } from "../shared/replacement";
import { currentClient, whenConfigured } from "../shared/runtime";
import { restoreAccessList } from "./access-list";
import { deleteCreatedKey } from "./create-key";
import { isCreatedState } from "./created-mode";
import { keyName, rememberAdopted } from "./deployment-keys";
import { describeKey, keyInState, patch, withContext } from "./key-calls";
import { sameSet } from "./org-api-key-inputs";
import { deletePending, isPending } from "./pending-create";
import { type KeyState, managedFor, upgradeKeyState } from "./state";
import type { OrgApiKeyProviderOutputs } from "./types";

/**
 * `delete`: a created key is deleted (./create-key.ts); an adopted key stays on the server and leaves
 * the stack. With `restoreOnDelete`, its managed access list, then the desc and roles it manages now
 * (per the state), go back to what they were before Pulumi managed them; a field it no longer manages
 * is left as it is.
 */
export async function remove(id: string, olds: OrgApiKeyProviderOutputs): Promise<void> {
  const state = upgradeKeyState(olds, id, "delete");
  await whenConfigured();
  if (isPending(state)) return deletePending(state);
  rememberAdopted(state);
  // A replacement created in this process manages the key now: undoing it here would leave the server
  // unlike what it declares (a restore), or take its key away (a delete).
  if (managedHere(keyName(state.server, id))) return warnIfRecordLost(state, id);
  if (isCreatedState(state)) return deleteCreatedKey(state);
  if (!state.restoreOnDelete) return;
  try {
    await restoreAccessList(currentClient(state.server), state.orgId, id, state);
  } catch (error) {
    if (!isApiKeyGone(error))
      throw withContext(error, `restoring ${describeKey(state.orgId, { id }, state.server)}`);
  }
  const managed = managedFor(state);
  const change: ApiKeyChange = {};
  if (managed.desc && state.adopted.desc !== "") change.desc = state.adopted.desc;
  if (managed.roles && state.adopted.roles.length > 0) change.roles = state.adopted.roles as OrgRole[];
  if (change.desc === undefined && change.roles === undefined) return;
  try {
    await patch(state.server, state.orgId, keyInState(state), change);
  } catch (error) {
    if (isApiKeyGone(error)) return;
    throw withContext(error, `restoring ${describeKey(state.orgId, { id }, state.server)}`);
  }
}

/**
 * The delete of an adopted key with `restoreOnDelete` that a resource of this run replaced without
 * carrying its record (a rename without an alias): the values it would have put back are named in a
 * warning, when they differ from what the key has now.
 */
function warnIfRecordLost(state: KeyState, id: string): void {
  if (!state.restoreOnDelete || !recordLostToReplacement(keyName(state.server, id))) return;
  const managed = managedFor(state);
  const lost: string[] = [];
  if (managed.desc && state.adopted.desc !== "" && state.adopted.desc !== state.desc) {
    lost.push(`desc ${JSON.stringify(state.adopted.desc)}`);
  }
  if (managed.roles && state.adopted.roles.length > 0 && !sameSet(state.adopted.roles, state.roles)) {
    lost.push(`roles ${[...state.adopted.roles].sort().join(", ")}`);
  }
  if (lost.length === 0) return;
  warnRecordLost(`OrgApiKey (${describeKey(state.orgId, { id }, state.server)})`, "key", lost.join(" and "));
}

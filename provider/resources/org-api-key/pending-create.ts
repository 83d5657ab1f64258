/**
 * A create whose key may exist though nobody could settle it (the server never answered its POST, or
 * the key could not be looked for or deleted): the engine records the resource as partially created,
 * with `pendingCreate` (the mark its POST sent) and an id that names no key. The resource's next
 * `pulumi up` replaces it (a new key, then this one's delete), and its delete, as `pulumi destroy`'s,
 * deletes the key with that mark, the only key that create can have made. A refresh leaves it as it is.
 */
import type { FieldDiff } from "../shared/field-diff";
import { ResourceError } from "../shared/resource-error";
import { currentClient } from "../shared/runtime";
import { onServer } from "../shared/server-input";
import { isMarked } from "./create-mark";
import type { KeyState } from "./state";
import type { OrgApiKeyProviderOutputs } from "./types";
import { deleteMarkedKeys } from "./uncertain-key";

/** What the state records of a create still to settle. */
export type PendingCreate = NonNullable<OrgApiKeyProviderOutputs["pendingCreate"]>;

/** The id a pending create is recorded under: no key's id (keys' ids are 24 hex digits). */
export function pendingId(marked: string): string {
  return `pending-create-${marked.replace(/^.* \[pulumi create ([0-9a-f]+)\]$/, "$1")}`;
}

/** Whether the state is a create still to settle. */
export function isPending(state: KeyState): state is KeyState & { pendingCreate: PendingCreate } {
  return state.pendingCreate !== undefined;
}

/** `diff` of a create still to settle: a replacement, whatever the program says (`apiKeyId` is unknown). */
export function pendingDiff(): FieldDiff {
  return { replaces: ["apiKeyId"], updates: [], deleteBeforeReplace: false };
}

/** `update` never reaches a pending create (its diff is a replacement); should it, it says so. */
export function pendingUpdate(id: string): never {
  throw new ResourceError(
    `OrgApiKey (${id}): this create is still to settle, so it cannot be updated: \`pulumi up\` replaces it (unless the program ignores changes to apiKeyId: remove that ignoreChanges), and \`pulumi destroy\` deletes the key it may have made.`,
  );
}

/** `delete` of a create still to settle: the key with its mark is deleted, if the server made it. */
export async function deletePending(state: KeyState & { pendingCreate: PendingCreate }): Promise<void> {
  const { desc } = state.pendingCreate;
  // Only a create's mark proves which key it made: a record without one (state edited by hand) deletes nothing.
  if (!isMarked(desc)) {
    throw new ResourceError(
      `OrgApiKey (a create of ${state.pendingCreate.sentAt} whose answer was lost, in organization ${state.orgId}${onServer(state.server)}): its recorded desc ${JSON.stringify(desc)} carries no create's mark, so no key can be proven to be its own and none is deleted. Remove the record with \`pulumi state delete\`, after checking the organization's keys by hand.`,
    );
  }
  try {
    await deleteMarkedKeys(currentClient(state.server), state.orgId, desc);
  } catch (error) {
    throw new ResourceError(
      `OrgApiKey (a create of ${state.pendingCreate.sentAt} whose answer was lost, in organization ${state.orgId}${onServer(state.server)}): looking for its key (desc ${JSON.stringify(desc)}) to delete it failed: ${(error as Error).message}. It stays in the stack: run \`pulumi up\` or \`pulumi destroy\` again once the server answers.`,
    );
  }
}

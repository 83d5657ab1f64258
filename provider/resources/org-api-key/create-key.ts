/**
 * A created key's two requests: its create, one POST whose answer is the only one with the whole private
 * key (an answer that cannot be read is settled by ./uncertain-key.ts), and its delete, one DELETE.
 */
import { isApiKeyGone } from "../../api/api-key-gone";
import { type CreatedApiKey, createOrgApiKey, deleteOrgApiKey } from "../../api/api-key-lifecycle";
import { wasAborted } from "../../api/operation";
import type { ApiKey, OrgRole } from "../../api/schemas";
import { UncertainCreateError } from "../../api/uncertain-create-error";
import { inContext } from "../shared/in-context";
import { partiallyCreated } from "../shared/partially-created";
import { ResourceError } from "../shared/resource-error";
import { currentClient } from "../shared/runtime";
import { clientIn, onServer } from "../shared/server-input";
import { applyAccessList } from "./access-list";
import { markedDesc } from "./create-mark";
import { asCreated } from "./created-mode";
import { patch } from "./key-calls";
import { roleSet } from "./org-api-key-inputs";
import { pendingId } from "./pending-create";
import type { KeyState } from "./state";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs } from "./types";
import { settleUncertainCreate } from "./uncertain-key";

function describeNew(inputs: OrgApiKeyProviderInputs): string {
  return `new API key ${JSON.stringify(inputs.desc)} in organization ${inputs.orgId}${onServer(inputs.server)}`;
}

/**
 * `create` of a key to create: one POST carrying this attempt's mark as the key's desc
 * (./create-mark.ts), then one PATCH of the declared desc. A POST whose answer cannot be read is never
 * sent again: the key with its mark is looked for and deleted (./uncertain-key.ts), and when that
 * cannot be settled now, the attempt is recorded in the stack (./pending-create.ts).
 */
export async function createKey(
  inputs: OrgApiKeyProviderInputs,
  outputsOf: (key: ApiKey) => OrgApiKeyProviderOutputs,
): Promise<{ id: string; outs: OrgApiKeyProviderOutputs }> {
  const what = `OrgApiKey (${describeNew(inputs)})`;
  const client = clientIn(what, inputs.server);
  const desc = inputs.desc!;
  const roles = roleSet(inputs.roles!) as OrgRole[];
  const marked = markedDesc(desc);
  const sentAt = Date.now();
  let made: CreatedApiKey;
  try {
    made = await createOrgApiKey(client, inputs.orgId, { desc: marked, roles });
  } catch (error) {
    if (!(error instanceof UncertainCreateError)) throw inContext(what, error);
    const settled = await settleUncertainCreate(client, { orgId: inputs.orgId, marked, sentAt }, error);
    const told = new ResourceError(settled.message);
    if (!settled.pending) throw inContext(what, told);
    const outs = asCreated(outputsOf({ id: "", publicKey: "", desc: marked, roles: [] }), "", inputs.keepers);
    const pendingCreate = { desc: marked, sentAt: new Date(sentAt).toISOString() };
    throw partiallyCreated(inContext(what, told), pendingId(marked), { ...outs, pendingCreate });
  }
  const { privateKey, ...key } = made;
  try {
    const named = await patch(inputs.server, inputs.orgId, key, { desc });
    return { id: made.id, outs: asCreated(outputsOf(named), privateKey, inputs.keepers) };
  } catch (error) {
    // The key is made and its private key read: it is recorded, with the desc it has, and the next
    // `pulumi up` sets the declared one (its diff sees the desc differ).
    const wrapped = inContext(
      what,
      error,
      `. The key was made (API key ${made.id}) and is recorded in the stack with its private key, but its desc is still ${JSON.stringify(marked)}${inputs.accessList === undefined ? "" : " and its access list is not set yet"}: the next \`pulumi up\` sets the declared desc with one PATCH${inputs.accessList === undefined ? "" : ", and the access list"}`,
    );
    throw partiallyCreated(wrapped, made.id, asCreated(outputsOf(key), privateKey, inputs.keepers));
  }
}

/**
 * A created key's access list: one POST of every entry (a new key's list is empty, so nothing is read
 * first and nothing removed). Refused, or its answer lost, the key is deleted with one DELETE: the
 * create fails, so Pulumi would never record the key, and its private key would be lost with it.
 * Abandoned (the create was stopped), no DELETE can be sent: the key is recorded as partially created.
 */
export async function giveAccessList(
  inputs: OrgApiKeyProviderInputs,
  made: { id: string; outs: OrgApiKeyProviderOutputs },
  accessList: readonly string[],
): Promise<{ id: string; outs: OrgApiKeyProviderOutputs }> {
  const client = clientIn(`OrgApiKey (${describeNew(inputs)})`, inputs.server);
  try {
    const list = await applyAccessList(client, inputs.orgId, made.id, accessList, []);
    return { id: made.id, outs: { ...made.outs, ...list } };
  } catch (error) {
    if (wasAborted(error)) {
      // Stopped, it can send no DELETE either: the key is kept, recorded with its private key, and the
      // next `pulumi up` sets its access list (its diff sees none recorded).
      const kept = inContext(
        `OrgApiKey (${describeNew(inputs)})`,
        error,
        `. The key was made (API key ${made.id}) and is recorded in the stack with its private key, but its access list may not be set: the next \`pulumi up\` sets it`,
      );
      throw partiallyCreated(kept, made.id, made.outs);
    }
    let fate: string;
    try {
      await deleteOrgApiKey(client, inputs.orgId, made.id);
      fate = `. The key it made (id ${made.id}) was deleted, so none is left behind`;
    } catch (deleteError) {
      if (wasAborted(deleteError)) {
        // Stopped before its DELETE could go: the key is kept and recorded, as above, never left unrecorded.
        const kept = inContext(
          `OrgApiKey (${describeNew(inputs)})`,
          error,
          `. The key was made (API key ${made.id}) and is recorded in the stack with its private key; its access list was refused and the create was stopped before the key could be deleted: the next \`pulumi up\` sets its access list`,
        );
        throw partiallyCreated(kept, made.id, made.outs);
      }
      fate = isApiKeyGone(deleteError)
        ? `. The key it made (id ${made.id}) is gone already, so none is left behind`
        : `. The key it made (id ${made.id}) could not be deleted (${(deleteError as Error).message}): ` +
          "delete it by hand (its private key is lost), then run `pulumi up` again";
    }
    throw inContext(`OrgApiKey (${describeNew(inputs)})`, error, fate);
  }
}

/** `delete` of a created key: one DELETE; a key already gone is no failure. */
export async function deleteCreatedKey(state: KeyState): Promise<void> {
  try {
    await deleteOrgApiKey(currentClient(state.server), state.orgId, state.apiKeyId);
  } catch (error) {
    if (isApiKeyGone(error)) return;
    throw inContext(
      `OrgApiKey (deleting API key id ${state.apiKeyId} in organization ${state.orgId}${onServer(state.server)})`,
      error,
    );
  }
}

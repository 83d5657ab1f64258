/**
 * A created key's two requests: its create, one POST whose answer is the only one with the whole private
 * key (an answer that cannot be read is settled by ./uncertain-key.ts), and its delete, one DELETE.
 */
import { isApiKeyGone } from "../../api/api-key-gone";
import { createOrgApiKey, deleteOrgApiKey } from "../../api/api-key-lifecycle";
import type { ApiKey, OrgRole } from "../../api/schemas";
import { UncertainCreateError } from "../../api/uncertain-create-error";
import { inContext } from "../shared/in-context";
import { currentClient } from "../shared/runtime";
import { clientIn, onServer } from "../shared/server-input";
import { applyAccessList } from "./access-list";
import { asCreated } from "./created-mode";
import { isDeploymentKey, trackCreate } from "./deployment-keys";
import { roleSet } from "./org-api-key-inputs";
import { listedKeyIds } from "./org-key-cache";
import type { KeyState } from "./state";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs } from "./types";
import { settleUncertainCreate } from "./uncertain-key";

function describeNew(inputs: OrgApiKeyProviderInputs): string {
  return `new API key ${JSON.stringify(inputs.desc)} in organization ${inputs.orgId}${onServer(inputs.server)}`;
}

/**
 * `create` of a key to create: one POST with its desc and roles. A POST whose answer cannot be read is
 * never sent again: the key it may have made is looked for and deleted (./uncertain-key.ts).
 */
export async function createKey(
  inputs: OrgApiKeyProviderInputs,
  outputsOf: (key: ApiKey) => OrgApiKeyProviderOutputs,
): Promise<{ id: string; outs: OrgApiKeyProviderOutputs }> {
  const client = clientIn(`OrgApiKey (${describeNew(inputs)})`, inputs.server);
  const desc = inputs.desc!;
  const roles = roleSet(inputs.roles!) as OrgRole[];
  // Keys this deployment already saw listed are not the one this POST makes.
  const seenBefore = listedKeyIds(client, inputs.orgId);
  const sentAt = Date.now();
  const attempt = { orgId: inputs.orgId, desc, roles, sentAt };
  const tracked = trackCreate(inputs.server, attempt);
  try {
    const key = await createOrgApiKey(client, inputs.orgId, { desc, roles });
    tracked.end({ madeId: key.id, uncertain: false });
    const { privateKey, ...rest } = key;
    return { id: key.id, outs: asCreated(outputsOf(rest), privateKey, inputs.keepers) };
  } catch (error) {
    const uncertain = error instanceof UncertainCreateError;
    tracked.end({ uncertain });
    const told = uncertain
      ? await settleUncertainCreate(client, attempt, error, {
          seenBefore,
          isDeploymentKey: (id) => isDeploymentKey(inputs.server, id),
          uncertainOthers: tracked.uncertainOthers,
        }).catch((settled: unknown) => settled)
      : error;
    throw inContext(`OrgApiKey (${describeNew(inputs)})`, told);
  }
}

/**
 * A created key's access list: one POST of every entry (a new key's list is empty, so nothing is read
 * first and nothing removed). Refused, or its answer lost, the key is deleted with one DELETE: the
 * create fails, so Pulumi would never record the key, and its private key would be lost with it.
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
    let fate: string;
    try {
      await deleteOrgApiKey(client, inputs.orgId, made.id);
      fate = `. The key it made (id ${made.id}) was deleted, so none is left behind`;
    } catch (deleteError) {
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

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
import { asCreated } from "./created-mode";
import { roleSet } from "./org-api-key-inputs";
import { listedKeyIds } from "./org-key-cache";
import type { KeyState } from "./state";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs } from "./types";
import { settleUncertainCreate } from "./uncertain-key";

function describeNew(inputs: OrgApiKeyProviderInputs): string {
  return `new API key ${JSON.stringify(inputs.desc)} in organization ${inputs.orgId}`;
}

/**
 * `create` of a key to create: one POST with its desc and roles. A POST whose answer cannot be read is
 * never sent again: the key it may have made is looked for and deleted (./uncertain-key.ts).
 */
export async function createKey(
  inputs: OrgApiKeyProviderInputs,
  outputsOf: (key: ApiKey) => OrgApiKeyProviderOutputs,
): Promise<{ id: string; outs: OrgApiKeyProviderOutputs }> {
  const client = currentClient();
  const desc = inputs.desc!;
  const roles = roleSet(inputs.roles!) as OrgRole[];
  // Keys this deployment already saw listed are not the one this POST makes.
  const seenBefore = listedKeyIds(client, inputs.orgId);
  const sentAt = Date.now();
  try {
    const key = await createOrgApiKey(client, inputs.orgId, { desc, roles });
    const { privateKey, ...rest } = key;
    return { id: key.id, outs: asCreated(outputsOf(rest), privateKey, inputs.keepers) };
  } catch (error) {
    const told =
      error instanceof UncertainCreateError
        ? await settleUncertainCreate(
            client,
            { orgId: inputs.orgId, desc, roles, sentAt },
            error,
            seenBefore,
          ).catch((settled: unknown) => settled)
        : error;
    throw inContext(`OrgApiKey (${describeNew(inputs)})`, told);
  }
}

/** `delete` of a created key: one DELETE; a key already gone is no failure. */
export async function deleteCreatedKey(state: KeyState): Promise<void> {
  try {
    await deleteOrgApiKey(currentClient(), state.orgId, state.apiKeyId);
  } catch (error) {
    if (isApiKeyGone(error)) return;
    throw inContext(
      `OrgApiKey (deleting API key id ${state.apiKeyId} in organization ${state.orgId})`,
      error,
    );
  }
}

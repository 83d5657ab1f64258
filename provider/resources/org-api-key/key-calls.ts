/**
 * OrgApiKey's calls shared by its methods: a key named in messages, the PATCH that keeps the shared
 * listing fresh, the key as the state recorded it, and an error with the resource in front.
 */
import { type ApiKeyChange, type ApiKeySelector, patchOrgApiKey } from "../../api/api-keys";
import type { ApiKey } from "../../api/schemas";
import { inContext } from "../shared/in-context";
import { currentClient } from "../shared/runtime";
import { onServer } from "../shared/server-input";
import { rememberKey } from "./org-key-cache";
import type { KeyState } from "./state";

export function describeKey(orgId: string, selector: ApiKeySelector, server?: string): string {
  return selector.id !== undefined
    ? `API key id ${selector.id} in organization ${orgId}${onServer(server)}`
    : `API key with public key ${selector.publicKey} in organization ${orgId}${onServer(server)}`;
}

// A PATCH sets organization roles; project roles are not this operation's to change. When a response
// leaves them out, the ones the key had before stand.
function afterPatch(before: ApiKey, after: ApiKey): ApiKey {
  if (after.roles.some((r) => r.groupId !== undefined)) return after;
  return { ...after, roles: [...after.roles, ...before.roles.filter((r) => r.groupId !== undefined)] };
}

export async function patch(
  server: string | undefined,
  orgId: string,
  before: ApiKey,
  change: ApiKeyChange,
): Promise<ApiKey> {
  const client = currentClient(server);
  const after = afterPatch(before, await patchOrgApiKey(client, orgId, before.id, change));
  rememberKey(client, orgId, after);
  return after;
}

/** The key as the state recorded it: what update and delete PATCH from, with no listing read. */
export function keyInState(outs: KeyState): ApiKey {
  return {
    id: outs.apiKeyId,
    publicKey: outs.publicKey,
    desc: outs.desc,
    privateKey: outs.privateKey,
    roles: [
      ...outs.roles.map((roleName) => ({ orgId: outs.orgId, roleName })),
      ...outs.projectRoles.map((r) => ({ groupId: r.groupId, roleName: r.roleName })),
    ],
  };
}

export function withContext(error: unknown, what: string, advice = ""): Error {
  return inContext(`OrgApiKey (${what})`, error, advice);
}

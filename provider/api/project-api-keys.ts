/**
 * Organization API keys in a project (the Ops Manager documentation's "Project API Keys"; not in the
 * spec). There is no read of one assignment: the project's key listing is the only way to see one.
 */

import { apiKeyListing, type ListedApiKey } from "./api-keys";
import { hex24Segment, quoteValue } from "./ids";
import { InputError } from "./input-error";
import type { Listing } from "./listing-pages";
import { sendOperation } from "./operation";
import type { Transport } from "./transport";
import { type ApiKey, GROUP_ROLES, type GroupRole } from "./types";

/** `/groups/{GROUP-ID}/apiKeys`, the project's id checked first. */
export function projectKeysPath(groupId: string): string {
  return `/groups/${hex24Segment("groupId", groupId)}/apiKeys`;
}

/** `/groups/{GROUP-ID}/apiKeys/{API-KEY-ID}`: one key's assignment to the project. */
function assignmentPath(groupId: string, apiKeyId: string): string {
  return `${projectKeysPath(groupId)}/${hex24Segment("apiKeyId", apiKeyId)}`;
}

/**
 * `GET /groups/{GROUP-ID}/apiKeys`: the keys that hold a role in the project, each with every role it
 * holds (its organization's and other projects' too), known by id and public key.
 */
export function projectApiKeyListing(groupId: string): Listing<ApiKey, ListedApiKey> {
  return apiKeyListing(
    projectKeysPath(groupId),
    "the project's API key listing",
    { kind: "listProjectApiKeys", groupId },
    { groupId },
  );
}

/**
 * `PATCH /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}` with `{"roles": [...]}`: assign the organization key
 * to the project with exactly these roles ("any roles not in this array are removed"). The answer
 * differs by version (200 with the key in newer documentation, 204 in older): neither is read.
 */
export async function assignProjectApiKey(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
  roles: readonly GroupRole[],
): Promise<void> {
  if (!Array.isArray(roles) || roles.length === 0) {
    throw new InputError("roles", "must be a non-empty array of project role names", quoteValue(roles));
  }
  roles.forEach((role, i) => {
    if (!(GROUP_ROLES as readonly string[]).includes(role)) {
      throw new InputError(`roles[${i}]`, `must be one of ${GROUP_ROLES.join(", ")}`, quoteValue(role));
    }
  });
  await sendOperation(
    transport,
    { kind: "assignProjectApiKey", groupId },
    // It sets the whole set of roles: sending it twice is sending it once.
    {
      method: "PATCH",
      path: assignmentPath(groupId, apiKeyId),
      body: { roles: [...roles] },
      idempotent: true,
    },
    { groupId, apiKeyId },
  );
}

/**
 * `DELETE /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}`: take every role of the key in the project away.
 * A key that is not assigned there, or no longer exists, is answered `API_KEY_NOT_FOUND`.
 */
export async function unassignProjectApiKey(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
): Promise<void> {
  await sendOperation(
    transport,
    { kind: "unassignProjectApiKey", groupId },
    { method: "DELETE", path: assignmentPath(groupId, apiKeyId) },
    { groupId, apiKeyId },
  );
}

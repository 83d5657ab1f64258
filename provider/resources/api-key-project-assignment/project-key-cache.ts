/**
 * A key's roles in a project, looked up in the project's shared key listing
 * (../shared/listing-cache.ts): refreshing M assignments of one project costs one listing of it, not
 * M reads. What this deployment's PATCHes and DELETEs set keeps the listing fresh.
 */

import type { ListedApiKey } from "../../api/api-keys";
import { projectApiKeyListing } from "../../api/project-api-keys";
import type { Transport } from "../../api/transport";
import type { ApiKey } from "../../api/types";
import { findListed, type RecordIndex, sharedIndex } from "../shared/listing-cache";

/** The key's roles in project `groupId`, sorted. */
const rolesIn = (key: ApiKey, groupId: string) =>
  key.roles
    .filter((r) => r.groupId === groupId)
    .map((r) => r.roleName)
    .sort();

/** A project's keys by id: a key is found only while it holds a role in that project. */
class AssignmentIndex implements RecordIndex<ListedApiKey, ApiKey, string> {
  private readonly listedKeys = new Map<string, ListedApiKey>();
  // Roles a PATCH or DELETE of this deployment set after the listing started: newer than any page.
  private readonly written = new Map<string, string[]>();

  constructor(private readonly groupId: string) {}

  listed(keys: readonly ListedApiKey[]): void {
    for (const key of keys) this.listedKeys.set(key.id, key);
  }

  /** What this deployment just set (none: unassigned). */
  wrote(apiKeyId: string, roles: readonly string[]): void {
    this.written.set(apiKeyId, [...roles]);
  }

  /** The key, when it holds a role in the project as far as this listing shows; else `undefined`. */
  find(apiKeyId: string): ApiKey | undefined {
    const written = this.written.get(apiKeyId);
    const key =
      written === undefined
        ? this.listedKeys.get(apiKeyId)?.key()
        : {
            id: apiKeyId,
            publicKey: "",
            roles: written.map((roleName) => ({ groupId: this.groupId, roleName })),
          };
    return key !== undefined && rolesIn(key, this.groupId).length > 0 ? key : undefined;
  }
}

/**
 * The roles of key `apiKeyId` in project `groupId`, sorted, from the project's shared listing;
 * `undefined` when it holds none there (is not assigned): two listings whose pages agreed lack it.
 */
export async function findAssignment(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
): Promise<string[] | undefined> {
  const key = await findListed(
    transport,
    projectApiKeyListing(groupId),
    apiKeyId,
    () => new AssignmentIndex(groupId),
  );
  return key === undefined ? undefined : rolesIn(key, groupId);
}

/** Keep the project's shared listing fresh with roles this deployment just set (none: unassigned). */
export function rememberAssignment(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
  roles: readonly string[],
): void {
  sharedIndex<AssignmentIndex>(transport, projectApiKeyListing(groupId).path)?.wrote(apiKeyId, roles);
}

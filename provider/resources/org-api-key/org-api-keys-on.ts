/**
 * The plugin's `getOrgApiKeys`, in a module of its own: ./get-org-api-keys.ts imports the SDK's index
 * (automation, the closure serializer, npm's tree reader, TypeScript), which is no part of the plugin,
 * and a bundle of the plugin (its single executable, tools/release/) would carry all of it.
 */
import type { ApiKey } from "../../api/types";
import type { GetOrgApiKeysArgs } from "./get-org-api-keys";
import { listingParts } from "./listing-parts";

/**
 * `getOrgApiKeys` (./get-org-api-keys.ts) as a provider serves it (the plugin's `Invoke`): the same listing, with the
 * settings the provider was configured with, then the environment.
 */
export async function orgApiKeysOn(args: GetOrgApiKeysArgs): Promise<ApiKey[]> {
  const { currentClient, orgApiKeyListing, readWholeListing, whenConfigured } = await listingParts();
  await whenConfigured();
  return readWholeListing(currentClient(args.server), orgApiKeyListing(args.orgId), {}, { sameTwice: true });
}

import { orgApiKeyListing } from "../../provider/api/api-keys";
import {
  type ListAllOptions,
  type PageOptions,
  readListingPage,
  readWholeListing,
} from "../../provider/api/listing-pages";
import type { Transport } from "../../provider/api/transport";
import type { ApiKey } from "../../provider/api/types";

/** One page of an organization's keys, every key checked: `GET /orgs/{ORG-ID}/apiKeys` once. */
export async function orgKeysPage(
  transport: Transport,
  orgId: string,
  page: PageOptions = {},
): Promise<{ results: ApiKey[]; totalCount: number }> {
  const { results, totalCount } = await readListingPage(transport, orgApiKeyListing(orgId), page);
  return { results: results.map((key) => key.key()), totalCount };
}

/** Every key of an organization, as `getOrgApiKeys` reads them: two reads in a row must agree. */
export function allOrgKeys(
  transport: Transport,
  orgId: string,
  options: ListAllOptions = {},
): Promise<ApiKey[]> {
  return readWholeListing(transport, orgApiKeyListing(orgId), options, { sameTwice: true });
}

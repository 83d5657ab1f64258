import type { ApiKey } from "../../api/types";
import { listingParts } from "./listing-parts";

/** Arguments of {@link getOrgApiKeys}. */
export interface GetOrgApiKeysArgs {
  /** The organization whose keys to list. */
  orgId: string;
  /** The named server (`opsmanager:servers.<name>`) to list on; not given: the default server. */
  server?: string;
}

/**
 * Every API key of an organization, all pages, each once, as the server returns them (private keys
 * redacted). The keys are returned only when two reads in a row list the same ones: a key deleted and
 * another added during one read (a rotation) can leave it without a live key though its pages agree.
 * A listing that keeps changing fails with an `InconsistentListingError`. Runs in the Pulumi program
 * (preview included), with the same settings as the resources: stack config `opsmanager:*`, then the
 * environment.
 *
 * @example
 * const keys = await getOrgApiKeys({ orgId });
 * for (const key of keys.filter((k) => k.desc?.startsWith("ci-"))) new OrgApiKey(key.publicKey, { orgId, publicKey: key.publicKey, roles: ["ORG_READ_ONLY"] });
 */
export async function getOrgApiKeys(args: GetOrgApiKeysArgs): Promise<ApiKey[]> {
  const { clientFor, orgApiKeyListing, readWholeListing, resolveServerSettings, resolveSettings } =
    await listingParts();
  // The SDK's index at the call, not at the module's load: a program that never lists keys does not load
  // it. The plugin serves ./org-api-keys-on.ts and never imports this module.
  const pulumi = await import("@pulumi/pulumi");
  // runtime.getConfig gives secrets unwrapped, not as Outputs: they serve the digest computation only.
  const config = (key: string) => pulumi.runtime.getConfig(key);
  const settings =
    args.server === undefined ? resolveSettings(config) : resolveServerSettings(args.server, config);
  return readWholeListing(clientFor(settings), orgApiKeyListing(args.orgId), {}, { sameTwice: true });
}

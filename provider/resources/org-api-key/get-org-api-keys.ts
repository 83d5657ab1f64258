import type { ApiKey } from "../../api/types";

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
  // The SDK's index at the call, not at the module's load: the provider plugin serves this module's
  // orgApiKeysOn, and that index (automation, the closure serializer, npm's tree reader) is no part of it.
  const pulumi = await import("@pulumi/pulumi");
  // runtime.getConfig gives secrets unwrapped, not as Outputs: they serve the digest computation only.
  const config = (key: string) => pulumi.runtime.getConfig(key);
  const settings =
    args.server === undefined ? resolveSettings(config) : resolveServerSettings(args.server, config);
  return readWholeListing(clientFor(settings), orgApiKeyListing(args.orgId), {}, { sameTwice: true });
}

/**
 * {@link getOrgApiKeys} as a provider serves it (the plugin's `Invoke`): the same listing, with the
 * settings the provider was configured with, then the environment.
 */
export async function orgApiKeysOn(args: GetOrgApiKeysArgs): Promise<ApiKey[]> {
  const { currentClient, orgApiKeyListing, readWholeListing, whenConfigured } = await listingParts();
  await whenConfigured();
  return readWholeListing(currentClient(args.server), orgApiKeyListing(args.orgId), {}, { sameTwice: true });
}

/**
 * What a listing needs (the HTTP client, the API's schemas and zod), loaded at the first call: the
 * package's entry is what every program loads, and most never list keys, so a program does not load
 * them until it does.
 */
async function listingParts() {
  const [keys, pages, runtime, servers, settings] = await Promise.all([
    import("../../api/api-keys"),
    import("../../api/listing-pages"),
    import("../shared/runtime"),
    import("../shared/servers"),
    import("../shared/settings"),
  ]);
  return {
    orgApiKeyListing: keys.orgApiKeyListing,
    readWholeListing: pages.readWholeListing,
    clientFor: runtime.clientFor,
    currentClient: runtime.currentClient,
    whenConfigured: runtime.whenConfigured,
    resolveServerSettings: servers.resolveServerSettings,
    resolveSettings: settings.resolveSettings,
  };
}

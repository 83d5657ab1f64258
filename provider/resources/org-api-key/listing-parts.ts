/**
 * What a listing needs (the HTTP client, the API's schemas and zod), loaded at the first call: the
 * package's entry is what every program loads, and most never list keys, so a program does not load
 * them until it does.
 */
export async function listingParts() {
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

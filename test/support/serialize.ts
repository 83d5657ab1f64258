/**
 * Produces the `__provider` text exactly as `pulumi.dynamic.Resource` does, without a Pulumi engine.
 */
import type * as pulumi from "@pulumi/pulumi";

type Runtime = typeof pulumi.runtime;

let runtimeCache: Runtime | undefined;

function pulumiRuntime(): Runtime {
  if (runtimeCache === undefined) {
    // Loaded lazily: the closure serializer's dependencies are slow to load.
    runtimeCache = (require("@pulumi/pulumi") as typeof pulumi).runtime;
  }
  return runtimeCache;
}

/**
 * Serializes a dynamic provider as `pulumi.dynamic.Resource` does (`serializeFunctionMaybeSecret` in
 * `@pulumi/pulumi/dynamic`: `runtime.serializeFunction(() => provider, { allowSecrets: true })`) and
 * returns the text that the resource stores as its `__provider` input. The package's own resources
 * carry the text it writes itself (provider/resources/shared/providers.ts); this is for the test
 * providers of the host harness.
 */
export async function serializeProvider(provider: object): Promise<string> {
  return (await pulumiRuntime().serializeFunction(() => provider, { allowSecrets: true })).text;
}

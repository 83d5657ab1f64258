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

/** The serialized provider together with whether the serializer captured a secret. */
export interface SerializedProvider {
  /** The `__provider` input value: a CommonJS module whose `handler()` returns the provider. */
  text: string;
  /** Whether a captured value was a secret (the SDK then marks `__provider` secret in state). */
  containsSecrets: boolean;
}

/**
 * Serializes a dynamic provider as `pulumi.dynamic.Resource` does (`serializeFunctionMaybeSecret` in
 * `@pulumi/pulumi/dynamic`): `runtime.serializeFunction(() => provider, { allowSecrets: true })`, and
 * returns the full result.
 */
export async function serializeProviderFull(provider: object): Promise<SerializedProvider> {
  const sf = await pulumiRuntime().serializeFunction(() => provider, { allowSecrets: true });
  return { text: sf.text, containsSecrets: sf.containsSecrets };
}

/**
 * Serializes a dynamic provider as `pulumi.dynamic.Resource` does and returns the text that the
 * resource stores as its `__provider` input.
 */
export async function serializeProvider(provider: object): Promise<string> {
  return (await serializeProviderFull(provider)).text;
}

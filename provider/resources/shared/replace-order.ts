/**
 * The order of a replacement for a resource with `restoreOnDelete`. A replacement of the same thing
 * (`pulumi up --replace`) is decided by the engine without the provider, so the replacement cannot learn
 * what the old resource recorded as the original (./replacement.ts); with the old resource deleted
 * first, its restore puts the original back, and the replacement records it as it finds it.
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * `opts` with `deleteBeforeReplace` when `restoreOnDelete` is `true` as given; the program's own
 * `deleteBeforeReplace`, and a `restoreOnDelete` not known yet (an output), leave them as they are.
 */
export function restoringFirst(
  restoreOnDelete: unknown,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.CustomResourceOptions | undefined {
  if (restoreOnDelete !== true || opts?.deleteBeforeReplace !== undefined) return opts;
  return { ...opts, deleteBeforeReplace: true };
}

/**
 * The program's half of ./preview-links.ts: a token drawn for each key in a preview, and the key's id
 * outputs it names, so that a dependent built from them can say whose id it takes.
 */
import { randomUUID } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { API_KEY_ID_FROM, NO_KEY, PREVIEW_TOKEN } from "./preview-links";

/** Each key's `apiKeyId` and `id` outputs, to the token of their key. */
const tokensOfOutputs = new WeakMap<object, string>();

/**
 * A new token for a key registered with `opts`, in a preview only. None when the engine may replace the
 * key although its provider's diff keeps it: a `deleteBeforeReplace` left pending by an interrupted
 * replacement, which the provider cannot see. (`--replace`, `replacementTrigger`, `replaceWith` and
 * `deletedWith` replace without calling the provider's diff, so the key's verdict is never recorded
 * for them; `replaceOnChanges` acts on the fields a provider's diff names, and the dynamic host names
 * none, so it never replaces a dynamic resource.)
 */
export function previewToken(opts: pulumi.CustomResourceOptions | undefined): string | undefined {
  if (!pulumi.runtime.isDryRun() || opts?.deleteBeforeReplace === true) return undefined;
  return randomUUID();
}

/** `{ __previewToken }` for a key's inputs, or nothing. */
export function tokenInput(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { [PREVIEW_TOKEN]: token };
}

/** Remembers that `outputs` (a key's `apiKeyId` and `id`) carry the id of the key with `token`. */
export function nameIdOutputs(token: string | undefined, ...outputs: object[]): void {
  if (token === undefined) return;
  for (const output of outputs) tokensOfOutputs.set(output, token);
}

/**
 * `{ __apiKeyIdFrom }` for a dependent in a preview: the token of the key whose own id output its
 * `apiKeyId` is, else {@link NO_KEY}. Nothing outside a preview.
 */
export function apiKeyIdSource(apiKeyId: unknown): Record<string, string> {
  if (!pulumi.runtime.isDryRun()) return {};
  const token = typeof apiKeyId === "object" && apiKeyId !== null ? tokensOfOutputs.get(apiKeyId) : undefined;
  return { [API_KEY_ID_FROM]: token ?? NO_KEY };
}

/**
 * What a dynamic preview needs to know of a key's id, which the dynamic face's host cannot show it.
 * Pulumi's dynamic-provider host does not answer `supportsPreview`, so in a preview the engine takes
 * an updated resource's outputs to be its new inputs: a created key's `apiKeyId`, an output only, is
 * unknown to every resource that takes it, and a dependent previews as replaced when `up` only updates
 * the key. One host serves every dynamic resource of a deployment, and the engine diffs a key before
 * any resource whose inputs wait for its outputs; so the key's diff records here whether the key keeps
 * its id, and a dependent's diff reads it.
 *
 * The link between the two is a token the program draws for each key in a preview and passes as the
 * key's `__previewToken` input, and as the dependent's `__apiKeyIdFrom` when the dependent's `apiKeyId`
 * is the key's own `apiKeyId` or `id` output (../resources' classes). The engine hides `__` inputs from
 * every display, and `up` sends neither, so no state holds them.
 */
import { perDeployment } from "./server-memory";

/** The input that carries a key's token in a preview. */
export const PREVIEW_TOKEN = "__previewToken";
/** The input that names the token of the key whose id a dependent's `apiKeyId` is. */
export const API_KEY_ID_FROM = "__apiKeyIdFrom";

/** `__apiKeyIdFrom` of a dependent whose `apiKeyId` is no key's own id output. */
export const NO_KEY = "none";

/**
 * What the engine asked of each key with a token: its check (`checked`), and its diff, which says the id
 * the key had and whether it keeps it. A key checked and never diffed is made anew: a new key, or a
 * replacement the engine decides without the provider (`--replace`, `replacementTrigger`).
 */
const keyVerdicts = perDeployment(() => new Map<string, "checked" | { id: string; kept: boolean }>());

function tokenIn(inputs: object, name: string): string | undefined {
  const value = (inputs as Record<string, unknown>)[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The preview-only inputs of `news`, for `check` to hand on to `diff` as they came. */
export function previewInputs(news: object): Record<string, string> {
  const links: Record<string, string> = {};
  for (const name of [PREVIEW_TOKEN, API_KEY_ID_FROM]) {
    const token = tokenIn(news, name);
    if (token !== undefined) links[name] = token;
  }
  return links;
}

/** Records, from a key's check, that the engine asked about the key with this token. */
export function noteKeyChecked(news: object): void {
  const token = tokenIn(news, PREVIEW_TOKEN);
  if (token !== undefined && !keyVerdicts().has(token)) keyVerdicts().set(token, "checked");
}

/** Records, from a key's diff, whether the key with id `id` keeps it (no replacement of the provider's). */
export function noteKeyVerdict(news: object, id: string, kept: boolean): void {
  const token = tokenIn(news, PREVIEW_TOKEN);
  if (token !== undefined) keyVerdicts().set(token, { id, kept });
}

/**
 * What a dependent whose `apiKeyId` is not known yet can tell of it: `same` when it is the id of a key
 * this deployment diffed as keeping the id `had`; `changes` when that key is replaced, made anew, or
 * is another key; `unlinked` when the program sent a link but no key's diff answers it (the id comes from
 * elsewhere, or from a key the engine may replace whatever its diff said); `foreseen` when the
 * program sent no link: a face whose previews know each output sent the unknown, which is the truth.
 */
export function linkedKeyId(news: object, had: string): "same" | "changes" | "unlinked" | "foreseen" {
  const token = tokenIn(news, API_KEY_ID_FROM);
  if (token === undefined) return "foreseen";
  const verdict = keyVerdicts().get(token);
  if (verdict === undefined) return "unlinked";
  if (verdict === "checked") return "changes";
  return verdict.kept && verdict.id === had ? "same" : "changes";
}

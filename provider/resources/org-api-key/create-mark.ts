/**
 * The mark a key's create carries: its POST sends, as the key's desc, the declared desc followed by a
 * token made for that one attempt (`CI stacks [pulumi create 3f9a…]`), and one PATCH sets the declared
 * desc once the answer is in. Only that POST can have made a key with that exact desc, so a create
 * whose answer was lost finds the key it made by its desc alone, whoever else made keys alike meanwhile
 * (another stack, another program, a person): a desc, roles and a creation time prove nothing, a mark
 * does. The mark is recorded in the stack when the key could not be settled at once (see
 * ./pending-create.ts), so that the next `pulumi up` or `pulumi destroy` of the resource finds it too.
 */
import { randomBytes } from "node:crypto";
import { DESC_MAX } from "../../api/api-key-lifecycle";
import type { ApiKey } from "../../api/schemas";

/** The token after the declared desc: 16 hex digits drawn for one POST. */
const MARK = / \[pulumi create [0-9a-f]{16}\]$/;

/** The desc a create's POST sends: `desc`, cut to fit (never inside a character), then the attempt's token. */
export function markedDesc(desc: string, attempt = randomBytes(8).toString("hex")): string {
  const token = ` [pulumi create ${attempt}]`;
  let kept = desc.slice(0, DESC_MAX - token.length);
  // A cut between the two halves of a surrogate pair would send half a character.
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return `${kept}${token}`;
}

/** The token part of a marked desc (` [pulumi create <16 hex>]`), or `undefined`. */
function tokenOf(marked: string): string | undefined {
  return MARK.exec(marked)?.[0];
}

/**
 * The keys of `listed` whose desc ends with `marked`'s token: the keys that create made (one at most).
 * The token alone proves it (it was drawn for that one POST), so a server that stores the declared
 * part otherwise (trimmed, a character replaced) does not hide the key.
 */
export function markedKeys(listed: readonly ApiKey[], marked: string): ApiKey[] {
  const token = tokenOf(marked);
  if (token === undefined) return [];
  return listed.filter((key) => (key.desc ?? "").endsWith(token));
}

/**
 * The keys of `listed` that look like the one `marked` would have made but are not: the declared desc
 * itself, or another create's mark on it. They are never deleted; a message names them, since a person
 * looking for the lost key would find them.
 */
export function keysAlike(listed: readonly ApiKey[], marked: string): ApiKey[] {
  const declared = marked.replace(MARK, "");
  const token = tokenOf(marked);
  return listed.filter((key) => {
    const desc = key.desc ?? "";
    if (token !== undefined && desc.endsWith(token)) return false;
    return desc === declared || desc.replace(MARK, "") === declared;
  });
}

/** Whether `desc` carries a create's mark (a key whose create has not set its declared desc yet). */
export function isMarked(desc: string): boolean {
  return MARK.test(desc);
}

/**
 * A key's POST whose answer could not be read (a timeout or a connection cut after sending, a 5xx after
 * acting or not, a 2xx that is not the key) may have made a key whose private key nobody will ever see:
 * useless to the user, and only a risk. The POST carried this attempt's mark as the key's desc
 * (./create-mark.ts), so the key it made, if any, is the one key with that desc: it is found in one
 * consistent listing and deleted. A key without the mark is never deleted, whatever it looks like.
 */
import { isApiKeyGone } from "../../api/api-key-gone";
import { CreatedKeyUnreadError, deleteOrgApiKey } from "../../api/api-key-lifecycle";
import { orgApiKeyListing } from "../../api/api-keys";
import { readWholeListing } from "../../api/listing-pages";
import { wasAborted } from "../../api/operation";
import type { ApiKey } from "../../api/schemas";
import type { Transport } from "../../api/transport";
import type { UncertainCreateError } from "../../api/uncertain-create-error";
import { keysAlike, markedKeys } from "./create-mark";

/** The create that may have made a key. */
export interface CreateAttempt {
  orgId: string;
  /** The desc the POST sent: the declared desc and this attempt's mark. */
  marked: string;
  /** Local time just before the POST, in ms. */
  sentAt: number;
}

/** How a lost create ended: what to tell the user, and whether the stack must remember the attempt. */
export interface Settlement {
  message: string;
  /**
   * Whether a key of this attempt may still exist: the server may make it later (it never answered),
   * or it could not be looked for or deleted. The stack then records the attempt (./pending-create.ts)
   * and the resource's next `pulumi up` or `pulumi destroy` deletes the key by its mark.
   */
  pending: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const named = (key: ApiKey) =>
  `${key.id} (public key ${key.publicKey}, desc ${JSON.stringify(key.desc ?? "")})`;

/** What the stack does with a recorded attempt, said once wherever it applies. */
export const RECORDED =
  "The stack records this create: the resource's next `pulumi up` (or `pulumi destroy`) looks for that key by its desc and deletes it, so nothing is left to do by hand";

/**
 * The keys with the mark `marked`, in one listing read until two reads in a row agree (a key made
 * meanwhile is not missed), each deleted; a key already gone counts as deleted. Keys without the mark
 * are returned as `alike` when they look like it (never touched). Throws when the listing or a DELETE
 * fails.
 */
export async function deleteMarkedKeys(
  transport: Transport,
  orgId: string,
  marked: string,
): Promise<{ deleted: ApiKey[]; alike: ApiKey[] }> {
  const listed = await readWholeListing(transport, orgApiKeyListing(orgId), {}, { sameTwice: true });
  const deleted = markedKeys(listed, marked);
  for (const key of deleted) {
    try {
      await deleteOrgApiKey(transport, orgId, key.id);
    } catch (error) {
      if (!isApiKeyGone(error)) throw Object.assign(error as Error, { undeleted: key });
    }
  }
  return { deleted, alike: keysAlike(listed, marked) };
}

/** The keys alike that were left alone, named, or nothing. */
function leftAlone(alike: readonly ApiKey[]): string {
  if (alike.length === 0) return "";
  return ` ${alike.length === 1 ? "One key looks like it but has not this create's desc, so another create or a person made it" : `${alike.length} keys look like it but have not this create's desc, so other creates or people made them`}; ${alike.length === 1 ? "it was" : "they were"} left as ${alike.length === 1 ? "it is" : "they are"}: ${alike.map(named).join("; ")}.`;
}

/**
 * After a POST whose answer could not be read (`error`): never POST again; look for the key with this
 * attempt's mark and delete it. Proven outcomes (deleted, or the server answered and made none) need
 * nothing more; otherwise the attempt is `pending`, as it is at once when the POST was abandoned (its
 * caller cancelled, or its deadline passed), since no request after it would be sent either.
 */
export async function settleUncertainCreate(
  transport: Transport,
  attempt: CreateAttempt,
  error: UncertainCreateError,
): Promise<Settlement> {
  const cause = error.cause instanceof Error ? error.cause : error;
  const what = `${cause.message.replace(/\.$/, "")}.`;
  const mark = `desc ${JSON.stringify(attempt.marked)}`;
  const named_ =
    error instanceof CreatedKeyUnreadError ? ` Its answer named API key ${error.createdId}.` : "";
  if (wasAborted(error)) {
    // What stopped the POST stops every request after it: the key is left for the next run to look for.
    return {
      pending: true,
      message: `${what} The server may have made a key with this create's ${mark} (sent ${iso(attempt.sentAt)}, this machine's clock); it was not looked for, since the create was stopped. ${RECORDED}.`,
    };
  }
  let found: { deleted: ApiKey[]; alike: ApiKey[] };
  try {
    found = await deleteMarkedKeys(transport, attempt.orgId, attempt.marked);
  } catch (failure) {
    const undeleted = (failure as { undeleted?: ApiKey }).undeleted;
    const fate =
      undeleted === undefined
        ? `looking for it in the organization's key listing failed (${(failure as Error).message})`
        : `it is API key ${named(undeleted)}, and deleting it failed (${(failure as Error).message})`;
    return {
      pending: true,
      message: `${what}${named_} The server may have made a key with this create's ${mark} (sent ${iso(attempt.sentAt)}, this machine's clock); ${fate}. ${RECORDED}.`,
    };
  }
  const alone = leftAlone(found.alike);
  if (found.deleted.length > 0) {
    return {
      pending: false,
      message: `${what}${named_} The server made API key ${found.deleted.map(named).join("; ")}, the key with this create's mark, but its private key could not be read, so nobody could ever use it: it was deleted, and no key is left behind.${alone} Nothing else changed: \`pulumi up\` can simply run again.`,
    };
  }
  if (!error.answered) {
    return {
      pending: true,
      message: `${what} The organization's key listing, read after the failure, has no key with this create's ${mark}; but the server never answered the POST, so it may still make that key.${alone} ${RECORDED}.`,
    };
  }
  if (error instanceof CreatedKeyUnreadError) {
    // The answer named a key, but no key has the mark: nothing proves that key is this create's.
    return {
      pending: false,
      message: `${what}${named_} No key of the organization has this create's ${mark}, so nothing proves that API key ${error.createdId} is this create's, and nothing was deleted.${alone} Check API key ${error.createdId} in the organization's API keys (Ops Manager: Organization, Access Manager, API Keys): if nobody else made it, delete it (its private key was never shown), then run \`pulumi up\` again.`,
    };
  }
  return {
    pending: false,
    message: `${what} The server made no key of this create: it answered the POST, and the organization's key listing, read after, has no key with this create's ${mark}. No key was left behind.${alone} \`pulumi up\` can simply run again.`,
  };
}

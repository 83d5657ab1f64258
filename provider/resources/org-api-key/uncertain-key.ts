/**
 * A key's POST whose answer could not be read (a timeout or a connection cut after sending, a 5xx after
 * acting, a 2xx that is not the key) may have made a key whose private key nobody will ever see: useless
 * to the user, and only a risk. So it is looked for and deleted (see {@link settleUncertainCreate}).
 *
 * The key it made has the desc and roles sent, and an id made at the create: a MongoDB ObjectId, whose
 * first 8 hex digits are its creation time in seconds, in the server's clock. The server's clock is
 * read from the `Date` header of the listing's answers.
 */
import { isApiKeyGone } from "../../api/api-key-gone";
import { CreatedKeyUnreadError, deleteOrgApiKey } from "../../api/api-key-lifecycle";
import { orgApiKeyListing } from "../../api/api-keys";
import { readWholeListing } from "../../api/listing-pages";
import type { ApiKey } from "../../api/schemas";
import type { Transport } from "../../api/transport";
import type { UncertainCreateError } from "../../api/uncertain-create-error";
import { ResourceError } from "../shared/resource-error";
import { sameSet } from "./org-api-key-inputs";

/** The create that may have made a key. */
export interface CreateAttempt {
  orgId: string;
  desc: string;
  roles: string[];
  /** Local time just before the POST, in ms. */
  sentAt: number;
}

/** How far the server's clock may be from what its `Date` header and the id's seconds say, either side. */
export const CLOCK_SLACK_MS = 2_000;

/** The server's clock against this machine's: the server's time is the local time plus `low` to `high` ms. */
export interface ServerClock {
  low: number;
  high: number;
}

/**
 * The server's clock from one answer's `Date` header (whole seconds) and the local time it arrived, or
 * `undefined` when the header is missing or not a date.
 */
export function serverClock(date: unknown, arrivedAt: number): ServerClock | undefined {
  const text = Array.isArray(date) ? date[0] : date;
  if (typeof text !== "string") return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return undefined;
  // The header drops the milliseconds: the server's time was in [ms, ms + 1 s) when it was written.
  return { low: ms - arrivedAt, high: ms + 1_000 - arrivedAt };
}

/** The creation time of an ObjectId in ms (its first 8 hex digits are seconds), or `undefined`. */
export function objectIdTime(id: string): number | undefined {
  return /^[0-9a-f]{24}$/i.test(id) ? Number.parseInt(id.slice(0, 8), 16) * 1000 : undefined;
}

/** What the listing says of the key the POST may have made. */
export interface Candidates {
  /** Keys with the desc and roles sent, not seen before the POST, made in the window (all of them when there is no clock). */
  keys: ApiKey[];
  /** The window in the server's clock, in ms; `undefined` when no clock could be read. */
  window?: { from: number; to: number };
  /** Keys alike (the desc and roles sent, not seen before) whose id says they were made outside the window. */
  outside: ApiKey[];
}

/**
 * The keys of `listed` that the POST may have made: the desc and organization roles it sent, not among
 * the keys `seenBefore` (listed before the POST), and, with a clock, an id made from just before the
 * POST to just after the failure, in the server's time, {@link CLOCK_SLACK_MS} either side.
 */
export function candidatesOf(
  listed: readonly ApiKey[],
  attempt: CreateAttempt,
  failedAt: number,
  seenBefore: ReadonlySet<string>,
  clock: ServerClock | undefined,
): Candidates {
  const alike = listed.filter(
    (key) =>
      !seenBefore.has(key.id) &&
      (key.desc ?? "") === attempt.desc &&
      sameSet(
        key.roles.filter((r) => r.orgId !== undefined).map((r) => r.roleName),
        attempt.roles,
      ),
  );
  if (clock === undefined) return { keys: alike, outside: [] };
  const window = {
    from: attempt.sentAt + clock.low - CLOCK_SLACK_MS,
    to: failedAt + clock.high + CLOCK_SLACK_MS,
  };
  const inWindow = (key: ApiKey) => {
    const made = objectIdTime(key.id);
    // An id's seconds cover a whole second: it is in the window when that second overlaps it.
    return made !== undefined && made + 999 >= window.from && made <= window.to;
  };
  return { keys: alike.filter(inWindow), window, outside: alike.filter((key) => !inWindow(key)) };
}

/** A transport that notes the server's clock from every answer it passes on. */
function clocked(transport: Transport): { transport: Transport; clock: () => ServerClock | undefined } {
  let last: ServerClock | undefined;
  return {
    transport: {
      async request(options) {
        const response = await transport.request(options);
        last = serverClock(response.headers.date, Date.now()) ?? last;
        return response;
      },
    },
    clock: () => last,
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const named = (key: ApiKey) =>
  `${key.id} (public key ${key.publicKey}, desc ${JSON.stringify(key.desc ?? "")})`;

/** Deletes the key the POST made (`lead` says how it is known) and fails saying so, or says why it could not. */
async function deleteMade(
  transport: Transport,
  orgId: string,
  id: string,
  what: string,
  lead: string,
): Promise<never> {
  try {
    await deleteOrgApiKey(transport, orgId, id);
  } catch (error) {
    if (!isApiKeyGone(error)) {
      throw new ResourceError(
        `${what} ${lead}, but its private key could not be read, and deleting it failed (${(error as Error).message}). Delete API key ${id} in the organization's API keys (Ops Manager: Organization, Access Manager, API Keys), then run \`pulumi up\` again: nobody can use that key, since its private key is shown only once.`,
      );
    }
  }
  throw new ResourceError(
    `${what} ${lead}, but its private key could not be read, so nobody could ever use it: it was deleted, and no key is left behind. Nothing else changed: \`pulumi up\` can simply run again.`,
  );
}

/** What the deployment knows of the keys a listing shows, beside the listing itself. */
export interface KnownKeys {
  /** Keys listed before the POST: not the one it made. */
  seenBefore?: ReadonlySet<string>;
  /** Whether a resource of this deployment created or manages the key: never the one the POST made. */
  isDeploymentKey?: (id: string) => boolean;
  /** The other creates alike of this deployment that lost their answer too (see ./deployment-keys.ts). */
  uncertainOthers?: (failedAt: number) => Promise<unknown[]>;
}

/**
 * After a POST whose answer could not be read (`error`): never POST again; find the key it made in one
 * consistent listing of the organization started now, delete it, and fail saying so. A key a resource
 * of this deployment created or manages is never taken for it. No such key: fail saying no key was left
 * behind. More than one, no clock to tell them by, or another create alike of this deployment that lost
 * its answer too: change nothing, and fail naming the candidates and what to check. Always throws.
 */
export async function settleUncertainCreate(
  transport: Transport,
  attempt: CreateAttempt,
  error: UncertainCreateError,
  known: KnownKeys = {},
): Promise<never> {
  const failedAt = Date.now();
  const cause = error.cause instanceof Error ? error.cause : error;
  const what = `${cause.message.replace(/\.$/, "")}.`;
  if (error instanceof CreatedKeyUnreadError) {
    return deleteMade(
      transport,
      attempt.orgId,
      error.createdId,
      what,
      `Its answer named the key it made, API key ${error.createdId}`,
    );
  }
  // Creates alike under way are waited for: a key one of them made is then known, not a candidate.
  const rivals = (await known.uncertainOthers?.(failedAt)) ?? [];
  const reader = clocked(transport);
  let listed: ApiKey[];
  try {
    // Read twice, until two reads in a row list the same keys: a key made meanwhile is not missed.
    listed = await readWholeListing(
      reader.transport,
      orgApiKeyListing(attempt.orgId),
      {},
      { sameTwice: true },
    );
  } catch (listing) {
    throw new ResourceError(
      `${what} The server may have made the key; looking for it in the organization's key listing failed (${(listing as Error).message}). Check the organization's API keys for one with desc ${JSON.stringify(attempt.desc)} made around ${iso(attempt.sentAt)} (this machine's clock): delete it if it is there (its private key was never shown), then run \`pulumi up\` again.`,
    );
  }
  const clock = reader.clock();
  const excluded = new Set(known.seenBefore ?? []);
  for (const key of listed) if (known.isDeploymentKey?.(key.id)) excluded.add(key.id);
  const found = candidatesOf(listed, attempt, failedAt, excluded, clock);
  const window = found.window;
  const when =
    window === undefined
      ? "(the server's answers carried no Date header, so the time each key was made could not be compared)"
      : `made from ${iso(window.from)} to ${iso(window.to)} (server time)`;
  if (found.keys.length === 0) {
    return nothingFound(what, attempt, error, { outside: found.outside, rivals: rivals.length, when });
  }
  if (found.keys.length === 1 && window !== undefined && rivals.length === 0) {
    const made = found.keys[0]!;
    return deleteMade(
      transport,
      attempt.orgId,
      made.id,
      what,
      `The server made API key ${named(made)}, the one key of the organization with this desc and roles ${when}`,
    );
  }
  const others =
    rivals.length === 0
      ? ""
      : ` ${rivals.length === 1 ? "Another create" : `${rivals.length} other creates`} of this deployment with the same desc and roles lost ${rivals.length === 1 ? "its" : "their"} answer too, so a key alike may be any of theirs.`;
  throw new ResourceError(
    `${what} The server may have made a key, but it ${found.keys.length > 1 ? "cannot be told from others" : "cannot be tied to this create alone"}: ${found.keys.length} ${found.keys.length === 1 ? "key" : "keys"} with desc ${JSON.stringify(attempt.desc)} and roles ${attempt.roles.join(", ")} ${when}: ${found.keys.map(named).join("; ")}.${others} Nothing was changed. Check which of them were made by someone else; delete the one this \`pulumi up\` made (its private key was never shown, so nobody can use it), then run \`pulumi up\` again. A distinct desc per key avoids this.`,
  );
}

/**
 * No key alike in the window. That no key was left behind is said only when it is proven: the server
 * answered the POST, so it can no longer act on it, and the listing, read after, has no key alike at
 * all, whatever the server's clock. Otherwise the keys alike outside the window (a clock or a proxy's
 * `Date` header off by more than the slack) are named, or a create the server did not answer is said
 * to be still able to make its key; with what to check.
 */
function nothingFound(
  what: string,
  attempt: CreateAttempt,
  error: UncertainCreateError,
  found: { outside: ApiKey[]; rivals: number; when: string },
): never {
  const alike = `desc ${JSON.stringify(attempt.desc)} and roles ${attempt.roles.join(", ")}`;
  const check = `Check the organization's API keys (Ops Manager: Organization, Access Manager, API Keys) for a key with ${alike} made around ${iso(attempt.sentAt)} (this machine's clock): delete it if it is there (its private key was never shown, so nobody can use it), then run \`pulumi up\` again.`;
  if (found.outside.length > 0) {
    throw new ResourceError(
      `${what} The organization's key listing has no key with ${alike} ${found.when}, but ${found.outside.length === 1 ? "one key alike was" : `${found.outside.length} keys alike were`} made outside that window: ${found.outside.map(named).join("; ")}. The window is read from the server's Date header; if that clock (or a proxy's) is off, one of them may be the key this create made. Nothing was changed. ${check}`,
    );
  }
  if (!error.answered) {
    throw new ResourceError(
      `${what} The organization's key listing, read after the failure, has no key with ${alike} that was not there before; but the server never answered the POST, so it may still make the key after that read. Nothing was changed. ${check}`,
    );
  }
  if (found.rivals > 0) {
    throw new ResourceError(
      `${what} The organization's key listing has no key with ${alike} that was not there before, but another create alike of this deployment lost its answer too and may still make its key. Nothing was changed. ${check}`,
    );
  }
  throw new ResourceError(
    `${what} The server made no key of this create: it answered the POST, and the organization's key listing, read after, has no key with ${alike} that was not there before. No key was left behind: \`pulumi up\` can simply run again.`,
  );
}

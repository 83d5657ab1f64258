import { type ApiKeySelector, type ListedApiKey, listOrgApiKeysByPage } from "../../api/api-keys";
import type { ApiKey } from "../../api/schemas";
import type { Transport } from "../../api/transport";

/** How long a listing serves later calls: bounds how stale a long deployment's view can get. */
export const LISTING_TTL_MS = 60_000;

/**
 * Whether a shared listing may answer a call: it is younger than {@link LISTING_TTL_MS} and, with
 * `after`, it started after that tick of its cache's clock, so it saw every change made before it.
 */
export function mayServe(listing: { startSeq: number; startedAt: number }, after?: number): boolean {
  return (after === undefined || listing.startSeq > after) && Date.now() - listing.startedAt < LISTING_TTL_MS;
}

// One listing per organization and client, shared by every OrgApiKey of the deployment: N keys in one
// org cost one listing, not N. Keyed by client (clients are shared and live as long as the process),
// so different credentials never share what they see.
const listings = new Map<Transport, Map<string, Listing>>();

/** A key as the index holds it: from a page (checked on first use) or from a response (checked). */
type Entry = Pick<ListedApiKey, "id" | "publicKey" | "key">;

/** An organization's keys by id and by public key: each lookup is one map read, not a scan. */
class KeyIndex {
  private readonly byId = new Map<string, Entry>();
  private readonly byPublicKey = new Map<string, Entry>();
  // Keys a PATCH returned after the listing started: a page read earlier must not undo them.
  private readonly patched = new Set<string>();

  /** A key from a page of the listing. */
  listed(entry: ListedApiKey): void {
    if (!this.patched.has(entry.id)) this.put(entry);
  }

  /** A key as the server just returned it (a PATCH response): newer than any page. */
  returnedByPatch(key: ApiKey): void {
    this.patched.add(key.id);
    this.put({ id: key.id, publicKey: key.publicKey, key: () => key });
  }

  /** The key, checked; throws a `ResponseShapeError` when its record does not match the schema. */
  find(selector: ApiKeySelector): ApiKey | undefined {
    const entry =
      selector.id !== undefined ? this.byId.get(selector.id) : this.byPublicKey.get(selector.publicKey);
    return entry?.key();
  }

  private put(entry: Entry): void {
    const before = this.byId.get(entry.id);
    if (before !== undefined && before.publicKey !== entry.publicKey) {
      this.byPublicKey.delete(before.publicKey);
    }
    this.byId.set(entry.id, entry);
    this.byPublicKey.set(entry.publicKey, entry);
  }
}

interface Waiter {
  selector: ApiKeySelector;
  resolve: (key: ApiKey | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * One listing of an organization's keys, filled page by page. A lookup is answered as soon as the page
 * with its key is in, not when the last page is: with 10 pages read 8 at a time, the keys of page 1
 * can be PATCHed while the other pages are still on the wire. A listing whose pages disagree is read
 * again (api/listing-pages.ts); its pages still fill the index, since a key on any page was really
 * listed, and a lookup waits on. A key is missing only once a read's pages agreed without it; a
 * listing that never agreed fails every lookup still waiting.
 */
class Listing {
  readonly index = new KeyIndex();
  /** Settles when every page is in (or one failed). */
  readonly done: Promise<void>;
  private readonly waiters = new Set<Waiter>();
  private outcome: { failed: false } | { failed: true; error: unknown } | undefined;

  constructor(
    transport: Transport,
    orgId: string,
    /** Its tick of {@link clock}: later than every call before it, earlier than every call after. */
    readonly startSeq: number,
    readonly startedAt: number,
  ) {
    this.done = listOrgApiKeysByPage(transport, orgId, (keys) => this.page(keys)).then(
      () => this.settle({ failed: false }),
      (error: unknown) => {
        this.settle({ failed: true, error });
        throw error;
      },
    );
  }

  /** The key, as soon as a page has it; `undefined` once every page is in without it. */
  find(selector: ApiKeySelector): Promise<ApiKey | undefined> {
    return new Promise((resolve, reject) => {
      const waiter = { selector, resolve, reject };
      if (!this.settleWaiter(waiter)) this.waiters.add(waiter);
    });
  }

  private page(keys: ListedApiKey[]): void {
    for (const key of keys) this.index.listed(key);
    for (const waiter of this.waiters) if (this.settleWaiter(waiter)) this.waiters.delete(waiter);
  }

  private settle(outcome: NonNullable<Listing["outcome"]>): void {
    this.outcome = outcome;
    for (const waiter of this.waiters) this.settleWaiter(waiter);
    this.waiters.clear();
  }

  /**
   * Settles `waiter` with its key when the index has it (or the error of a key the server described
   * wrongly), else with the listing's outcome once there is one. `false`: it must wait for more pages.
   */
  private settleWaiter(waiter: Waiter): boolean {
    let key: ApiKey | undefined;
    try {
      key = this.index.find(waiter.selector);
    } catch (error) {
      waiter.reject(error);
      return true;
    }
    if (key !== undefined) waiter.resolve(key);
    else if (this.outcome === undefined) return false;
    else if (this.outcome.failed) waiter.reject(this.outcome.error);
    else waiter.resolve(undefined);
    return true;
  }
}

// One counter orders calls and listings: a listing whose tick is greater than a call's started after
// that call, so it saw every change made before the call.
let clock = 0;

function listingsOf(transport: Transport): Map<string, Listing> {
  let map = listings.get(transport);
  if (map === undefined) {
    map = new Map();
    listings.set(transport, map);
  }
  return map;
}

/** The org's shared listing, or a new one; with `after`, only one that started after that tick. */
function listing(transport: Transport, orgId: string, after?: number): Listing {
  const map = listingsOf(transport);
  const existing = map.get(orgId);
  if (existing !== undefined && mayServe(existing, after)) return existing;
  const entry = new Listing(transport, orgId, ++clock, Date.now());
  map.set(orgId, entry);
  // A failed listing is not kept: the next caller tries again.
  entry.done.catch(() => {
    if (map.get(orgId) === entry) map.delete(orgId);
  });
  return entry;
}

/**
 * Find a key of an organization in the shared listing, as soon as the page that holds it is in. A key
 * missing from it is looked for once more, in a listing that started after both this call and that
 * listing (one shared by all such callers): a key made during the deployment is still found, and a key
 * is `undefined` (gone) only when two listings whose pages agreed both lack it. One is not enough: a
 * key deleted and another added between two pages (a key rotated) leave the pages agreeing while a
 * key slid onto a page already read.
 */
export async function findKey(
  transport: Transport,
  orgId: string,
  selector: ApiKeySelector,
): Promise<ApiKey | undefined> {
  const call = ++clock;
  const first = listing(transport, orgId);
  const found = await first.find(selector);
  if (found !== undefined) return found;
  return listing(transport, orgId, Math.max(call, first.startSeq)).find(selector);
}

/** Keep the shared listing fresh with a key the server just returned (a PATCH response). */
export function rememberKey(transport: Transport, orgId: string, key: ApiKey): void {
  listingsOf(transport).get(orgId)?.index.returnedByPatch(key);
}

/** For tests: forget every listing. */
export function resetKeyCacheForTests(): void {
  clock = 0;
  listings.clear();
}

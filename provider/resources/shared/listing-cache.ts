/**
 * One listing per server and listing path, shared by every resource of the deployment that looks a
 * record up in it: N keys of one organization cost one listing, not N reads. A lookup is answered as
 * soon as the page with its record is in. A record missing from a listing is looked for once more, in
 * a listing that started after both the call and that listing, so that a record made during the
 * deployment is found; it is gone only when two listings whose pages agreed both lack it, since a
 * record deleted and another added between two pages leave the pages agreeing while a record slid
 * onto a page already read. A listing serves for {@link LISTING_TTL_MS}; a failed one is forgotten.
 *
 * A new listing needs no code here: its {@link Listing} (api/), and an index when a record is looked up
 * by more than its id.
 */
import type { ListedRecord } from "../../api/listed-record";
import { type Listing, readListingByPage } from "../../api/listing-pages";
import type { Transport } from "../../api/transport";
import { perServer } from "./server-memory";

/** How long a listing serves later calls: bounds how stale a long deployment's view can get. */
export const LISTING_TTL_MS = 60_000;

/**
 * Whether a shared listing may answer a call: it is younger than {@link LISTING_TTL_MS} and, with
 * `after`, it started after that tick of its server's clock, so it saw every change made before it.
 */
export function mayServe(listing: { startSeq: number; startedAt: number }, after?: number): boolean {
  return (after === undefined || listing.startSeq > after) && Date.now() - listing.startedAt < LISTING_TTL_MS;
}

/** The records of a listing as lookups find them (`S`: what a lookup gives, `T`: what it answers). */
export interface RecordIndex<L, T, S> {
  /** The records of a page, as it arrives. */
  listed(records: readonly L[]): void;
  /** The record, checked; throws a `ResponseShapeError` when it does not match its schema. */
  find(selector: S): T | undefined;
}

/** Records looked up by id, what most listings need. */
export class IdIndex<T> implements RecordIndex<ListedRecord<T>, T, string> {
  private readonly byId = new Map<string, ListedRecord<T>>();

  listed(records: readonly ListedRecord<T>[]): void {
    for (const record of records) this.byId.set(record.id, record);
  }

  find(id: string): T | undefined {
    return this.byId.get(id)?.record();
  }
}

/** A new {@link IdIndex}: the `index` argument of a lookup by id. */
export const byId = <T>(): IdIndex<T> => new IdIndex<T>();

/** One server's listings, as one client sees them. */
export class ListingMemory {
  /** The shared listings, by the listing's path. */
  readonly listings = new Map<string, SharedListing<unknown, unknown, unknown>>();
  private clock = 0;

  /**
   * The next tick of the clock that orders calls and listings: a listing whose tick is greater than a
   * call's started after that call, so it saw every change made before the call.
   */
  tick(): number {
    this.clock += 1;
    return this.clock;
  }
}

/** The listing memory of `transport`'s server, made on first use. */
export const listingMemoryOf = perServer(() => new ListingMemory());

interface Waiter<T, S> {
  selector: S;
  resolve: (record: T | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * One listing, filled page by page. A listing whose pages disagree is read again (api/listing-pages.ts);
 * its pages still fill the index, since a record on any page was really listed, and a lookup waits on.
 * A record is missing only once a read's pages agreed without it; a listing that never agreed fails
 * every lookup still waiting.
 */
export class SharedListing<L, T, S> {
  /** Settles when every page is in (or one failed). */
  readonly done: Promise<void>;
  private readonly waiters = new Set<Waiter<T, S>>();
  private outcome: { failed: false } | { failed: true; error: unknown } | undefined;

  constructor(
    read: (onPage: (records: L[]) => void) => Promise<void>,
    readonly index: RecordIndex<L, T, S>,
    /** Its tick of its server's clock: later than every call before it, earlier than every call after. */
    readonly startSeq: number,
    readonly startedAt: number,
  ) {
    this.done = read((records) => this.page(records)).then(
      () => this.settle({ failed: false }),
      (error: unknown) => {
        this.settle({ failed: true, error });
        throw error;
      },
    );
  }

  /** The record, as soon as a page has it; `undefined` once every page is in without it. */
  find(selector: S): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      const waiter = { selector, resolve, reject };
      if (!this.settleWaiter(waiter)) this.waiters.add(waiter);
    });
  }

  private page(records: L[]): void {
    this.index.listed(records);
    for (const waiter of this.waiters) if (this.settleWaiter(waiter)) this.waiters.delete(waiter);
  }

  private settle(outcome: NonNullable<SharedListing<L, T, S>["outcome"]>): void {
    this.outcome = outcome;
    for (const waiter of this.waiters) this.settleWaiter(waiter);
    this.waiters.clear();
  }

  /**
   * Settles `waiter` with its record when the index has it (or the error of a record the server
   * described wrongly), else with the listing's outcome once there is one. `false`: it must wait.
   */
  private settleWaiter(waiter: Waiter<T, S>): boolean {
    let record: T | undefined;
    try {
      record = this.index.find(waiter.selector);
    } catch (error) {
      waiter.reject(error);
      return true;
    }
    if (record !== undefined) waiter.resolve(record);
    else if (this.outcome === undefined) return false;
    else if (this.outcome.failed) waiter.reject(this.outcome.error);
    else waiter.resolve(undefined);
    return true;
  }
}

/** The shared listing at `listing.path`, or a new one; with `after`, only one that started after it. */
export function sharedListing<T, L extends ListedRecord<T>, S>(
  transport: Transport,
  listing: Listing<T, L>,
  index: () => RecordIndex<L, T, S>,
  after?: number,
): SharedListing<L, T, S> {
  const memory = listingMemoryOf(transport);
  const listings = memory.listings as Map<string, SharedListing<L, T, S>>;
  const existing = listings.get(listing.path);
  if (existing !== undefined && mayServe(existing, after)) return existing;
  const entry = new SharedListing<L, T, S>(
    (onPage) => readListingByPage(transport, listing, onPage),
    index(),
    memory.tick(),
    Date.now(),
  );
  listings.set(listing.path, entry);
  entry.done.catch(() => {
    if (listings.get(listing.path) === entry) listings.delete(listing.path);
  });
  return entry;
}

/** The index of the shared listing at `path`, if there is one (to keep it fresh with a response). */
export function sharedIndex<I>(transport: Transport, path: string): I | undefined {
  return listingMemoryOf(transport).listings.get(path)?.index as I | undefined;
}

/**
 * Find a record in the shared listing, as soon as the page that holds it is in; a record missing from
 * it is looked for once more, in a listing that started after both this call and that listing (one
 * shared by all such callers). `undefined`: two listings whose pages agreed both lack it.
 */
export async function findListed<T, L extends ListedRecord<T>, S>(
  transport: Transport,
  listing: Listing<T, L>,
  selector: S,
  index: () => RecordIndex<L, T, S>,
): Promise<T | undefined> {
  const call = listingMemoryOf(transport).tick();
  const first = sharedListing(transport, listing, index);
  const found = await first.find(selector);
  if (found !== undefined) return found;
  return sharedListing(transport, listing, index, Math.max(call, first.startSeq)).find(selector);
}

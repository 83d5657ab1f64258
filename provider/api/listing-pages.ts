/**
 * Reading a paged listing so that it can be trusted: pages are offsets into a list that others may
 * change meanwhile (spec, List API keys: `pageNum`, `itemsPerPage`, `totalCount`), so a read whose
 * pages disagree is read again, and reported when it never agrees.
 */

import { isRecord } from "../client/is-record";
import type { JsonResponse } from "../client/types";
import { quoteValue } from "./ids";
import { InconsistentListingError, type ListingNoun } from "./inconsistent-listing-error";
import { InputError } from "./input-error";
import { ListedRecord } from "./listed-record";
import { unnamedRecordError } from "./parse";
import { MAX_ITEMS_PER_PAGE } from "./schemas";
import type { Transport } from "./transport";

export type { ListingNoun } from "./inconsistent-listing-error";

/** Which page to read, as `readConsistentListing` asks it of its page reader. */
export interface PageRequest {
  pageNum: number;
  itemsPerPage: number;
}

/** Which page of a listing to read. */
export interface PageOptions {
  /** 1-based. Default 1. */
  pageNum?: number;
  /** 1 to 500. Default 500 (the spec's maximum: fewer round trips). */
  itemsPerPage?: number;
}

/** `pageNum` and `itemsPerPage` of one page, defaults filled in and checked before anything is sent. */
export function pageQuery(options: PageOptions): PageRequest {
  const pageNum = options.pageNum ?? 1;
  const itemsPerPage = options.itemsPerPage ?? MAX_ITEMS_PER_PAGE;
  if (!Number.isInteger(pageNum) || pageNum < 1) {
    throw new InputError("pageNum", "must be a whole number from 1", quoteValue(pageNum));
  }
  if (!Number.isInteger(itemsPerPage) || itemsPerPage < 1 || itemsPerPage > MAX_ITEMS_PER_PAGE) {
    throw new InputError(
      "itemsPerPage",
      `must be a whole number from 1 to ${MAX_ITEMS_PER_PAGE}`,
      quoteValue(itemsPerPage),
    );
  }
  return { pageNum, itemsPerPage };
}

/** How many times a listing whose pages disagree is read in all before it is reported. */
export const LISTING_READS = 3;

// Pages asked at once after page 1: a listing of thousands is not read one round trip at a time, nor
// does it crowd out the deployment's other calls.
const PAGES_AT_ONCE = 8;

/** How a listing is read. */
export interface ListAllOptions {
  /** Asked of page 1, 1 to 500. Default 500. A server that serves fewer sets the size of the others. */
  itemsPerPage?: number;
  /** Reads of the whole listing, at most, while its pages disagree. Default {@link LISTING_READS}. */
  maxReads?: number;
}

/** One page of a listing: its records (by id), the server's count, and its URL for errors. */
export interface Page<K> {
  results: K[];
  totalCount: number;
  /** The page's absolute URL, query included. */
  url: string;
}

/** One listing of the API: where it is, what it lists, how its records are read ({@link ListedRecord}). */
export interface Listing<T, L extends ListedRecord<T> = ListedRecord<T>> {
  /** Below the API root, its ids checked: `/orgs/{ORG-ID}/apiKeys`. Also what the listing is known by. */
  readonly path: string;
  readonly noun: ListingNoun;
  /** The GET of one page, its errors told in this API's terms. */
  readonly get: (transport: Transport, query: PageRequest) => Promise<JsonResponse>;
  /** Reads `results[index]` of a page whole; throws a `ResponseShapeError` naming its place. */
  readonly check: (response: JsonResponse, value: unknown, index: number) => T;
  /** Checks a page's envelope (`results`, `totalCount`); throws a `ResponseShapeError`. */
  readonly envelope: (response: JsonResponse) => { results: unknown[]; totalCount: number };
  /** The string fields a record must carry to be listed at all, its id first. */
  readonly names: readonly [string, ...string[]];
  /** The listed record, made of its names and its check. */
  readonly listed: (names: Readonly<Record<string, string>>, check: () => T) => L;
}

/** A listed record of its id alone: what {@link Listing.listed} is for most listings. */
export const listedById = <T>(names: Readonly<Record<string, string>>, check: () => T): ListedRecord<T> =>
  new ListedRecord(names.id ?? "", check);

/** One page of `listing`: envelope checked now, records when used; a record without its names fails it. */
export async function readListingPage<T, L extends ListedRecord<T>>(
  transport: Transport,
  listing: Listing<T, L>,
  page: PageOptions = {},
): Promise<Page<L>> {
  const response = await listing.get(transport, pageQuery(page));
  const envelope = listing.envelope(response);
  const results = envelope.results.map((value, index) => {
    const names: Record<string, string> = {};
    for (const name of listing.names) {
      const field = isRecord(value) ? value[name] : undefined;
      if (typeof field !== "string" || field === "") {
        // The record's own check says best what is wrong; the missing names, when it finds nothing.
        listing.check(response, value, index);
        throw unnamedRecordError(response, listing.path, index, listing.names.join(" or "));
      }
      names[name] = field;
    }
    return listing.listed(names, () => listing.check(response, value, index));
  });
  return { results, totalCount: envelope.totalCount, url: response.url };
}

/**
 * Every record of `listing`, handed to `onPage` as each read's pages arrive (a record on any page was
 * really listed). Resolves once a read's pages agreed: a caller that takes a missing record to be gone
 * must look again. Rejects with an `InconsistentListingError`, or with the first page's error.
 */
export async function readListingByPage<T, L extends ListedRecord<T>>(
  transport: Transport,
  listing: Listing<T, L>,
  onPage: (records: L[]) => void,
  options: ListAllOptions = {},
): Promise<void> {
  await readConsistentListing(listing.path, (page) => readListingPage(transport, listing, page), options, {
    onPage: (records) => onPage(records),
    noun: listing.noun,
  });
}

/** Every record of `listing`, each once and checked; `sameTwice` as {@link ListingReadOptions.sameTwice}. */
export async function readWholeListing<T, L extends ListedRecord<T>>(
  transport: Transport,
  listing: Listing<T, L>,
  options: ListAllOptions = {},
  how: { sameTwice?: boolean } = {},
): Promise<T[]> {
  const pages = await readConsistentListing(
    listing.path,
    (page) => readListingPage(transport, listing, page),
    options,
    { sameTwice: how.sameTwice ?? false, noun: listing.noun },
  );
  return pages.flat().map((record) => record.record());
}

/** The pages of one read of a listing, in page order, or how they disagreed. */
type Read<K> = { pages: K[][]; url: string; disagreement?: string };

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Reads a listing once, page 1 then the others concurrently, and says whether the pages agree: each
 * gives page 1's `totalCount`, each but the last is full, the last holds the rest, and no id is on two.
 * A record added or deleted before the page being read shifts the later pages by one (offset paging),
 * leaving a record on no page or on two. Once a page disagrees no other page is asked.
 */
async function readListingOnce<K extends { id: string }>(
  readPage: (request: PageRequest) => Promise<Page<K>>,
  itemsPerPage: number,
  onPage: (records: K[], pageNum: number) => void,
  noun: ListingNoun,
): Promise<Read<K>> {
  const first = await readPage({ pageNum: 1, itemsPerPage });
  onPage(first.results, 1);
  const total = first.totalCount;
  const served = first.results.length;
  const read: Read<K> = { pages: [first.results], url: first.url };
  // A page 1 shorter than asked while more records exist shows the server's own page size (some servers
  // cap itemsPerPage silently): the other pages are asked with it, so their offsets are unambiguous.
  const size = served < itemsPerPage && total > served ? served : itemsPerPage;
  if (size === 0) {
    read.disagreement = `page 1 held no ${noun.items}, though its totalCount said ${count(total)}`;
    return read;
  }
  const pageCount = Math.max(1, Math.ceil(total / size));
  const disagrees = (page: Page<K>, pageNum: number): string | undefined => {
    if (page.totalCount !== total) {
      return `page ${pageNum} said ${count(page.totalCount)} ${noun.items} where page 1 said ${count(total)}`;
    }
    const due = pageNum < pageCount ? size : total - (pageCount - 1) * size;
    if (page.results.length !== due) {
      return `page ${pageNum} of ${pageCount} held ${count(page.results.length)} ${noun.items}, not the ${count(due)} that ${count(total)} ${noun.items} in pages of ${count(size)} leave it`;
    }
    return undefined;
  };
  read.disagreement = disagrees(first, 1);
  let next = 2;
  const worker = async () => {
    while (next <= pageCount && read.disagreement === undefined) {
      const pageNum = next++;
      const page = await readPage({ pageNum, itemsPerPage: size });
      read.pages[pageNum - 1] = page.results;
      read.url = page.url;
      onPage(page.results, pageNum);
      read.disagreement ??= disagrees(page, pageNum);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, pageCount - 1) }, worker));
  if (read.disagreement !== undefined) return read;
  const pageOf = new Map<string, number>();
  read.pages.forEach((records, i) => {
    for (const record of records) {
      const seen = pageOf.get(record.id);
      if (seen !== undefined) {
        read.disagreement ??= `${noun.item} ${record.id} was on page ${seen} and on page ${i + 1}`;
      } else pageOf.set(record.id, i + 1);
    }
  });
  if (read.disagreement === undefined && pageOf.size !== total) {
    read.disagreement = `the pages held ${count(pageOf.size)} distinct ${noun.items} where totalCount said ${count(total)}`;
  }
  return read;
}

/** How {@link readConsistentListing} hands pages over and when it accepts a read. */
export interface ListingReadOptions<K> {
  /** Called with every page of every read as it arrives: a record on any page was really listed. */
  onPage?: (records: K[], pageNum: number) => void;
  /**
   * Accept a read whose pages agree only when the read just before it agreed too and listed the same
   * ids. A record deleted and another added between two pages (a rotation) leave the pages agreeing
   * while a record slid onto a page already read: such a read lacks a live one; the next read shows it.
   */
  sameTwice?: boolean;
  /** What the listing lists, for its messages. */
  noun: ListingNoun;
}

const idsOf = <K extends { id: string }>(pages: K[][]) => new Set(pages.flat().map((record) => record.id));

/** The first id that is in one of two reads and not in the other, said so; `undefined`: the same ids. */
function oneOnly(first: Set<string>, second: Set<string>, noun: ListingNoun): string | undefined {
  for (const id of first) if (!second.has(id)) return `${noun.item} ${id} was in the first only`;
  for (const id of second) if (!first.has(id)) return `${noun.item} ${id} was in the second only`;
  return undefined;
}

/**
 * The pages of a listing, in page order, read until they agree (see {@link readListingOnce}) or, with
 * `sameTwice`, until two reads in a row agree and list the same ids, at most `maxReads` times in all.
 * Throws an {@link InconsistentListingError} when no read was accepted.
 */
export async function readConsistentListing<K extends { id: string }>(
  path: string,
  readPage: (request: PageRequest) => Promise<Page<K>>,
  options: ListAllOptions,
  how: ListingReadOptions<K>,
): Promise<K[][]> {
  const itemsPerPage = options.itemsPerPage ?? MAX_ITEMS_PER_PAGE;
  const maxReads = options.maxReads ?? LISTING_READS;
  const least = how.sameTwice ? 2 : 1;
  if (!Number.isInteger(maxReads) || maxReads < least) {
    throw new InputError("maxReads", `must be a whole number from ${least}`, quoteValue(maxReads));
  }
  const onPage = how.onPage ?? (() => {});
  const { noun } = how;
  let before: Set<string> | undefined;
  let disagreement = "";
  let url = "";
  for (let reads = 1; reads <= maxReads; reads++) {
    const read = await readListingOnce(readPage, itemsPerPage, onPage, noun);
    url = read.url;
    if (read.disagreement !== undefined) {
      disagreement = read.disagreement;
      before = undefined;
      continue;
    }
    if (!how.sameTwice) return read.pages;
    const ids = idsOf(read.pages);
    const differs = before === undefined ? undefined : oneOnly(before, ids, noun);
    if (before !== undefined && differs === undefined) return read.pages;
    if (differs !== undefined) {
      disagreement = `two reads in a row whose pages agreed listed different ${noun.items} (${differs})`;
    }
    before = ids;
  }
  throw new InconsistentListingError({
    path,
    url: url.split("?")[0]!,
    reads: maxReads,
    disagreement,
    sameTwice: how.sameTwice ?? false,
    noun,
  });
}

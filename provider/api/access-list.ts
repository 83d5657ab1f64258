/**
 * An organization API key's access list (the Ops Manager documentation; not in the spec): `GET`/`POST
 * /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList` and `DELETE …/accessList/{ENTRY}`. The POST takes an
 * array, even of one entry, only adds, and answers the whole list.
 */
import { z } from "zod";
import { ApiError } from "../client/errors";
import type { JsonResponse, RequestOptions } from "../client/types";
import { type CanonicalEntry, canonicalEntry, isCanonicalEntry } from "./access-list-entry";
import { explainAuthorization } from "./authorization-error";
import { defineListing } from "./define-listing";
import { idSegment, quoteValue } from "./ids";
import { InputError } from "./input-error";
import { ListedRecord } from "./listed-record";
import { type ListAllOptions, type Listing, readWholeListing } from "./listing-pages";
import { explainNotFound } from "./not-found";
import { parseResponse } from "./parse";
import { sendRequest } from "./request";
import type { Transport } from "./transport";

/** An entry of a key's access list as the server shows it, known by its canonical spelling. */
export interface AccessListEntry extends CanonicalEntry {
  /** As the server spells it: `10.0.0.0/24`, or `10.0.0.1/32` for an address. */
  cidrBlock: string;
  /** Only for an address entry. */
  ipAddress?: string;
  created?: string;
  lastUsed?: string;
  lastUsedAddress?: string;
  count?: number;
}

// The entry is the address when the server gives one, else the block; the rest is dropped unread.
const entrySchema = z
  .object({
    cidrBlock: z.string().min(1),
    ipAddress: z.string().min(1).optional(),
    created: z.string().optional(),
    lastUsed: z.string().optional(),
    lastUsedAddress: z.string().optional(),
    count: z.number().int().nonnegative().optional(),
  })
  .transform((record, ctx) => {
    const canonical = canonicalEntry(record.ipAddress ?? record.cidrBlock);
    if (isCanonicalEntry(canonical)) return { ...record, ...canonical };
    ctx.addIssue({
      code: "custom",
      path: [record.ipAddress === undefined ? "cidrBlock" : "ipAddress"],
      message: `${quoteValue(record.ipAddress ?? record.cidrBlock)} ${canonical.rule}`,
    });
    return z.NEVER;
  });

const entryPageSchema = z.object({
  results: z.array(entrySchema),
  totalCount: z.number().int().nonnegative(),
});

/** How a key's access list names what it lists, in the messages of a listing that never agrees. */
const ENTRIES = { item: "entry", items: "entries", listing: "the API key's access list" } as const;

function listPath(orgId: string, apiKeyId: string): string {
  return `/orgs/${idSegment("orgId", orgId)}/apiKeys/${idSegment("apiKeyId", apiKeyId)}/accessList`;
}

/**
 * The path segment of an entry: its one `/` written `%2F`, as the documentation's path parameter; a
 * canonical entry needs no other escape. Escaped twice (`%252F`), it names an entry no list has
 * (mongodb/terraform-provider-mongodbatlas#1984).
 */
export function entrySegment(entry: string): string {
  const parsed = canonicalEntry(entry);
  if (!isCanonicalEntry(parsed) || parsed.entry !== entry) {
    throw new InputError("entry", "must be an access-list entry in canonical spelling", quoteValue(entry));
  }
  return entry.replace("/", "%2F");
}

// Who may read or change a key's access list: the key itself, or an Organization Owner (the error
// table's API_KEY_ACCESS_LIST_ACCESS_DENIED: "the API Key or a user administrator").
const WHO_MAY =
  "only the API key itself or an Organization Owner (ORG_OWNER) may read or change a key's access list; configure the provider with such a key";

function explain(error: unknown, orgId: string, apiKeyId: string): unknown {
  // Not about an id of the path: the entry named last in it is not on the list.
  if (error instanceof ApiError && error.errorCode === "API_KEY_ACCESS_LIST_NOT_FOUND") {
    return error.withHint("the key's access list has no such entry; it may have been removed already");
  }
  const told = explainAuthorization(explainNotFound(error, { orgId, apiKeyId }), {
    kind: "apiKeyAccessList",
    orgId,
  });
  if (told instanceof ApiError && told.errorCode === "API_KEY_ACCESS_LIST_ACCESS_DENIED") {
    return told.withHint(WHO_MAY);
  }
  return told;
}

function requestAs(transport: Transport, options: RequestOptions, orgId: string, apiKeyId: string) {
  return sendRequest(transport, options, (error) => explain(error, orgId, apiKeyId));
}

/** `GET …/accessList`: a key's access list, each entry known by its `cidrBlock` (an address's too). */
export function accessListListing(orgId: string, apiKeyId: string): Listing<AccessListEntry> {
  const path = listPath(orgId, apiKeyId);
  return defineListing({
    path,
    noun: ENTRIES,
    schema: entrySchema,
    names: ["cidrBlock"],
    listed: (names, check) => new ListedRecord(names.cidrBlock ?? "", check),
    get: (transport, query) =>
      requestAs(transport, { method: "GET", path, query: { ...query } }, orgId, apiKeyId),
  });
}

/** Every entry of a key's access list, each once, its pages read until they agree. */
export async function listAccessList(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  options: ListAllOptions = {},
): Promise<AccessListEntry[]> {
  return readWholeListing(transport, accessListListing(orgId, apiKeyId), options);
}

/** What the POST answered: the list's entries, and whether they are all of it (one page of it, else). */
export interface AccessListAfterAdd {
  entries: AccessListEntry[];
  complete: boolean;
}

/**
 * `POST …/accessList` with `entries` (canonical spellings) as one array: `{ipAddress}` for an address,
 * `{cidrBlock}` for a block, never both (the error table refuses both). Never retried: not declared
 * idempotent. The answer is the list (its first page, should the server page it).
 */
export async function addToAccessList(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  entries: readonly string[],
): Promise<AccessListAfterAdd> {
  const body = entries.map((entry) => {
    const parsed = canonicalEntry(entry);
    if (!isCanonicalEntry(parsed) || parsed.entry !== entry) {
      throw new InputError("entries", "must be access-list entries in canonical spelling", quoteValue(entry));
    }
    return parsed.kind === "address" ? { ipAddress: entry } : { cidrBlock: entry };
  });
  if (body.length === 0) throw new InputError("entries", "must name at least one entry to add");
  const path = listPath(orgId, apiKeyId);
  const response: JsonResponse = await requestAs(transport, { method: "POST", path, body }, orgId, apiKeyId);
  const page = parseResponse(entryPageSchema, response, "POST", path);
  return { entries: page.results, complete: page.results.length === page.totalCount };
}

/** How the server spells an entry in its listing: an address's `ipAddress`, else the `cidrBlock`. */
export type ListedSpelling = Pick<AccessListEntry, "cidrBlock" | "ipAddress">;

/** The spelling of `listed` that its path names: the address for an address entry, else the block. */
export function spellingOf(listed: ListedSpelling): string {
  return listed.ipAddress ?? listed.cidrBlock;
}

/**
 * The path segment of an entry as the server's listing spells it (`2001:0db8::1`, `10.0.0.0/24`): a
 * server that keeps the spelling it was given finds the entry only by it. Its `/` is written `%2F`; any
 * character an address or block has no use for is refused.
 */
export function listedEntrySegment(listed: ListedSpelling): string {
  const spelling = spellingOf(listed);
  if (!/^[0-9A-Fa-f.:]+(\/\d{1,3})?$/.test(spelling)) {
    throw new InputError(
      "entry",
      "must be an access-list entry as the server lists it",
      quoteValue(spelling),
    );
  }
  return spelling.replace("/", "%2F");
}

/**
 * `DELETE …/accessList/{ENTRY}`, declared idempotent: removing an entry twice is removing it once. The
 * entry is named as the server's listing spells it when given so, else in canonical spelling.
 */
export async function removeFromAccessList(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  entry: string | ListedSpelling,
): Promise<void> {
  const segment = typeof entry === "string" ? entrySegment(entry) : listedEntrySegment(entry);
  const path = `${listPath(orgId, apiKeyId)}/${segment}`;
  await requestAs(transport, { method: "DELETE", path, idempotent: true }, orgId, apiKeyId);
}

/** Whether `error` says the entry is not on the key's list (`API_KEY_ACCESS_LIST_NOT_FOUND`, 404). */
export function isAccessListEntryGone(error: unknown): boolean {
  return (
    error instanceof ApiError && error.errorCode === "API_KEY_ACCESS_LIST_NOT_FOUND" && error.status === 404
  );
}

import { isRecord } from "../client/is-record";
import type { JsonResponse, RequestOptions } from "../client/types";
import { explainAuthorization, type Operation } from "./authorization-error";
import { idSegment, quoteValue } from "./ids";
import { InputError } from "./input-error";
import { ListedRecord } from "./listed-record";
import { type ListAllOptions, type Page, pageQuery, readConsistentListing } from "./listing-pages";
import { explainNotFound, type PathIds } from "./not-found";
import { parseResponse, unnamedRecordError } from "./parse";
import { sendRequest } from "./request";
import { apiKeyListingSchema, apiKeyPageSchema, apiKeySchema } from "./schemas";
import type { Transport } from "./transport";
import { type ApiKey, type ApiKeyPage, ORG_ROLES, type OrgRole } from "./types";

export { LISTING_READS, type ListAllOptions } from "./listing-pages";

/** Which page of an organization's keys to read. */
export interface PageOptions {
  /** 1-based. Default 1. */
  pageNum?: number;
  /** 1 to 500. Default 500 (the spec's maximum: fewer round trips). */
  itemsPerPage?: number;
}

/** The change a PATCH carries: at least one of the two. */
export interface ApiKeyChange {
  desc?: string;
  roles?: OrgRole[];
}

/** Where to find a key: by its id or by its public key. */
export type ApiKeySelector = { id: string; publicKey?: undefined } | { publicKey: string; id?: undefined };

/**
 * One request of a key operation, its errors told in this API's terms: a 401 with an `errorCode` as
 * the role `operation` needs, a "not found" answer as the id in `ids` the server did not know.
 */
function requestAs(transport: Transport, operation: Operation, options: RequestOptions, ids: PathIds) {
  return sendRequest(transport, options, (error) =>
    explainAuthorization(explainNotFound(error, ids), operation),
  );
}

function keysPath(orgId: string): string {
  return `/orgs/${idSegment("orgId", orgId)}/apiKeys`;
}

/** `GET /orgs/{ORG-ID}/apiKeys` for one page, its options checked before anything is sent. */
async function getKeysPage(
  transport: Transport,
  orgId: string,
  options: PageOptions,
): Promise<{ response: JsonResponse; path: string }> {
  const { pageNum, itemsPerPage } = pageQuery(options);
  const path = keysPath(orgId);
  const response = await requestAs(
    transport,
    { kind: "listOrgApiKeys", orgId },
    { method: "GET", path, query: { pageNum, itemsPerPage } },
    { orgId },
  );
  return { response, path };
}

/** `GET /orgs/{ORG-ID}/apiKeys`: one page of an organization's API keys. */
export async function listOrgApiKeysPage(
  transport: Transport,
  orgId: string,
  options: PageOptions = {},
): Promise<ApiKeyPage> {
  const { results, totalCount } = await readCheckedPage(transport, orgId, options);
  return { results, totalCount };
}

/** One page, every key checked against the schema, and the URL it came from. */
async function readCheckedPage(
  transport: Transport,
  orgId: string,
  options: PageOptions,
): Promise<Page<ApiKey>> {
  const { response, path } = await getKeysPage(transport, orgId, options);
  return { ...parseResponse(apiKeyPageSchema, response, "GET", path), url: response.url };
}

/**
 * A key of an organization's listing: its id and public key read, the rest of its record checked
 * against the key schema (and its private key masked) only when {@link key} is first called, so that a
 * key the server describes wrongly fails only the resource that uses it (see {@link ListedRecord}).
 */
export class ListedApiKey extends ListedRecord<ApiKey> {
  readonly publicKey: string;

  constructor(
    record: Record<string, unknown> & { id: string; publicKey: string },
    response: JsonResponse,
    path: string,
    index: number,
  ) {
    super(record.id, () =>
      parseResponse(apiKeySchema, response, "GET", path, { value: record, at: ["results", index] }),
    );
    this.publicKey = record.publicKey;
  }

  /** The key as the schema reads it; throws a `ResponseShapeError` naming the key's place in its page. */
  key(): ApiKey {
    return this.checked();
  }
}

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * `GET /orgs/{ORG-ID}/apiKeys`, with the page's envelope checked now and each key when it is used
 * (see {@link ListedApiKey}). A key without an id or public key fails the whole page, as
 * {@link listOrgApiKeysPage} would.
 */
export async function listOrgApiKeysPageCheckedOnUse(
  transport: Transport,
  orgId: string,
  options: PageOptions = {},
): Promise<Page<ListedApiKey>> {
  const { response, path } = await getKeysPage(transport, orgId, options);
  const page = parseResponse(apiKeyListingSchema, response, "GET", path);
  const results: ListedApiKey[] = [];
  for (const [index, record] of page.results.entries()) {
    if (!isRecord(record) || !isNonEmptyString(record.id) || !isNonEmptyString(record.publicKey)) {
      // Not even an id and a public key: the whole page's schema says what is wrong, as it would have.
      parseResponse(apiKeyPageSchema, response, "GET", path);
      throw unnamedRecordError(response, path, index, "id or public key");
    }
    results.push(
      new ListedApiKey(
        record as Record<string, unknown> & { id: string; publicKey: string },
        response,
        path,
        index,
      ),
    );
  }
  return { results, totalCount: page.totalCount, url: response.url };
}

/**
 * Every API key of an organization, each once and checked against the schema: page 1 first (500 keys
 * a page, or the server's own page size when it serves fewer), then the other pages concurrently. The
 * org is read twice, one read after the other, and the listing is taken only when both reads' pages
 * agree and list the same ids: a key deleted and another added between two pages (a rotation) leave
 * one read's pages agreeing without a live key, which the next read has. A read whose pages disagree,
 * or that lists other ids than the read before it, is followed by another, up to `LISTING_READS`
 * reads in all, then the listing is reported with an `InconsistentListingError`.
 */
export async function listAllOrgApiKeys(
  transport: Transport,
  orgId: string,
  options: ListAllOptions = {},
): Promise<ApiKey[]> {
  const pages = await readConsistentListing(
    keysPath(orgId),
    (page) => readCheckedPage(transport, orgId, page),
    options,
    { sameTwice: true },
  );
  return pages.flat();
}

/**
 * Every API key of an organization as {@link ListedApiKey}s, handed to `onPage` page by page as they
 * arrive, so a caller can use a key before the whole listing is in. A listing whose pages disagree is
 * read again, up to `LISTING_READS` reads in all, and every read's pages are handed over (a key on any
 * page was really listed). Resolves when a read's pages agreed (once: a caller that takes a missing key
 * to be gone must look again, as the shared org listing does); rejects with an
 * `InconsistentListingError` when none did.
 */
export async function listOrgApiKeysByPage(
  transport: Transport,
  orgId: string,
  onPage: (keys: ListedApiKey[]) => void,
  options: ListAllOptions = {},
): Promise<void> {
  await readConsistentListing(
    keysPath(orgId),
    (page) => listOrgApiKeysPageCheckedOnUse(transport, orgId, page),
    options,
    { onPage: (keys) => onPage(keys) },
  );
}

/**
 * `PATCH /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}` with only the given fields. At least one of `desc` and
 * `roles` is required (spec, Update an API key); roles are organization role names.
 */
export async function patchOrgApiKey(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  change: ApiKeyChange,
): Promise<ApiKey> {
  const body: ApiKeyChange = {};
  if (change.desc !== undefined) {
    if (typeof change.desc !== "string")
      throw new InputError("desc", "must be a string", quoteValue(change.desc));
    body.desc = change.desc;
  }
  if (change.roles !== undefined) {
    if (!Array.isArray(change.roles)) throw new InputError("roles", "must be an array of role names");
    change.roles.forEach((role, i) => {
      if (!(ORG_ROLES as readonly string[]).includes(role)) {
        throw new InputError(`roles[${i}]`, `must be one of ${ORG_ROLES.join(", ")}`, quoteValue(role));
      }
    });
    body.roles = [...change.roles];
  }
  if (body.desc === undefined && body.roles === undefined) {
    throw new InputError("desc/roles", "at least one of desc and roles must be given to update an API key");
  }
  const path = `${keysPath(orgId)}/${idSegment("apiKeyId", apiKeyId)}`;
  const response = await requestAs(
    transport,
    { kind: "updateOrgApiKey", orgId },
    // It sets desc and roles to the values sent: sending it twice is sending it once.
    { method: "PATCH", path, body, idempotent: true },
    { orgId, apiKeyId },
  );
  return parseResponse(apiKeySchema, response, "PATCH", path);
}

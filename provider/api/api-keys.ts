import { idSegment, show } from "./ids";
import { InputError } from "./input-error";
import { parseResponse } from "./parse";
import {
  type ApiKey,
  type ApiKeyPage,
  apiKeyPageSchema,
  apiKeySchema,
  MAX_ITEMS_PER_PAGE,
  ORG_ROLES,
  type OrgRole,
} from "./schemas";
import type { Transport } from "./transport";

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

function keysPath(orgId: string): string {
  return `/orgs/${idSegment("orgId", orgId)}/apiKeys`;
}

/** `GET /orgs/{ORG-ID}/apiKeys`: one page of an organization's API keys. */
export async function listOrgApiKeysPage(
  transport: Transport,
  orgId: string,
  options: PageOptions = {},
): Promise<ApiKeyPage> {
  const pageNum = options.pageNum ?? 1;
  const itemsPerPage = options.itemsPerPage ?? MAX_ITEMS_PER_PAGE;
  if (!Number.isInteger(pageNum) || pageNum < 1) {
    throw new InputError("pageNum", "must be a whole number from 1", show(pageNum));
  }
  if (!Number.isInteger(itemsPerPage) || itemsPerPage < 1 || itemsPerPage > MAX_ITEMS_PER_PAGE) {
    throw new InputError(
      "itemsPerPage",
      `must be a whole number from 1 to ${MAX_ITEMS_PER_PAGE}`,
      show(itemsPerPage),
    );
  }
  const path = keysPath(orgId);
  const response = await transport.request({ method: "GET", path, query: { pageNum, itemsPerPage } });
  return parseResponse(apiKeyPageSchema, response, "GET", path);
}

/** How {@link listAllOrgApiKeys} reads the pages. */
export interface ListAllOptions {
  /** 1 to 500. Default 500. */
  itemsPerPage?: number;
  /** Pages read at once after page 1. Default 8. */
  concurrency?: number;
  /**
   * Called with each page's keys as soon as that page is read and checked (page 1 first, the others
   * as they arrive), so a caller can use a key before the whole listing is in.
   */
  onPage?: (keys: ApiKey[]) => void;
}

/**
 * Every API key of an organization. Reads page 1, learns `totalCount`, then reads the other pages
 * concurrently (500 keys a page), and stops at `totalCount`. A key that moves between pages while
 * they are read is returned once.
 */
export async function listAllOrgApiKeys(
  transport: Transport,
  orgId: string,
  options: ListAllOptions = {},
): Promise<ApiKey[]> {
  const itemsPerPage = options.itemsPerPage ?? MAX_ITEMS_PER_PAGE;
  const first = await listOrgApiKeysPage(transport, orgId, { pageNum: 1, itemsPerPage });
  options.onPage?.(first.results);
  const pageCount = Math.max(1, Math.ceil(first.totalCount / itemsPerPage));
  const pages: ApiKeyPage[] = [first];
  if (pageCount > 1 && first.results.length > 0) {
    const rest = Array.from({ length: pageCount - 1 }, (_, i) => i + 2);
    const concurrency = Math.max(1, options.concurrency ?? 8);
    const read: ApiKeyPage[] = new Array(rest.length);
    let next = 0;
    const worker = async () => {
      while (next < rest.length) {
        const index = next++;
        const page = await listOrgApiKeysPage(transport, orgId, { pageNum: rest[index], itemsPerPage });
        read[index] = page;
        options.onPage?.(page.results);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rest.length) }, worker));
    pages.push(...read);
  }
  const byId = new Map<string, ApiKey>();
  for (const page of pages) for (const key of page.results) byId.set(key.id, key);
  return [...byId.values()];
}

/** The key `selector` names among `keys`, or `undefined`. */
export function selectApiKey(keys: Iterable<ApiKey>, selector: ApiKeySelector): ApiKey | undefined {
  for (const key of keys) {
    if (selector.id !== undefined ? key.id === selector.id : key.publicKey === selector.publicKey) return key;
  }
  return undefined;
}

/**
 * Find one key of an organization by id or public key, through the list pages (the API has no read
 * of a single key). `undefined` when the organization has no such key.
 */
export async function findOrgApiKey(
  transport: Transport,
  orgId: string,
  selector: ApiKeySelector,
): Promise<ApiKey | undefined> {
  return selectApiKey(await listAllOrgApiKeys(transport, orgId), selector);
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
    if (typeof change.desc !== "string") throw new InputError("desc", "must be a string", show(change.desc));
    body.desc = change.desc;
  }
  if (change.roles !== undefined) {
    if (!Array.isArray(change.roles)) throw new InputError("roles", "must be an array of role names");
    change.roles.forEach((role, i) => {
      if (!(ORG_ROLES as readonly string[]).includes(role)) {
        throw new InputError(`roles[${i}]`, `must be one of ${ORG_ROLES.join(", ")}`, show(role));
      }
    });
    body.roles = [...change.roles];
  }
  if (body.desc === undefined && body.roles === undefined) {
    throw new InputError("desc/roles", "at least one of desc and roles must be given to update an API key");
  }
  const path = `${keysPath(orgId)}/${idSegment("apiKeyId", apiKeyId)}`;
  const response = await transport.request({ method: "PATCH", path, body });
  return parseResponse(apiKeySchema, response, "PATCH", path);
}

/**
 * Organization API keys in a project (the Ops Manager documentation's "Project API Keys"; not in the
 * spec): `GET /groups/{GROUP-ID}/apiKeys` lists the keys that hold a role in the project, paged as an
 * organization's keys are and read whole through the same consistent-page reader;
 * `PATCH /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}` with `{"roles": [...]}` assigns a key to the project
 * or sets its roles there ("any roles not in this array are removed"); `DELETE` of that path unassigns
 * it. There is no read of one assignment: the listing is the only way to see one.
 */
import { isRecord } from "../client/is-record";
import type { JsonResponse, RequestOptions } from "../client/types";
import { ListedApiKey } from "./api-keys";
import { explainAuthorization, type Operation } from "./authorization-error";
import { hex24Segment, quoteValue } from "./ids";
import { InputError } from "./input-error";
import {
  type ListAllOptions,
  type Page,
  type PageRequest,
  pageQuery,
  readConsistentListing,
} from "./listing-pages";
import { explainNotFound, type PathIds } from "./not-found";
import { parseResponse, unnamedRecordError } from "./parse";
import { sendRequest } from "./request";
import { apiKeyListingSchema, apiKeyPageSchema } from "./schemas";
import type { Transport } from "./transport";
import { GROUP_ROLES, type GroupRole } from "./types";

/** How a project's key listing names what it lists, in the messages of one that never agrees. */
const PROJECT_KEYS = { item: "key", items: "keys", listing: "the project's API key listing" } as const;

/** `/groups/{GROUP-ID}/apiKeys`, the project's id checked first. */
export function projectKeysPath(groupId: string): string {
  return `/groups/${hex24Segment("groupId", groupId)}/apiKeys`;
}

/** `/groups/{GROUP-ID}/apiKeys/{API-KEY-ID}`: one key's assignment to the project. */
function assignmentPath(groupId: string, apiKeyId: string): string {
  return `${projectKeysPath(groupId)}/${hex24Segment("apiKeyId", apiKeyId)}`;
}

/** One request of an assignment operation, its errors told in this API's terms (see api-keys.ts). */
function requestAs(transport: Transport, operation: Operation, options: RequestOptions, ids: PathIds) {
  return sendRequest(transport, options, (error) =>
    explainAuthorization(explainNotFound(error, ids), operation),
  );
}

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * `GET /groups/{GROUP-ID}/apiKeys`: one page of the project's keys, the envelope checked now and each
 * key when it is used (see {@link ListedApiKey}). A key without an id or public key fails the page.
 */
export async function listProjectApiKeysPage(
  transport: Transport,
  groupId: string,
  page: Partial<PageRequest> = {},
): Promise<Page<ListedApiKey>> {
  const path = projectKeysPath(groupId);
  const { pageNum, itemsPerPage } = pageQuery(page);
  const response: JsonResponse = await requestAs(
    transport,
    { kind: "listProjectApiKeys", groupId },
    { method: "GET", path, query: { pageNum, itemsPerPage } },
    { groupId },
  );
  const envelope = parseResponse(apiKeyListingSchema, response, "GET", path);
  const results = envelope.results.map((record, index) => {
    if (!isRecord(record) || !isNonEmptyString(record.id) || !isNonEmptyString(record.publicKey)) {
      // Not even an id and a public key: the whole page's schema says what is wrong.
      parseResponse(apiKeyPageSchema, response, "GET", path);
      throw unnamedRecordError(response, path, index, "id or public key");
    }
    return new ListedApiKey(
      record as Record<string, unknown> & { id: string; publicKey: string },
      response,
      path,
      index,
    );
  });
  return { results, totalCount: envelope.totalCount, url: response.url };
}

/**
 * Every key of a project with its roles, handed to `onPage` page by page as they arrive, from a read
 * whose pages agree (read again while they disagree, then an `InconsistentListingError`), as an
 * organization's keys and a project's jobs are read. Resolves once a read's pages agreed: a caller that
 * takes a missing key to be unassigned must look again in a later listing, as the org's keys do.
 */
export async function listProjectApiKeysByPage(
  transport: Transport,
  groupId: string,
  onPage: (keys: ListedApiKey[]) => void,
  options: ListAllOptions = {},
): Promise<void> {
  await readConsistentListing(
    projectKeysPath(groupId),
    (page) => listProjectApiKeysPage(transport, groupId, page),
    options,
    { onPage: (keys) => onPage(keys), noun: PROJECT_KEYS },
  );
}

/**
 * `PATCH /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}` with `{"roles": [...]}`: assign the organization
 * key to the project with exactly these project roles, or set its roles there when it is assigned
 * already. The answer differs by server version (200 with the key in newer documentation, 204 without
 * a body in older): neither is read.
 */
export async function assignProjectApiKey(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
  roles: readonly GroupRole[],
): Promise<void> {
  if (!Array.isArray(roles) || roles.length === 0) {
    throw new InputError("roles", "must be a non-empty array of project role names", quoteValue(roles));
  }
  roles.forEach((role, i) => {
    if (!(GROUP_ROLES as readonly string[]).includes(role)) {
      throw new InputError(`roles[${i}]`, `must be one of ${GROUP_ROLES.join(", ")}`, quoteValue(role));
    }
  });
  await requestAs(
    transport,
    { kind: "assignProjectApiKey", groupId },
    // It sets the whole set of roles: sending it twice is sending it once.
    {
      method: "PATCH",
      path: assignmentPath(groupId, apiKeyId),
      body: { roles: [...roles] },
      idempotent: true,
    },
    { groupId, apiKeyId },
  );
}

/**
 * `DELETE /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}`: take every role of the key in the project away.
 * A key that is not assigned there, or no longer exists, is answered `API_KEY_NOT_FOUND`.
 */
export async function unassignProjectApiKey(
  transport: Transport,
  groupId: string,
  apiKeyId: string,
): Promise<void> {
  await requestAs(
    transport,
    { kind: "unassignProjectApiKey", groupId },
    { method: "DELETE", path: assignmentPath(groupId, apiKeyId) },
    { groupId, apiKeyId },
  );
}

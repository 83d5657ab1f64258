import type { Operation } from "./authorization-error";
import { defineListing } from "./define-listing";
import { idSegment, quoteValue } from "./ids";
import { InputError } from "./input-error";
import { ListedRecord } from "./listed-record";
import type { Listing } from "./listing-pages";
import type { PathIds } from "./not-found";
import { sendOperation } from "./operation";
import { parseResponse } from "./parse";
import { apiKeySchema } from "./schemas";
import type { Transport } from "./transport";
import { type ApiKey, ORG_ROLES, type OrgRole } from "./types";

export type { PageOptions } from "./listing-pages";

/** The change a PATCH carries: at least one of the two. */
export interface ApiKeyChange {
  desc?: string;
  roles?: OrgRole[];
}

/** Where to find a key: by its id or by its public key. */
export type ApiKeySelector = { id: string; publicKey?: undefined } | { publicKey: string; id?: undefined };

/** `/orgs/{ORG-ID}/apiKeys`, the organization's id checked first. */
export function orgKeysPath(orgId: string): string {
  return `/orgs/${idSegment("orgId", orgId)}/apiKeys`;
}

/** A listed key: id and public key read now, the rest checked (and masked) when {@link key} is called. */
export class ListedApiKey extends ListedRecord<ApiKey> {
  readonly publicKey: string;

  constructor(id: string, publicKey: string, check: () => ApiKey) {
    super(id, check);
    this.publicKey = publicKey;
  }

  /** The key as the schema reads it; throws a `ResponseShapeError` naming the key's place in its page. */
  key(): ApiKey {
    return this.record();
  }
}

/** A listing of API keys at `path` (an organization's, a project's), each known by id and public key. */
export function apiKeyListing(
  path: string,
  listing: string,
  operation: Operation,
  ids: PathIds,
): Listing<ApiKey, ListedApiKey> {
  return defineListing({
    path,
    noun: { item: "key", items: "keys", listing },
    schema: apiKeySchema,
    names: ["id", "publicKey"],
    listed: (names, check) => new ListedApiKey(names.id!, names.publicKey!, check),
    get: (transport, query) =>
      sendOperation(transport, operation, { method: "GET", path, query: { ...query } }, ids),
  });
}

/** `GET /orgs/{ORG-ID}/apiKeys`: an organization's API keys. */
export function orgApiKeyListing(orgId: string): Listing<ApiKey, ListedApiKey> {
  return apiKeyListing(
    orgKeysPath(orgId),
    "the organization's key listing",
    { kind: "listOrgApiKeys", orgId },
    { orgId },
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
  const path = `${orgKeysPath(orgId)}/${idSegment("apiKeyId", apiKeyId)}`;
  const response = await sendOperation(
    transport,
    { kind: "updateOrgApiKey", orgId },
    // It sets desc and roles to the values sent: sending it twice is sending it once.
    { method: "PATCH", path, body, idempotent: true },
    { orgId, apiKeyId },
  );
  return parseResponse(apiKeySchema, response, "PATCH", path);
}

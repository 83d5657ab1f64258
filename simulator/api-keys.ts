/**
 * An organization's API keys as the server answers them: list one page (`GET /orgs/{ORG-ID}/apiKeys`),
 * update one key's desc and organization roles (`PATCH /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}`), and, in
 * the deployed profile, read one or delete one (`GET`, `DELETE` of the same path). The create is in
 * ./api-key-create; the checks of `desc` and `roles` it shares with the update are here.
 */
import {
  API_ROOT,
  type ApiRequest,
  type ApiResult,
  fail,
  invalidAttribute,
  isPlainObject,
  MAX_ITEMS_PER_PAGE,
  pagination,
  parseJsonBody,
  unauthorized,
} from "./answers";
import type { ProfileRules } from "./profiles";
import { GROUP_ROLES, ORG_ROLES, type SimState } from "./state";
import type { SimApiKey, SimRole } from "./types";

/** Bounds of `desc`; the spec does not show them, so the simulator enforces 1 to 250 characters. */
export const DESC_MAX_LENGTH = 250;

const ORG_ROLE_SET: ReadonlySet<string> = new Set(ORG_ROLES);
const GROUP_ROLE_SET: ReadonlySet<string> = new Set(GROUP_ROLES);

/** How the server bends the spec's limits, and which of the documented answers it gives, as deployed servers differ. */
export interface ServerLimits {
  /** The most keys a page serves, whatever `itemsPerPage` asks (silently). Default none. */
  maxItemsPerPage?: number;
  /** See `SimulatorOptions.projectKeyAssignAnswer`. Default `"key"`. */
  projectKeyAssignAnswer?: "key" | "noContent";
}

function keyLink(origin: string, key: SimApiKey): string {
  return `${origin}${API_ROOT}/orgs/${encodeURIComponent(key.orgId)}/apiKeys/${encodeURIComponent(key.id)}`;
}

/** A private key as the API shows it: only its last 12 characters. */
export function redactPrivateKey(privateKey: string): string {
  return `********-****-****-${privateKey.slice(-12)}`;
}

/** The API's view of a key: private key redacted, a self link. */
export function apiKeyView(origin: string, key: SimApiKey): Record<string, unknown> {
  return {
    id: key.id,
    desc: key.desc,
    privateKey: redactPrivateKey(key.privateKey),
    publicKey: key.publicKey,
    roles: key.roles.map((r) =>
      r.groupId !== undefined
        ? { groupId: r.groupId, roleName: r.roleName }
        : { orgId: r.orgId, roleName: r.roleName },
    ),
    links: [{ href: keyLink(origin, key), rel: "self" }],
  };
}

/** 404 `ORG_NOT_FOUND` (error table). */
export function orgNotFound(orgId: string): ApiResult {
  return fail(404, "ORG_NOT_FOUND", `No organization with ID ${orgId} exists.`, [orgId]);
}

/** `API_KEY_NOT_FOUND` at the profile's status: 400 in the error table (deployed), 404 in the spec profile. */
export function apiKeyNotFound(rules: ProfileRules, keyId: string): ApiResult {
  return fail(rules.apiKeyNotFoundStatus, "API_KEY_NOT_FOUND", `No API Key with ID ${keyId} exists.`, [
    keyId,
  ]);
}

/** `desc` as the server takes it: a string of 1 to {@link DESC_MAX_LENGTH} characters, or the refusal. */
export function checkDesc(desc: unknown): { desc: string } | ApiResult {
  // Length in UTF-16 code units, as a Java server counts it.
  if (typeof desc !== "string" || desc.length < 1 || desc.length > DESC_MAX_LENGTH) {
    return invalidAttribute("desc", `must be a string of 1 to ${DESC_MAX_LENGTH} characters`);
  }
  return { desc };
}

/** Organization role names as the server takes them: a non-empty array, duplicates dropped, or the refusal. */
export function checkOrgRoles(roles: unknown): { names: string[] } | ApiResult {
  if (!Array.isArray(roles) || roles.length === 0) {
    return invalidAttribute("roles", "must be a non-empty array of organization role names");
  }
  const names: string[] = [];
  for (const role of roles) {
    if (typeof role !== "string") return invalidAttribute("roles", "each role must be a string");
    if (GROUP_ROLE_SET.has(role)) return invalidAttribute("roles", `${role} is not an organization role`);
    if (!ORG_ROLE_SET.has(role)) {
      return fail(400, "INVALID_ENUM_VALUE", `An invalid enumeration value ${role} was specified.`, [
        role,
        "roles",
      ]);
    }
    if (!names.includes(role)) names.push(role);
  }
  return { names };
}

/** `GET /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}`: the key, its private key redacted (deployed profile). */
export function getApiKey(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  keyId: string,
): ApiResult {
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "getApiKey", orgId });
  if (refused) return refused;
  const key = state.apiKey(keyId);
  if (!key || key.orgId !== orgId) return apiKeyNotFound(rules, keyId);
  return { status: 200, body: apiKeyView(req.origin, key) };
}

/**
 * `DELETE /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}` (deployed profile): the key goes, and with it its
 * project roles (its project assignments) and its access list. Answered 200 without a body, as the
 * documentation's example and MongoDB's Go client's test (`TestOrganizationAPIKeys_Delete`) show it.
 */
export function deleteApiKey(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  keyId: string,
): ApiResult {
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "deleteApiKey", orgId });
  if (refused) return refused;
  const key = state.apiKey(keyId);
  if (!key || key.orgId !== orgId) return apiKeyNotFound(rules, keyId);
  state.removeApiKey(keyId);
  return { status: 200, body: undefined };
}

/** `GET /orgs/{ORG-ID}/apiKeys`: one page of an organization's keys, with the spec's `links`. */
export function listApiKeys(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  limits: ServerLimits,
): ApiResult {
  const page = pagination(req.query);
  if ("status" in page) return page;
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "listApiKeys", orgId });
  if (refused) return refused;
  const { pageNum } = page;
  const itemsPerPage = Math.min(page.itemsPerPage, limits.maxItemsPerPage ?? MAX_ITEMS_PER_PAGE);
  const totalCount = state.countApiKeys(orgId);
  const start = (pageNum - 1) * itemsPerPage;
  const results = state.pageOfApiKeys(orgId, start, itemsPerPage).map((k) => apiKeyView(req.origin, k));
  const base = `${req.origin}${API_ROOT}/orgs/${encodeURIComponent(orgId)}/apiKeys`;
  const pretty = req.query.pretty;
  const href = (n: number) =>
    `${base}?pageNum=${n}&itemsPerPage=${itemsPerPage}${pretty === undefined ? "" : `&pretty=${encodeURIComponent(pretty)}`}`;
  const links: { href: string; rel: string }[] = [{ href: href(pageNum), rel: "self" }];
  if (pageNum > 1 && totalCount > 0) {
    links.push({ href: href(Math.min(pageNum - 1, Math.ceil(totalCount / itemsPerPage))), rel: "previous" });
  }
  if (start + itemsPerPage < totalCount) links.push({ href: href(pageNum + 1), rel: "next" });
  return { status: 200, list: true, body: { links, results, totalCount } };
}

/** `PATCH /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}`: a key's `desc` and `roles`, checked as the profile's rules say. */
export function patchApiKey(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  keyId: string,
): ApiResult {
  const page = pagination(req.query);
  if ("status" in page) return page;
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  const body = parsed.value;
  if (!isPlainObject(body)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "patchApiKey", orgId });
  if (refused) return refused;
  const key = state.apiKey(keyId);
  if (!key || key.orgId !== orgId) return apiKeyNotFound(rules, keyId);
  for (const name of Object.keys(body)) {
    if (name !== "desc" && name !== "roles")
      return invalidAttribute(name, "not an attribute of an API key update");
  }
  const { desc, roles } = body;
  if (desc === undefined && roles === undefined) {
    return fail(400, "MISSING_ATTRIBUTE", "The required attribute desc or roles was not specified.", [
      "desc",
      "roles",
    ]);
  }
  const change: { desc?: string; roles?: SimRole[] } = {};
  if (desc !== undefined) {
    const checked = checkDesc(desc);
    if ("status" in checked) return checked;
    change.desc = checked.desc;
  }
  if (roles !== undefined) {
    const checked = checkOrgRoles(roles);
    if ("status" in checked) return checked;
    // The new list replaces the key's organization roles; its project roles stay.
    change.roles = [
      ...checked.names.map((roleName) => ({ orgId, roleName })),
      ...key.roles.filter((r) => r.groupId !== undefined),
    ];
  }
  return { status: 200, body: apiKeyView(req.origin, state.updateApiKey(keyId, change)) };
}

/**
 * Organization API keys in a project (deployed profile), as the Ops Manager documentation ("Project
 * API Keys") describes them: `GET /groups/{GROUP-ID}/apiKeys` lists the keys that hold a role in the
 * project, `PATCH /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}` with `{"roles": [...]}` assigns a key to the
 * project or sets its roles there (roles not in the array are removed), `DELETE` of the same path
 * unassigns it. A key's project roles are its assignments: the simulator stores nothing else. The
 * create of a key in a project (`POST /groups/{GROUP-ID}/apiKeys`) is in ./api-key-create.
 *
 * The PATCH is answered 200 with the key, as newer documentation shows it; older documentation answers
 * 204 without a body, which the simulator's `projectKeyAssignAnswer: "noContent"` option gives instead.
 */
import {
  type ApiRequest,
  type ApiResult,
  fail,
  invalidAttribute,
  isPlainObject,
  parseJsonBody,
  unauthorized,
} from "./answers";
import { apiKeyNotFound, apiKeyView, type ServerLimits } from "./api-keys";
import { listPage } from "./list-page";
import type { ProfileRules } from "./profiles";
import { GROUP_ROLES, ORG_ROLES, type SimState } from "./state";
import type { SimApiKey } from "./types";

const GROUP_ROLE_SET: ReadonlySet<string> = new Set(GROUP_ROLES);
const ORG_ROLE_SET: ReadonlySet<string> = new Set(ORG_ROLES);

function readGroupRoles(body: unknown): { names: string[] } | ApiResult {
  if (!isPlainObject(body)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  for (const name of Object.keys(body)) {
    if (name !== "roles") return invalidAttribute(name, "not an attribute of a project API key assignment");
  }
  const { roles } = body;
  if (roles === undefined) {
    return fail(400, "MISSING_ATTRIBUTE", "The required attribute roles was not specified.", ["roles"]);
  }
  return checkGroupRoles(roles);
}

/** Project role names as the server takes them: a non-empty array, duplicates dropped, or the refusal. */
export function checkGroupRoles(roles: unknown): { names: string[] } | ApiResult {
  if (!Array.isArray(roles) || roles.length === 0) {
    return invalidAttribute("roles", "must be a non-empty array of project role names");
  }
  const names: string[] = [];
  for (const role of roles) {
    if (typeof role !== "string") return invalidAttribute("roles", "each role must be a string");
    if (ORG_ROLE_SET.has(role)) return invalidAttribute("roles", `${role} is not a project role`);
    if (!GROUP_ROLE_SET.has(role)) {
      return fail(400, "INVALID_ENUM_VALUE", `An invalid enumeration value ${role} was specified.`, [
        role,
        "roles",
      ]);
    }
    if (!names.includes(role)) names.push(role);
  }
  return { names };
}

/** The key `keyId` of the project's organization, or `undefined`. */
function orgKey(state: SimState, keyId: string): SimApiKey | undefined {
  const key = state.apiKey(keyId);
  // Every project of the simulator belongs to its seeded organization (./roles).
  return key?.orgId === state.orgId ? key : undefined;
}

/** Routes a request under `/groups/{GROUP-ID}/apiKeys`; `keyId` is the segment after it, if any. */
export function handleProjectKeyRequest(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  groupId: string,
  keyId: string | undefined,
  limits: ServerLimits,
): ApiResult {
  if (!/^[0-9a-fA-F]{24}$/.test(groupId)) {
    return fail(400, "INVALID_GROUP_ID", `An invalid group ID ${groupId} was specified.`, [groupId]);
  }
  if (!state.hasGroup(groupId)) {
    return fail(404, "GROUP_NOT_FOUND", `No group with ID ${groupId} exists.`, [groupId]);
  }
  if (keyId === undefined) {
    const refused = unauthorized(req, state, rules, { kind: "listProjectApiKeys", groupId });
    if (refused) return refused;
    const keys = state.apiKeys().filter((k) => k.roles.some((r) => r.groupId === groupId));
    return listPage(req, `/groups/${encodeURIComponent(groupId)}/apiKeys`, keys, (k) =>
      apiKeyView(req.origin, k),
    );
  }
  let roles: string[] = [];
  if (req.method === "PATCH") {
    const parsed = parseJsonBody(req);
    if ("status" in parsed) return parsed;
    const read = readGroupRoles(parsed.value);
    if ("status" in read) return read;
    roles = read.names;
  }
  const refused = unauthorized(req, state, rules, { kind: "assignProjectApiKey", groupId });
  if (refused) return refused;
  const key = orgKey(state, keyId);
  if (key === undefined) return apiKeyNotFound(rules, keyId);
  const others = key.roles.filter((r) => r.groupId !== groupId);
  if (req.method === "DELETE") {
    // A key the project does not have is, for the project, no key at all.
    if (others.length === key.roles.length) return apiKeyNotFound(rules, keyId);
    state.updateApiKey(key.id, { roles: others });
    return { status: 200, body: undefined };
  }
  const updated = state.updateApiKey(key.id, {
    roles: [...others, ...roles.map((roleName) => ({ groupId, roleName }))],
  });
  if (limits.projectKeyAssignAnswer === "noContent") return { status: 204, body: undefined };
  return { status: 200, body: apiKeyView(req.origin, updated) };
}

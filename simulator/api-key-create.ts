/**
 * The creates of an organization API key (deployed profile), as the Ops Manager documentation describes
 * them: in the organization (`POST /orgs/{ORG-ID}/apiKeys`, "Create an API Key") with organization
 * roles, or in one of its projects (`POST /groups/{GROUP-ID}/apiKeys`, "Create and Assign One
 * Organization API Key to One Project", documented since Ops Manager 4.2) with project roles. Both
 * take `desc` and `roles`, and answer the key with its whole private key, the only answer that ever
 * shows it; every later read redacts it (./api-keys).
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
import { apiKeyView, checkDesc, checkOrgRoles, orgNotFound } from "./api-keys";
import type { ProfileRules } from "./profiles";
import { checkGroupRoles } from "./project-keys";
import type { SimState } from "./state";
import type { SimRole } from "./types";

/** The most API keys an organization holds (documentation, "Create Access List Entries for One Organization API Key"). */
export const MAX_API_KEYS_PER_ORG = 500;

/**
 * The error code of a create past {@link MAX_API_KEYS_PER_ORG}. The documentation states the limit but
 * no error code for it; this follows the error table's codes for the same kind of limit on users and
 * teams (`MAX_USERS_PER_ORG_EXCEEDED`, `MAX_TEAMS_PER_ORG_EXCEEDED`, both 400).
 */
export const MAX_API_KEYS_ERROR_CODE = "MAX_API_KEYS_PER_ORG_EXCEEDED";

/**
 * The organization role a key created in a project holds besides its project roles: the answer of
 * MongoDB's Go client's test of this create (`TestProjectAPIKeys_Create`) lists it beside `GROUP_OWNER`.
 */
export const PROJECT_KEY_ORG_ROLE = "ORG_MEMBER";

/** A create's body: an object of `desc` and `roles` only, both given, `desc` checked; or the refusal. */
function readCreate(body: unknown): { desc: string; roles: unknown } | ApiResult {
  if (!isPlainObject(body)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  for (const name of Object.keys(body)) {
    if (name !== "desc" && name !== "roles") return invalidAttribute(name, "not an attribute of an API key");
  }
  for (const name of ["desc", "roles"] as const) {
    if (body[name] === undefined) {
      return fail(400, "MISSING_ATTRIBUTE", `The required attribute ${name} was not specified.`, [name]);
    }
  }
  const desc = checkDesc(body.desc);
  if ("status" in desc) return desc;
  return { desc: desc.desc, roles: body.roles };
}

/** The new key of `orgId`, answered 200 with its whole private key; refused past the organization's limit. */
function addKey(req: ApiRequest, state: SimState, orgId: string, desc: string, roles: SimRole[]): ApiResult {
  if (state.countApiKeys(orgId) >= MAX_API_KEYS_PER_ORG) {
    return fail(
      400,
      MAX_API_KEYS_ERROR_CODE,
      `Maximum number of API keys per organization (${MAX_API_KEYS_PER_ORG}) in ${orgId} exceeded while trying to add an API key.`,
      [MAX_API_KEYS_PER_ORG, orgId],
    );
  }
  const key = state.addApiKey({
    // A deployed server's key id is an ObjectId made at the create: its first 8 hex digits are the
    // time in seconds, which is how a client that lost the answer can tell the key it made.
    id: state.objectIdAt(Date.now()),
    orgId,
    desc,
    roles,
  });
  // The one answer with the whole private key; the request log never holds it (./request-log scrubs
  // every private key the state holds or held).
  return { status: 200, body: { ...apiKeyView(req.origin, key), privateKey: key.privateKey } };
}

/** `POST /orgs/{ORG-ID}/apiKeys`: a new key of the organization, with the organization roles sent. */
export function createApiKey(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
): ApiResult {
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  if (!isPlainObject(parsed.value)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "createApiKey", orgId });
  if (refused) return refused;
  const body = readCreate(parsed.value);
  if ("status" in body) return body;
  const roles = checkOrgRoles(body.roles);
  if ("status" in roles) return roles;
  return addKey(
    req,
    state,
    orgId,
    body.desc,
    roles.names.map((roleName) => ({ orgId, roleName })),
  );
}

/**
 * `POST /groups/{GROUP-ID}/apiKeys`: a new key of the project's organization, assigned to the project
 * with the project roles sent, and holding {@link PROJECT_KEY_ORG_ROLE} in the organization. It needs
 * what an assignment needs (Project Owner or Project User Admin, ./roles).
 */
export function createProjectApiKey(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  groupId: string,
): ApiResult {
  if (!/^[0-9a-fA-F]{24}$/.test(groupId)) {
    return fail(400, "INVALID_GROUP_ID", `An invalid group ID ${groupId} was specified.`, [groupId]);
  }
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  if (!isPlainObject(parsed.value)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  if (!state.hasGroup(groupId)) {
    return fail(404, "GROUP_NOT_FOUND", `No group with ID ${groupId} exists.`, [groupId]);
  }
  const refused = unauthorized(req, state, rules, { kind: "assignProjectApiKey", groupId });
  if (refused) return refused;
  const body = readCreate(parsed.value);
  if ("status" in body) return body;
  const roles = checkGroupRoles(body.roles);
  if ("status" in roles) return roles;
  // Every project of the simulator belongs to its seeded organization (./roles).
  const orgId = state.orgId;
  return addKey(req, state, orgId, body.desc, [
    ...roles.names.map((roleName) => ({ groupId, roleName })),
    { orgId, roleName: PROJECT_KEY_ORG_ROLE },
  ]);
}

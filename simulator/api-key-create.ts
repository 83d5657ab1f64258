/**
 * The create of an organization API key (`POST /orgs/{ORG-ID}/apiKeys`, deployed profile), as the Ops
 * Manager documentation ("Create an API Key") describes it: `desc` and `roles` both required, the
 * answer the key with its whole private key, the only answer that ever shows it; every later read
 * redacts it (./api-keys).
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
import type { SimState } from "./state";

/** The most API keys an organization holds (documentation, "Create Access List Entries for One Organization API Key"). */
export const MAX_API_KEYS_PER_ORG = 500;

/**
 * The error code of a create past {@link MAX_API_KEYS_PER_ORG}. The documentation states the limit but
 * no error code for it; this follows the error table's codes for the same kind of limit on users and
 * teams (`MAX_USERS_PER_ORG_EXCEEDED`, `MAX_TEAMS_PER_ORG_EXCEEDED`, both 400).
 */
export const MAX_API_KEYS_ERROR_CODE = "MAX_API_KEYS_PER_ORG_EXCEEDED";

/** `POST /orgs/{ORG-ID}/apiKeys`: a new key of the organization, answered 200 with its whole private key. */
export function createApiKey(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
): ApiResult {
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  const body = parsed.value;
  if (!isPlainObject(body)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "createApiKey", orgId });
  if (refused) return refused;
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
  const roles = checkOrgRoles(body.roles);
  if ("status" in roles) return roles;
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
    desc: desc.desc,
    roles: roles.names.map((roleName) => ({ orgId, roleName })),
  });
  // The one answer with the whole private key; the request log never holds it (./request-log scrubs
  // every private key the state holds or held).
  return { status: 200, body: { ...apiKeyView(req.origin, key), privateKey: key.privateKey } };
}

/**
 * The routes of organization API keys in the deployed profile: the spec's list and update (./api-keys),
 * and the rest of a key's documented life: create, in the organization or in one of its projects
 * (./api-key-create), get one and delete (./api-keys), its access list (./access-lists), and its
 * assignment to projects (./project-keys).
 */

import { handleAccessListRequest } from "./access-lists";
import { type ApiRequest, type ApiResult, methodNotAllowed, notFound } from "./answers";
import { createApiKey, createProjectApiKey } from "./api-key-create";
import { deleteApiKey, getApiKey, listApiKeys, patchApiKey, type ServerLimits } from "./api-keys";
import type { ProfileRules } from "./profiles";
import { handleProjectKeyRequest } from "./project-keys";
import type { SimState } from "./state";

/** Routes a request under `/orgs/{ORG-ID}/apiKeys`: `keyId` and `rest` are the decoded segments after it. */
export function handleOrgKeyRequest(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  keyId: string | undefined,
  rest: string[],
  limits: ServerLimits,
): ApiResult {
  if (keyId === undefined) {
    if (req.method === "GET") return listApiKeys(req, state, rules, orgId, limits);
    if (req.method === "POST") return createApiKey(req, state, rules, orgId);
    return methodNotAllowed(req, "GET, POST");
  }
  if (rest.length === 0) {
    if (req.method === "GET") return getApiKey(req, state, rules, orgId, keyId);
    if (req.method === "PATCH") return patchApiKey(req, state, rules, orgId, keyId);
    if (req.method === "DELETE") return deleteApiKey(req, state, rules, orgId, keyId);
    return methodNotAllowed(req, "GET, PATCH, DELETE");
  }
  if (rest[0] !== "accessList" || rest.length > 2) return notFound(req);
  const entry = rest[1];
  const allowed = entry === undefined ? ["GET", "POST"] : ["GET", "DELETE"];
  if (!allowed.includes(req.method)) return methodNotAllowed(req, allowed.join(", "));
  return handleAccessListRequest(req, state, rules, orgId, keyId, entry);
}

/** Routes a request under `/groups/{GROUP-ID}/apiKeys`: `keyId` and `rest` are the decoded segments after it. */
export function handleGroupKeyRequest(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  groupId: string,
  keyId: string | undefined,
  rest: string[],
  limits: ServerLimits,
): ApiResult {
  if (rest.length > 0) return notFound(req);
  const allowed = keyId === undefined ? ["GET", "POST"] : ["PATCH", "DELETE"];
  if (!allowed.includes(req.method)) return methodNotAllowed(req, allowed.join(", "));
  if (keyId === undefined && req.method === "POST") return createProjectApiKey(req, state, rules, groupId);
  return handleProjectKeyRequest(req, state, rules, groupId, keyId, limits);
}

/**
 * The simulated API's routes: the three operations of the spec, as pure functions from a parsed,
 * authenticated request to a status and a JSON body, as the profile's server answers them (./profiles):
 * an organization's keys in ./api-keys, and the rest of a key's life, where the profile has it, in
 * ./api-key-routes; the create of a log collection job in ./job-create, and the rest of a job's life,
 * where the profile has it, in ./jobs. What they share is in ./answers; HTTP framing (headers, pretty,
 * envelope, faults) lives in ./server.
 */
import { type ApiRequest, type ApiResult, methodNotAllowed, notFound } from "./answers";
import { handleGroupKeyRequest, handleOrgKeyRequest } from "./api-key-routes";
import { listApiKeys, patchApiKey, type ServerLimits } from "./api-keys";
import { createLogCollectionJob } from "./job-create";
import { handleJobRequest } from "./jobs";
import type { ProfileRules } from "./profiles";
import type { SimState } from "./state";

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Routes and answers one authenticated request, changing `state` when the operation succeeds. */
export function handleApiRequest(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  limits: ServerLimits = {},
): ApiResult {
  const segments = req.relPath.split("/").slice(1).map(decodeSegment);
  if (segments.some((s) => s === undefined || s === "")) return notFound(req);
  const [a, b, c, d, ...rest] = segments as string[];
  if (rules.apiKeyOperations && b !== undefined && c === "apiKeys") {
    if (a === "orgs") return handleOrgKeyRequest(req, state, rules, b, d, rest, limits);
    if (a === "groups") return handleGroupKeyRequest(req, state, rules, b, d, rest, limits);
  }
  if (rest.length === 0 && a === "orgs" && b !== undefined && c === "apiKeys") {
    if (d === undefined) {
      return req.method === "GET" ? listApiKeys(req, state, rules, b, limits) : methodNotAllowed(req, "GET");
    }
    return req.method === "PATCH" ? patchApiKey(req, state, rules, b, d) : methodNotAllowed(req, "PATCH");
  }
  if (a === "groups" && b !== undefined && c === "logCollectionJobs") {
    if (rest.length === 0 && d === undefined && req.method === "POST") {
      return createLogCollectionJob(req, state, rules, b);
    }
    // A job's life beyond its create, where the profile's server has it (./jobs).
    if (rules.jobOperations) return handleJobRequest(req, state, rules, b, d, rest);
    if (rest.length === 0 && d === undefined) return methodNotAllowed(req, "POST");
  }
  return notFound(req);
}

/** The transport: JSON over HTTPS, digest authentication, retries, one error family; it knows HTTP alone. */
export { withAbortSignal } from "./abort-scope";
export { closeAllHttpClients, getHttpClient } from "./client-registry";
export {
  type AuthorizationFields,
  buildAuthorization,
  computeDigest,
  createCnonce,
  type DigestInput,
  formatAuthorization,
  formatNc,
  hashUsername,
  type SignInput,
} from "./digest";
export {
  type AuthChallenge,
  type DigestAlgorithm,
  type DigestChallenge,
  parseAuthenticationInfo,
  parseWwwAuthenticate,
  selectDigestChallenge,
} from "./digest-challenge";
export { DigestSession } from "./digest-session";
export type * from "./digest-types";
export * from "./errors";
export { HttpClient } from "./http-client";
export { resolveBaseUrl } from "./options";
export {
  backoffDelay,
  isIdempotentMethod,
  isRetryable,
  parseRetryAfter,
  type RetryHooks,
  type RetryPolicy,
  type RetryTarget,
  resolveRetryPolicy,
  withRetries,
} from "./retry";
export type {
  ClientOptions,
  ClientStats,
  ErrorAnswer,
  HttpMethod,
  JsonResponse,
  RequestOptions,
  RetryOptions,
} from "./types";

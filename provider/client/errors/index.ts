export { AbortedError, type AbortedErrorInit } from "./aborted-error";
export { ApiError, type ApiErrorInit } from "./api-error";
export {
  AuthenticationError,
  type AuthenticationErrorInit,
  type AuthenticationFailure,
  staleAdvice,
} from "./authentication-error";
export type { CallInfo } from "./format";
export { InvalidArgumentError } from "./invalid-argument-error";
export { NetworkError, type NetworkErrorInit } from "./network-error";
export { ERROR_CODES, type ErrorCode, OpsManagerError } from "./opsmanager-error";
export { RequestError, type RequestErrorInit } from "./request-error";
export { ResponseShapeError, type ResponseShapeErrorInit } from "./response-shape-error";
export { ResponseTooLargeError, type ResponseTooLargeErrorInit } from "./response-too-large-error";
export { SchemeMismatchError, type SchemeMismatchErrorInit } from "./scheme-mismatch-error";
export { TimeoutError, type TimeoutErrorInit } from "./timeout-error";
export { TLS_VERIFICATION_CODES, TlsError, type TlsErrorInit } from "./tls-error";

/**
 * pulumi-opsmanager: Ops Manager organization API keys and log collection jobs as Pulumi resources.
 */
export type { ApiKeyChange, ApiKeySelector, PageOptions } from "./api/api-keys";
export { AuthorizationError } from "./api/authorization-error";
export { InconsistentListingError } from "./api/inconsistent-listing-error";
export { InputError } from "./api/input-error";
export { MalformedCreateAnswerError } from "./api/malformed-create-answer-error";
export type {
  ApiKey,
  GroupRole,
  LogCollectionJobStatus,
  LogType,
  OrgRole,
  ResourceType,
  Role,
} from "./api/types";
export { GROUP_ROLES, JOB_STATUSES, LOG_TYPES, ORG_ROLES, RESOURCE_TYPES } from "./api/types";
export { UncertainCreateError } from "./api/uncertain-create-error";
export {
  AbortedError,
  ApiError,
  AuthenticationError,
  ERROR_CODES,
  type ErrorCode,
  InvalidArgumentError,
  NetworkError,
  OpsManagerError,
  RequestError,
  ResponseShapeError,
  ResponseTooLargeError,
  SchemeMismatchError,
  TimeoutError,
  TlsError,
} from "./client/errors";
export {
  ApiKeyProjectAssignment,
  type ApiKeyProjectAssignmentArgs,
} from "./resources/api-key-project-assignment/api-key-project-assignment";
export type {
  ApiKeyProjectAssignmentProviderInputs as ApiKeyProjectAssignmentInputs,
  ApiKeyProjectAssignmentProviderOutputs as ApiKeyProjectAssignmentOutputs,
  PreviousAssignment,
} from "./resources/api-key-project-assignment/types";
export {
  LogCollectionJob,
  type LogCollectionJobArgs,
} from "./resources/log-collection-job/log-collection-job";
export type {
  LogCollectionJobProviderInputs as LogCollectionJobInputs,
  LogCollectionJobProviderOutputs as LogCollectionJobOutputs,
} from "./resources/log-collection-job/types";
export { type GetOrgApiKeysArgs, getOrgApiKeys } from "./resources/org-api-key/get-org-api-keys";
export { OrgApiKey, type OrgApiKeyArgs, type OrgApiKeyState } from "./resources/org-api-key/org-api-key";
export type {
  AccessListEntryOutput,
  OrgApiKeyProviderInputs as OrgApiKeyInputs,
  OrgApiKeyProviderOutputs as OrgApiKeyOutputs,
  ProjectRole,
} from "./resources/org-api-key/types";
export { ConfigError } from "./resources/shared/config-error";
export { ResourceError } from "./resources/shared/resource-error";

/**
 * pulumi-opsmanager: Ops Manager organization API keys and log collection jobs as Pulumi resources.
 */
export type { ApiKeyChange, ApiKeySelector, PageOptions } from "./api/api-keys";
export { AuthorizationError } from "./api/authorization-error";
export { InputError } from "./api/input-error";
export type { ApiKey, GroupRole, LogType, OrgRole, ResourceType, Role } from "./api/schemas";
export { GROUP_ROLES, LOG_TYPES, ORG_ROLES, RESOURCE_TYPES } from "./api/schemas";
export { UncertainCreateError } from "./api/uncertain-create-error";
export {
  ApiError,
  AuthenticationError,
  InvalidArgumentError,
  NetworkError,
  OpsManagerError,
  ResponseShapeError,
  ResponseTooLargeError,
  TimeoutError,
  TlsError,
} from "./client/errors";
export { ConfigError } from "./resources/config-error";
export { type GetOrgApiKeysArgs, getOrgApiKeys } from "./resources/get-org-api-keys";
export { LogCollectionJob, type LogCollectionJobArgs } from "./resources/log-collection-job";
export type {
  LogCollectionJobProviderInputs as LogCollectionJobInputs,
  LogCollectionJobProviderOutputs as LogCollectionJobOutputs,
} from "./resources/log-collection-job-methods";
export { OrgApiKey, type OrgApiKeyArgs, type OrgApiKeyState } from "./resources/org-api-key";
export type {
  OrgApiKeyProviderInputs as OrgApiKeyInputs,
  OrgApiKeyProviderOutputs as OrgApiKeyOutputs,
  ProjectRole,
} from "./resources/org-api-key-methods";

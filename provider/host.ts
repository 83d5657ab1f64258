/**
 * The stable entry point that serialized providers `require` by package name inside Pulumi's
 * dynamic-provider host (`require("pulumi-opsmanager/host")`). Provider text stays in state until a
 * resource is next updated, so every later version of this package keeps these names and handles
 * the state every earlier version wrote.
 */
import * as apiKeyProjectAssignment from "./resources/api-key-project-assignment/api-key-project-assignment-methods";
import * as logCollectionJob from "./resources/log-collection-job/log-collection-job-methods";
import * as orgApiKey from "./resources/org-api-key/org-api-key-methods";
import { configure } from "./resources/shared/runtime";

export { configure };

/** OrgApiKey's methods, named as `pulumi.dynamic.ResourceProvider` names them. */
export const orgApiKeyMethods = {
  check: orgApiKey.check,
  diff: orgApiKey.diff,
  create: orgApiKey.create,
  read: orgApiKey.read,
  update: orgApiKey.update,
  delete: orgApiKey.remove,
};

/** LogCollectionJob's methods, named as `pulumi.dynamic.ResourceProvider` names them. */
export const logCollectionJobMethods = {
  check: logCollectionJob.check,
  diff: logCollectionJob.diff,
  create: logCollectionJob.create,
  read: logCollectionJob.read,
  update: logCollectionJob.update,
  delete: logCollectionJob.remove,
};

/** ApiKeyProjectAssignment's methods, named as `pulumi.dynamic.ResourceProvider` names them. */
export const apiKeyProjectAssignmentMethods = {
  check: apiKeyProjectAssignment.check,
  diff: apiKeyProjectAssignment.diff,
  create: apiKeyProjectAssignment.create,
  read: apiKeyProjectAssignment.read,
  update: apiKeyProjectAssignment.update,
  delete: apiKeyProjectAssignment.remove,
};

/**
 * The stable entry point that serialized providers `require` by package name inside Pulumi's
 * dynamic-provider host (`require("pulumi-opsmanager/host")`). Provider text stays in state until a
 * resource is next updated, so every later version of this package keeps these names and handles
 * the state every earlier version wrote.
 */

import type * as pulumi from "@pulumi/pulumi";
import * as apiKeyProjectAssignment from "./resources/api-key-project-assignment/api-key-project-assignment-methods";
import { ASSIGNMENT_STATE } from "./resources/api-key-project-assignment/state";
import type {
  ApiKeyProjectAssignmentProviderInputs,
  ApiKeyProjectAssignmentProviderOutputs,
} from "./resources/api-key-project-assignment/types";
import * as logCollectionJob from "./resources/log-collection-job/log-collection-job-methods";
import { JOB_STATE } from "./resources/log-collection-job/state";
import type {
  LogCollectionJobProviderInputs,
  LogCollectionJobProviderOutputs,
} from "./resources/log-collection-job/types";
import * as orgApiKey from "./resources/org-api-key/org-api-key-methods";
import { KEY_STATE } from "./resources/org-api-key/state";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs } from "./resources/org-api-key/types";
import { configure } from "./resources/shared/runtime";
import { versioned } from "./resources/shared/state-version";

export { configure };

/**
 * The SDK's `ResourceProvider<Inputs, Outputs>`, which the compiler checks each method map against,
 * except for `read`: the SDK types the `inputs` it returns as `Outputs` (they are inputs: the host
 * stores them as such), and the state it is given may be any earlier version's, hence partial.
 */
type Methods<Inputs, Outputs> = Omit<pulumi.dynamic.ResourceProvider<Inputs, Outputs>, "read"> & {
  read: (
    id: string,
    props?: Partial<Outputs>,
  ) => Promise<{ id?: string; props?: Partial<Outputs>; inputs?: Inputs }>;
};

/**
 * OrgApiKey's methods, named as `pulumi.dynamic.ResourceProvider` names them; the state they write
 * carries its version (./resources/shared/state-version.ts), as every resource's does.
 */
export const orgApiKeyMethods = versioned(KEY_STATE, {
  check: orgApiKey.check,
  diff: orgApiKey.diff,
  create: orgApiKey.create,
  read: orgApiKey.read,
  update: orgApiKey.update,
  delete: orgApiKey.remove,
}) satisfies Methods<OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs>;

/** LogCollectionJob's methods, named as `pulumi.dynamic.ResourceProvider` names them. */
export const logCollectionJobMethods = versioned(JOB_STATE, {
  check: logCollectionJob.check,
  diff: logCollectionJob.diff,
  create: logCollectionJob.create,
  read: logCollectionJob.read,
  update: logCollectionJob.update,
  delete: logCollectionJob.remove,
}) satisfies Methods<LogCollectionJobProviderInputs, LogCollectionJobProviderOutputs>;

/** ApiKeyProjectAssignment's methods, named as `pulumi.dynamic.ResourceProvider` names them. */
export const apiKeyProjectAssignmentMethods = versioned(ASSIGNMENT_STATE, {
  check: apiKeyProjectAssignment.check,
  diff: apiKeyProjectAssignment.diff,
  create: apiKeyProjectAssignment.create,
  read: apiKeyProjectAssignment.read,
  update: apiKeyProjectAssignment.update,
  delete: apiKeyProjectAssignment.remove,
}) satisfies Methods<ApiKeyProjectAssignmentProviderInputs, ApiKeyProjectAssignmentProviderOutputs>;

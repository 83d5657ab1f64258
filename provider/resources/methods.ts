/**
 * Each resource's provider methods, the one core that both faces call: the dynamic host through
 * `pulumi-opsmanager/host` (../host.ts), and the provider plugin (../plugin/). They do not know which
 * face called them.
 */

import type * as pulumi from "@pulumi/pulumi";
import * as apiKeyProjectAssignment from "./api-key-project-assignment/api-key-project-assignment-methods";
import { ASSIGNMENT_STATE } from "./api-key-project-assignment/state";
import type {
  ApiKeyProjectAssignmentProviderInputs,
  ApiKeyProjectAssignmentProviderOutputs,
} from "./api-key-project-assignment/types";
import * as logCollectionJob from "./log-collection-job/log-collection-job-methods";
import { JOB_STATE } from "./log-collection-job/state";
import type {
  LogCollectionJobProviderInputs,
  LogCollectionJobProviderOutputs,
} from "./log-collection-job/types";
import * as orgApiKey from "./org-api-key/org-api-key-methods";
import { KEY_STATE } from "./org-api-key/state";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs } from "./org-api-key/types";
import type { FieldDiff } from "./shared/field-diff";
import { versioned } from "./shared/state-version";

/**
 * The SDK's `ResourceProvider<Inputs, Outputs>`, which the compiler checks each method map against,
 * with `fieldDiff`, and except for `read`: the SDK types the `inputs` it returns as `Outputs` (they are inputs: the host
 * stores them as such), and the state it is given may be any earlier version's, hence partial.
 */
type Methods<Inputs, Outputs> = Omit<pulumi.dynamic.ResourceProvider<Inputs, Outputs>, "read"> & {
  read: (
    id: string,
    props?: Partial<Outputs>,
  ) => Promise<{ id?: string; props?: Partial<Outputs>; inputs?: Inputs }>;
  /** The diff field by field, which `diff` answers the dynamic host from. */
  fieldDiff: (id: string, olds: Outputs, news: Inputs) => Promise<FieldDiff>;
};

/**
 * OrgApiKey's methods, named as `pulumi.dynamic.ResourceProvider` names them; the state they write
 * carries its version (./shared/state-version.ts), as every resource's does.
 */
export const orgApiKeyMethods = versioned(KEY_STATE, {
  check: orgApiKey.check,
  diff: orgApiKey.diff,
  fieldDiff: orgApiKey.fieldDiff,
  create: orgApiKey.create,
  read: orgApiKey.read,
  update: orgApiKey.update,
  delete: orgApiKey.remove,
}) satisfies Methods<OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs>;

/** LogCollectionJob's methods, named as `pulumi.dynamic.ResourceProvider` names them. */
export const logCollectionJobMethods = versioned(JOB_STATE, {
  check: logCollectionJob.check,
  diff: logCollectionJob.diff,
  fieldDiff: logCollectionJob.fieldDiff,
  create: logCollectionJob.create,
  read: logCollectionJob.read,
  update: logCollectionJob.update,
  delete: logCollectionJob.remove,
}) satisfies Methods<LogCollectionJobProviderInputs, LogCollectionJobProviderOutputs>;

/** ApiKeyProjectAssignment's methods, named as `pulumi.dynamic.ResourceProvider` names them. */
export const apiKeyProjectAssignmentMethods = versioned(ASSIGNMENT_STATE, {
  check: apiKeyProjectAssignment.check,
  diff: apiKeyProjectAssignment.diff,
  fieldDiff: apiKeyProjectAssignment.fieldDiff,
  create: apiKeyProjectAssignment.create,
  read: apiKeyProjectAssignment.read,
  update: apiKeyProjectAssignment.update,
  delete: apiKeyProjectAssignment.remove,
}) satisfies Methods<ApiKeyProjectAssignmentProviderInputs, ApiKeyProjectAssignmentProviderOutputs>;

/**
 * A resource brought into a stack from the server (`pulumi import`): its state and inputs read from
 * what the server holds, so that a program declaring them (the code `pulumi import` writes) changes
 * nothing. Each reads through the resource's own `read`, from the least state that names it.
 */

import { assignmentId } from "./api-key-project-assignment/state";
import { findJob } from "./log-collection-job/job-listing-cache";
import { specResourceType } from "./log-collection-job/log-collection-job-inputs";
import type { LogCollectionJobProviderOutputs } from "./log-collection-job/types";
import { apiKeyProjectAssignmentMethods, logCollectionJobMethods, orgApiKeyMethods } from "./methods";
import type { OrgApiKeyProviderOutputs } from "./org-api-key/types";
import { ResourceError } from "./shared/resource-error";
import { currentClient, whenConfigured } from "./shared/runtime";

/**
 * An organization's key, adopted by its id: its desc and roles managed, as the server has them, which
 * are also what `restoreOnDelete` would put back. Not created by the stack, so destroy releases it.
 */
export async function importOrgApiKey(orgId: string, apiKeyId: string) {
  const managed = { desc: true, roles: true, by: "apiKeyId" } as const;
  const found = await orgApiKeyMethods.read(apiKeyId, { orgId, apiKeyId, managed });
  if (!found.id || found.props === undefined) return found;
  const props = found.props as OrgApiKeyProviderOutputs;
  return { ...found, props: { ...props, adopted: { desc: props.desc, roles: props.roles } } };
}

/** A key's assignment to a project, with its roles there. */
export function importApiKeyProjectAssignment(groupId: string, apiKeyId: string) {
  return apiKeyProjectAssignmentMethods.read(assignmentId(groupId, apiKeyId), { groupId, apiKeyId });
}

/**
 * A log collection job, with what it was created with as the project's listing shows it (the server
 * echoes `resourceType` in lower case: read as the spec's upper case, as `check` does).
 */
export async function importLogCollectionJob(groupId: string, jobId: string) {
  await whenConfigured();
  const lookup = await findJob(currentClient(), groupId, jobId);
  if ("gone" in lookup) return { id: "", props: {} };
  if ("unsupported" in lookup) {
    throw new ResourceError(
      `LogCollectionJob ${jobId} (project ${groupId}) cannot be imported: this server does not list log collection jobs, so what the job was created with cannot be read.`,
    );
  }
  const record = lookup.found;
  const created: Partial<LogCollectionJobProviderOutputs> = {
    groupId,
    ...(typeof record.resourceType === "string"
      ? {
          resourceType: specResourceType(
            record.resourceType,
          ) as LogCollectionJobProviderOutputs["resourceType"],
        }
      : {}),
    ...(typeof record.resourceName === "string" ? { resourceName: record.resourceName } : {}),
    ...(typeof record.sizeRequestedPerFileBytes === "number"
      ? { sizeRequestedPerFileBytes: record.sizeRequestedPerFileBytes }
      : {}),
    ...(Array.isArray(record.logTypes)
      ? { logTypes: record.logTypes as LogCollectionJobProviderOutputs["logTypes"] }
      : {}),
    ...(typeof record.redacted === "boolean" ? { redacted: record.redacted } : {}),
  };
  return logCollectionJobMethods.read(jobId, created);
}

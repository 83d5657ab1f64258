/**
 * LogCollectionJob's provider methods, as the dynamic-provider host calls them. Loaded in the host by
 * `pulumi-opsmanager/host`, never captured by a serialized provider.
 */
import { hex24Rule } from "../../api/ids";
import { isJobGone, isMissingOperation, type JobOperationKind } from "../../api/log-collection-job-answers";
import {
  createLogCollectionJob,
  deleteLogCollectionJob,
  extendLogCollectionJob,
} from "../../api/log-collection-jobs";
import { MalformedCreateAnswerError } from "../../api/malformed-create-answer-error";
import { wasNotSent } from "../../api/operation";
import { isProjectGone } from "../../api/project-gone";
import type { LogCollectionJobRecord } from "../../api/schemas";
import { sameInstant } from "../../api/timestamps";
import { UncertainCreateError } from "../../api/uncertain-create-error";
import { asDynamicDiff, type FieldDiff } from "../shared/field-diff";
import { inContext } from "../shared/in-context";
import { partiallyCreated } from "../shared/partially-created";
import { ResourceError } from "../shared/resource-error";
import { currentClient, whenConfigured } from "../shared/runtime";
import { checkResource, clientIn, onServer, serverDiff } from "../shared/server-input";
import { settingKey } from "../shared/servers";
import { isUnknown } from "../shared/validate";
import { findJob, missingOperationOf, rememberMissingOperation } from "./job-listing-cache";
import { jobMemoryOf } from "./job-memory";
import { changedCreateInputs, checkJobInputs, createInputsOf } from "./log-collection-job-inputs";
import { warnUntrackedJobs } from "./server-warning";
import { NOT_SHOWN, type ServerFields, serverFieldsOf, upgradeJobState } from "./state";
import type { LogCollectionJobProviderInputs, LogCollectionJobProviderOutputs } from "./types";

export { logCollectionJobInputShape, sameLogTypes } from "./log-collection-job-inputs";

/** The job as its record shows it; a field the server leaves out (or sends as null) as not shown. */
function fromRecord(record: LogCollectionJobRecord): ServerFields {
  return {
    status: record.status,
    creationDate: record.creationDate ?? "",
    expirationDate: record.expirationDate ?? "",
    downloadUrl: record.downloadUrl ?? "",
    userId: record.userId ?? "",
    rootResourceName: record.rootResourceName ?? "",
    rootResourceType: record.rootResourceType ?? "",
    uncompressedSizeTotalBytes: record.uncompressedSizeTotalBytes ?? 0,
  };
}

function outputsOf(
  jobId: string,
  inputs: Partial<LogCollectionJobProviderInputs>,
  server: ServerFields,
  managesExpiration: boolean,
): LogCollectionJobProviderOutputs {
  // logTypes as declared, whichever database log name the server was sent; no undefined (not plain JSON).
  return {
    ...createInputsOf(inputs),
    jobId,
    ...server,
    managed: { expirationDate: managesExpiration },
  };
}

const where = (id: string, groupId: unknown, server: string | undefined) =>
  `LogCollectionJob ${id} (project ${String(groupId)}${onServer(server)})`;

/** What to do when the server refused to extend the job, by what it said. */
function extensionAdvice(error: unknown): string {
  if (isMissingOperation(error)) {
    return " Remove expirationDate from the program: this server cannot change a job's expiration.";
  }
  if (isJobGone(error)) {
    return " The job may have been deleted outside Pulumi: run `pulumi refresh` to drop it from the stack.";
  }
  return " Correct expirationDate and run `pulumi up` again.";
}

/** `check`: one failure per bad input, naming the rule; values not known yet pass. */
export function check(_olds: object, news: object) {
  return checkResource<LogCollectionJobProviderInputs>(news, checkJobInputs);
}

/**
 * The diff, field by field: a change of what the job was created with is a replacement (`logTypes` as a set); a new
 * `expirationDate` (another instant), and starting or ceasing to declare one, is an update in place.
 */
export async function fieldDiff(
  id: string,
  olds: LogCollectionJobProviderOutputs,
  news: LogCollectionJobProviderInputs,
): Promise<FieldDiff> {
  // Whether another name reaches the same server is read from the stack config.
  await whenConfigured();
  const state = upgradeJobState(olds, id, "diff");
  const replaces = changedCreateInputs(state, news);
  const managed = state.managed.expirationDate;
  const declared = news.expirationDate;
  const updates =
    declared === undefined
      ? managed
      : isUnknown(declared) || !managed || !sameInstant(declared, state.expirationDate);
  const { rename } = serverDiff(news, state);
  return {
    replaces,
    updates: [...(updates ? ["expirationDate"] : []), ...(rename ? ["server"] : [])],
    deleteBeforeReplace: false,
  };
}

/** `diff` as the dynamic host takes it: {@link fieldDiff} without the fields. */
export async function diff(
  id: string,
  olds: LogCollectionJobProviderOutputs,
  news: LogCollectionJobProviderInputs,
) {
  return asDynamicDiff(await fieldDiff(id, olds, news));
}

/**
 * `create`: one POST; the returned id is the resource's id. Never sent twice. With `expirationDate`,
 * which the create does not take, one PATCH follows. Nothing is read back: the POST answers the job's id
 * only, a GET or a listing per job would double the creates' requests (the engine starts them one by
 * one, too far apart to share a listing), and a status read then would say `IN_PROGRESS` until the next
 * refresh anyway. The job's status and dates stay not shown (`""`) until the first refresh reads them.
 */
export async function create(inputs: LogCollectionJobProviderInputs) {
  await whenConfigured();
  const what = `LogCollectionJob (project ${inputs.groupId}${onServer(inputs.server)})`;
  const client = clientIn(what, inputs.server);
  const sentAt = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  let id: string;
  try {
    ({ id } = await createLogCollectionJob(
      client,
      inputs.groupId,
      {
        resourceType: inputs.resourceType,
        resourceName: inputs.resourceName,
        sizeRequestedPerFileBytes: inputs.sizeRequestedPerFileBytes,
        logTypes: inputs.logTypes,
        redacted: inputs.redacted,
        logCollectionFromDate: inputs.logCollectionFromDate,
        logCollectionToDate: inputs.logCollectionToDate,
      },
      jobMemoryOf(client).databaseLog,
    ));
  } catch (error) {
    // Only a POST the server did not act on is ever sent again, so none before this one made a job.
    const advice = wasNotSent(error)
      ? ". No log collection job was created."
      : error instanceof UncertainCreateError
        ? `. Before running \`pulumi up\` again, ${error.check}: a ${inputs.resourceType} ${inputs.resourceName} job made around ${sentAt} (this machine's clock) by the API key this stack signs with (${settingKey(inputs.server, "publicKey")}) may be this attempt's, which is not in the stack; delete it, or \`pulumi up\` makes the job again. No other job was changed.`
        : "";
    const wrapped = inContext(what, error, advice);
    if (error instanceof MalformedCreateAnswerError) {
      const { createdId } = error;
      wrapped.message += `. The server did create job ${createdId}: it is recorded in the stack; run \`pulumi refresh\` or \`pulumi up\` again to settle it.`;
      throw partiallyCreated(wrapped, createdId, outputsOf(createdId, inputs, NOT_SHOWN, false));
    }
    throw wrapped;
  }
  const outs = outputsOf(id, inputs, NOT_SHOWN, false);
  if (inputs.expirationDate === undefined) return { id, outs };
  try {
    await extendLogCollectionJob(client, inputs.groupId, id, inputs.expirationDate);
  } catch (error) {
    if (isMissingOperation(error)) rememberMissingOperation(client, "extendLogCollectionJob", error);
    // The job exists: it is recorded without the expiration, which the next `pulumi up` sets with one
    // PATCH once the program's expirationDate is one the server takes.
    const wrapped = inContext(
      where(id, inputs.groupId, inputs.server),
      error,
      `. The job was created and is recorded in the stack, but its expirationDate is not set.${extensionAdvice(error)}`,
    );
    throw partiallyCreated(wrapped, id, outs);
  }
  return { id, outs: { ...outs, expirationDate: inputs.expirationDate, managed: { expirationDate: true } } };
}

/**
 * `read` (refresh): the job as the project's listing shows it now, read once per project and
 * deployment. A job the listing lacks (twice, as the key listing confirms a missing key) leaves the
 * stack. A server with no listing of jobs keeps the state as recorded and is named once in a warning.
 */
export async function read(id: string, olds: Partial<LogCollectionJobProviderOutputs> = {}) {
  const state = upgradeJobState(olds, id, "read");
  await whenConfigured();
  const groupId = state.groupId;
  if (typeof groupId !== "string" || hex24Rule(groupId) !== undefined) {
    throw new ResourceError(
      `LogCollectionJob ${id}: reading a job needs its groupId, the project it belongs to.`,
    );
  }
  const client = clientIn(where(id, groupId, state.server), state.server);
  const managed = state.managed.expirationDate;
  try {
    const lookup = await findJob(client, groupId, id);
    if ("gone" in lookup) return { id: "", props: {} };
    if ("unsupported" in lookup) {
      warnUntrackedJobs(client, "listLogCollectionJobs", lookup.unsupported);
      return { id, props: outputsOf(id, state, serverFieldsOf(state), managed) };
    }
    const props = outputsOf(id, state, fromRecord(lookup.found), managed);
    // Returning inputs too makes a preview after refresh show an expiration changed outside Pulumi as
    // the server's value going back to the declared one (pulumi/pulumi#21315).
    const inputs: LogCollectionJobProviderInputs = createInputsOf(state);
    if (managed && props.expirationDate !== "") inputs.expirationDate = props.expirationDate;
    return { id, props, inputs };
  } catch (error) {
    throw inContext(where(id, groupId, state.server), error);
  }
}

/**
 * `update`: only `expirationDate` changes in place, with one PATCH when it names another instant than
 * the state holds; starting or ceasing to declare it sends nothing else. Full outputs back.
 */
export async function update(
  id: string,
  olds: LogCollectionJobProviderOutputs,
  news: LogCollectionJobProviderInputs,
) {
  const state = upgradeJobState(olds, id, "update");
  await whenConfigured();
  const changed = changedCreateInputs(state, news);
  if (changed.length > 0) {
    throw new ResourceError(
      `LogCollectionJob ${id} cannot be changed in place (${changed.join(", ")}); it must be replaced.`,
    );
  }
  const server = serverFieldsOf(state);
  const declared = news.expirationDate;
  if (declared !== undefined && !sameInstant(declared, server.expirationDate)) {
    const client = currentClient(state.server);
    try {
      await extendLogCollectionJob(client, news.groupId, id, declared);
    } catch (error) {
      if (isMissingOperation(error)) rememberMissingOperation(client, "extendLogCollectionJob", error);
      throw inContext(where(id, news.groupId, state.server), error, `.${extensionAdvice(error)}`);
    }
    server.expirationDate = declared;
  }
  return { outs: outputsOf(id, news, server, declared !== undefined) };
}

/**
 * `delete`: deletes the job and its archive on the server (one DELETE); a job already gone, or a
 * project that no longer exists, has nothing left to delete. A server with no delete of jobs leaves
 * the job to run its course, and is named once in a warning. Pulumi's `retainOnDelete` keeps the job:
 * the engine then never calls this.
 */
export async function remove(id: string, olds: LogCollectionJobProviderOutputs): Promise<void> {
  const state = upgradeJobState(olds, id, "delete");
  await whenConfigured();
  const client = clientIn(`deleting ${where(id, state.groupId, state.server)}`, state.server);
  const operation: JobOperationKind = "deleteLogCollectionJob";
  const known = missingOperationOf(client, operation);
  if (known !== undefined) {
    warnUntrackedJobs(client, operation, known);
    return;
  }
  try {
    await deleteLogCollectionJob(client, state.groupId, id);
  } catch (error) {
    if (isJobGone(error) || isProjectGone(error)) return;
    if (isMissingOperation(error)) {
      rememberMissingOperation(client, operation, error);
      warnUntrackedJobs(client, operation, error);
      return;
    }
    throw inContext(`deleting ${where(id, state.groupId, state.server)}`, error);
  }
}

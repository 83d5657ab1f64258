/**
 * LogCollectionJob's state as every version wrote it, brought to today's shape in one place: each
 * method that reads state starts with {@link upgradeJobState}, which applies {@link JOB_STATE}'s steps
 * from the version the state was written at (../shared/state-version.ts).
 */
import {
  type StateReader,
  type StateUpgrade,
  type StoredVersion,
  upgradeState,
} from "../shared/state-version";
import { createInputsOf, specResourceType } from "./log-collection-job-inputs";
import type { LogCollectionJobProviderOutputs } from "./types";

/** The job's fields that the server shows, as the outputs hold them. */
export type ServerFields = Pick<
  LogCollectionJobProviderOutputs,
  | "status"
  | "creationDate"
  | "expirationDate"
  | "downloadUrl"
  | "userId"
  | "rootResourceName"
  | "rootResourceType"
  | "uncompressedSizeTotalBytes"
>;

/** What the outputs hold of the job before the server has shown it (plain JSON: no `undefined`). */
export const NOT_SHOWN: ServerFields = {
  status: "",
  creationDate: "",
  expirationDate: "",
  downloadUrl: "",
  userId: "",
  rootResourceName: "",
  rootResourceType: "",
  uncompressedSizeTotalBytes: 0,
};

const SERVER_FIELDS = Object.keys(NOT_SHOWN) as (keyof ServerFields)[];

/** The server's fields of `state`: each that is missing, or not of its type, as not shown. */
export function serverFieldsOf(state: Partial<LogCollectionJobProviderOutputs>): ServerFields {
  const fields: Record<string, unknown> = { ...NOT_SHOWN };
  for (const name of SERVER_FIELDS) {
    if (typeof state[name] === typeof NOT_SHOWN[name]) fields[name] = state[name];
  }
  return fields as unknown as ServerFields;
}

/**
 * Version 0 to 1: state written before versions, by any earlier version, read by which fields are
 * present. State written before jobs were followed holds the create inputs and `jobId` alone: its
 * server fields are not shown yet, and a missing `managed` manages no `expirationDate`, which those
 * versions neither took nor set (the job keeps the server's expiration, as it did). A `resourceType`
 * written before `check` normalized its case (`replicaset`) is in the spec's upper case, as the
 * program's now is.
 */
function fromVersion0(olds: Partial<LogCollectionJobProviderOutputs>): LogCollectionJobProviderOutputs {
  const inputs = createInputsOf(olds);
  if (inputs.resourceType !== undefined) {
    inputs.resourceType = specResourceType(inputs.resourceType) as typeof inputs.resourceType;
  }
  return {
    ...inputs,
    jobId: typeof olds.jobId === "string" ? olds.jobId : "",
    ...serverFieldsOf(olds),
    managed: { expirationDate: olds.managed?.expirationDate === true },
  };
}

/**
 * LogCollectionJob's state versions: `steps[v]` takes version v to v + 1, and version 1 is today's
 * {@link LogCollectionJobProviderOutputs}.
 */
export const JOB_STATE: StateUpgrade<LogCollectionJobProviderOutputs> = {
  resource: "LogCollectionJob",
  steps: [fromVersion0],
};

/**
 * Any LogCollectionJob state in today's shape, from the version it was written at; `method` (with the
 * job's id) is named in the error for a version newer than this code knows.
 */
export function upgradeJobState(
  olds: Partial<LogCollectionJobProviderOutputs> & StoredVersion,
  id: string,
  method: StateReader,
): LogCollectionJobProviderOutputs {
  return upgradeState(JOB_STATE, olds, id, method);
}

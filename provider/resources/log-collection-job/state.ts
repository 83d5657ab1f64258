/**
 * LogCollectionJob's state as every version wrote it, brought to today's shape in one place: each
 * method that reads state starts with {@link upgradeJobState}, so a field added later gets its default
 * here.
 */
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
 * Any earlier LogCollectionJob state in today's shape. State written before jobs were followed holds
 * the create inputs and `jobId` alone: its server fields are not shown yet, and a missing `managed`
 * manages no `expirationDate`, which those versions neither took nor set (the job keeps the server's
 * expiration, as it did). A `resourceType` written before `check` normalized its case (`replicaset`)
 * is in the spec's upper case, as the program's now is.
 */
export function upgradeJobState(
  olds: Partial<LogCollectionJobProviderOutputs>,
): LogCollectionJobProviderOutputs {
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

/**
 * LogCollectionJob as the provider plugin's schema describes it (`provider/schema.ts`): every input and
 * output of `types.ts`, in the README's words. `stateVersion`, which the state also carries, is not an
 * output (it says how the state is stored; no program reads it).
 */
import type { ObjectTypeDescriptor, ResourceDescriptor, TypeDescriptor } from "../shared/schema-descriptor";
import type { LogCollectionJobProviderInputs, LogCollectionJobProviderOutputs } from "./types";

const RESOURCE_TYPE = { $ref: "#/types/opsmanager:index:ResourceType" } as const;
const LOG_TYPE_LIST = { type: "array", items: { $ref: "#/types/opsmanager:index:LogType" } } as const;

/** What inputs and outputs share: every input but `expirationDate` is recorded as declared. */
const DECLARED = {
  groupId: {
    type: { type: "string" },
    description: "The project id, 24 hexadecimal digits. A change is a replacement (a new job).",
    required: true,
    replaces: true,
  },
  resourceType: {
    type: RESOURCE_TYPE,
    description:
      "`CLUSTER`, `PROCESS` or `REPLICASET`; recorded in upper case, the spec's spelling. A change is a replacement.",
    required: true,
    replaces: true,
  },
  resourceName: {
    type: { type: "string" },
    description:
      "Not blank; `CLUSTER`: the deployment's name or cluster id; `PROCESS`: the replica set's name followed by " +
      "the node name; `REPLICASET`: the replica set's name followed by the shard name. A change is a replacement.",
    required: true,
    replaces: true,
  },
  sizeRequestedPerFileBytes: {
    type: { type: "integer" },
    description: "A whole number of bytes from 1 to 2^53−1. A change is a replacement.",
    required: true,
    replaces: true,
  },
  logTypes: {
    type: LOG_TYPE_LIST,
    description:
      "At least one of `AUTOMATION_AGENT`, `BACKUP_AGENT`, `MONITORING_AGENT`, `MONGODB` (or `DATABASE`), `FTDC`, " +
      "each once, in any order (a set). A change is a replacement.",
    required: true,
    replaces: true,
  },
  redacted: {
    type: { type: "boolean" },
    description:
      "Replace emails, host names, IP addresses and namespaces with random strings. A change is a replacement.",
    required: true,
    replaces: true,
  },
  logCollectionFromDate: {
    type: { type: "integer" },
    description:
      "Collect logs from this time on, in whole milliseconds since the epoch, positive, at most 8.64e15 (what a " +
      "`Date` holds); before `logCollectionToDate`. A change is a replacement.",
    required: false,
    replaces: true,
  },
  logCollectionToDate: {
    type: { type: "integer" },
    description: "Collect logs up to this time, same rule. A change is a replacement.",
    required: false,
    replaces: true,
  },
  server: {
    omitted:
      "named servers are the dynamic face's; the plugin serves several servers as several provider instances",
  },
} as const;

/** LogCollectionJob's properties. */
export const LOG_COLLECTION_JOB_SCHEMA = {
  name: "LogCollectionJob",
  description:
    "A log collection job: created once with a POST and tracked by the id the server returns, then followed " +
    "through its life where the server allows: `pulumi refresh` shows its `status` and, once it has succeeded, " +
    "its `downloadUrl`; a new `expirationDate` is set in place; `pulumi destroy` deletes it. A change of any " +
    "other input starts a new job. The create is the POST alone: the job's status and dates are the first " +
    "refresh's to read.",
  inputs: {
    ...DECLARED,
    expirationDate: {
      type: { type: "string" },
      description:
        'When the job and its archive are deleted: an ISO 8601 time with a zone, in whole seconds (`"2026-06-30T00:00:00Z"`); ' +
        "a change is an update in place (one PATCH). Not given: the server's default stands.",
      required: false,
    },
  },
  outputs: {
    ...DECLARED,
    jobId: { type: { type: "string" }, description: "The job's id (= the resource id).", required: true },
    status: {
      type: { type: "string" },
      description:
        "`IN_PROGRESS`, `SUCCESS`, `FAILURE`, `MARKED_FOR_EXPIRY` or `EXPIRED` (a newer server's value is passed on " +
        'as it is); `""` until the first refresh reads it (a create reads nothing back).',
      required: true,
    },
    creationDate: {
      type: { type: "string" },
      description: "When the server created the job, ISO 8601, as the server writes it.",
      required: true,
    },
    expirationDate: {
      type: { type: "string" },
      description:
        "When the job expires, ISO 8601, as the server writes it; the declared one right after an update sets it.",
      required: true,
    },
    downloadUrl: {
      type: { type: "string" },
      description:
        "Where the archive is downloaded from (with the provider's credentials), once the server gives one.",
      required: true,
    },
    userId: { type: { type: "string" }, description: "Who created the job.", required: true },
    rootResourceName: {
      type: { type: "string" },
      description: "What the job collects from.",
      required: true,
    },
    rootResourceType: {
      type: { type: "string" },
      description: "What the job collects from, in lower case, as the server echoes it (`replicaset`).",
      required: true,
    },
    uncompressedSizeTotalBytes: {
      type: { type: "integer" },
      description: "Bytes collected, before compression; 0 until the server says.",
      required: true,
    },
    managed: {
      type: { $ref: "#/types/opsmanager:index:LogCollectionJobManaged" },
      description: "`{ expirationDate }`: whether the program declares `expirationDate`.",
      required: true,
    },
  },
} satisfies ResourceDescriptor<LogCollectionJobProviderInputs, LogCollectionJobProviderOutputs>;

/** The object types LogCollectionJob's outputs name. */
export const LOG_COLLECTION_JOB_TYPES: ObjectTypeDescriptor[] = [
  {
    name: "LogCollectionJobManaged",
    description: "Which of a log collection job's inputs the program declares.",
    properties: {
      expirationDate: {
        type: { type: "boolean" },
        description: "Whether the program declares `expirationDate` (so that refresh can show its drift).",
        required: true,
      },
    },
  } satisfies TypeDescriptor<LogCollectionJobProviderOutputs["managed"]>,
];

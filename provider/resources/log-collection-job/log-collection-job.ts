import * as pulumi from "@pulumi/pulumi";
import type { LogType, ResourceType } from "../../api/types";
import { unwrittenLeakTraces } from "../shared/promise-stacks";
import { dynamicType, LOG_COLLECTION_JOB_PROVIDER } from "../shared/providers";

/**
 * Inputs of {@link LogCollectionJob}. All but the time window and `expirationDate` are required; a
 * change of any but `expirationDate` is a replacement (a new job).
 */
export interface LogCollectionJobArgs {
  /** The project (group) id: 24 hexadecimal digits. */
  groupId: pulumi.Input<string>;
  /**
   * `CLUSTER` (a sharded cluster), `PROCESS` (a node of a replica set) or `REPLICASET`, in any case
   * (mongocli's `replicaset` too); recorded in upper case.
   */
  resourceType: pulumi.Input<ResourceType | Lowercase<ResourceType>>;
  /** The resource's name; its form depends on `resourceType` (see the README). */
  resourceName: pulumi.Input<string>;
  /** Size of each log file, in bytes: a positive whole number. */
  sizeRequestedPerFileBytes: pulumi.Input<number>;
  /**
   * Log types to collect, at least one, each once. The database log is `MONGODB` (as deployed servers
   * and the Ops Manager documentation name it) or `DATABASE` (the spec's name): either is sent under
   * the name the server takes.
   */
  logTypes: pulumi.Input<pulumi.Input<LogType>[]>;
  /** Replace emails, host names, IP addresses and namespaces with random strings. */
  redacted: pulumi.Input<boolean>;
  /** Collect logs from this time on, in ms since the epoch (e.g. `Date.parse("2026-03-01T00:00Z")`). */
  logCollectionFromDate?: pulumi.Input<number>;
  /** Collect logs up to this time, in ms since the epoch; after `logCollectionFromDate`. */
  logCollectionToDate?: pulumi.Input<number>;
  /**
   * When the job and its archive are deleted, as an ISO 8601 time with a zone in whole seconds
   * (`"2026-06-30T00:00:00Z"`); a change is applied in place with one PATCH. The server takes a time in
   * the future, at most 6 months after the job's creation, and never for an expired job. Not given:
   * the server's default (30 days after creation on the servers we know of) stands.
   */
  expirationDate?: pulumi.Input<string>;
  /**
   * The server the job is on: the name of a server in the stack config `opsmanager:servers`
   * (`pulumi config set --path 'opsmanager:servers.dc2.baseUrl' …`). Not given: the default server
   * (`opsmanager:baseUrl`). Only the name is stored; a change is a replacement.
   */
  server?: pulumi.Input<string>;
}

/**
 * A log collection job: created once with a POST and tracked by the id the server returns, then
 * followed through its life where the server allows: `pulumi refresh` shows its `status` and, once it
 * has succeeded, its `downloadUrl`; a new `expirationDate` is set in place; `pulumi destroy` deletes
 * it (unless the resource has Pulumi's `retainOnDelete` option). A change of any other input starts a
 * new job. A server that has only the spec's create keeps the job as recorded, and says so.
 *
 * @example
 * new LogCollectionJob("incident-42", { groupId, resourceType: "REPLICASET", resourceName: "rs0",
 *   sizeRequestedPerFileBytes: 10_000_000, logTypes: ["MONGODB", "FTDC"], redacted: true });
 */
export class LogCollectionJob extends pulumi.CustomResource {
  /** The job's id, as the server returned it (also the resource's id). */
  declare readonly jobId: pulumi.Output<string>;
  declare readonly groupId: pulumi.Output<string>;
  declare readonly resourceType: pulumi.Output<ResourceType>;
  declare readonly resourceName: pulumi.Output<string>;
  declare readonly sizeRequestedPerFileBytes: pulumi.Output<number>;
  declare readonly logTypes: pulumi.Output<LogType[]>;
  declare readonly redacted: pulumi.Output<boolean>;
  declare readonly logCollectionFromDate: pulumi.Output<number | undefined>;
  declare readonly logCollectionToDate: pulumi.Output<number | undefined>;
  /** `IN_PROGRESS`, `SUCCESS`, `FAILURE`, `MARKED_FOR_EXPIRY` or `EXPIRED`; `""` until the first refresh (a create reads nothing back). */
  declare readonly status: pulumi.Output<string>;
  /** When the server created the job (ISO 8601); `""` until the first refresh. */
  declare readonly creationDate: pulumi.Output<string>;
  /** When the job expires (ISO 8601): the server's at the last refresh, or the declared one (`""` before the first refresh when none is declared). */
  declare readonly expirationDate: pulumi.Output<string>;
  /** Where the archive is downloaded from, once the job has succeeded; else `""`. */
  declare readonly downloadUrl: pulumi.Output<string>;
  /** The id of the user or API key that created the job; `""` until the first refresh. */
  declare readonly userId: pulumi.Output<string>;
  declare readonly rootResourceName: pulumi.Output<string>;
  /** In lower case, as the server echoes it (`replicaset`). */
  declare readonly rootResourceType: pulumi.Output<string>;
  /** Bytes of logs collected, before compression; 0 until the server says. */
  declare readonly uncompressedSizeTotalBytes: pulumi.Output<number>;
  /** Whether the program declares `expirationDate`. */
  declare readonly managed: pulumi.Output<{ expirationDate: boolean }>;
  /** The named server the job is on, as declared; undefined for the default server. */
  declare readonly server: pulumi.Output<string | undefined>;

  constructor(name: string, args: LogCollectionJobArgs, opts?: pulumi.CustomResourceOptions) {
    // The SDK's promise-debugging stacks are left unwritten while it registers (shared/promise-stacks.ts).
    const restoreStacks = unwrittenLeakTraces();
    try {
      super(
        dynamicType("LogCollectionJob"),
        name,
        {
          logCollectionFromDate: undefined,
          logCollectionToDate: undefined,
          expirationDate: undefined,
          server: undefined,
          ...args,
          jobId: undefined,
          status: undefined,
          creationDate: undefined,
          downloadUrl: undefined,
          userId: undefined,
          rootResourceName: undefined,
          rootResourceType: undefined,
          uncompressedSizeTotalBytes: undefined,
          managed: undefined,
          __provider: LOG_COLLECTION_JOB_PROVIDER,
        },
        opts,
      );
    } finally {
      restoreStacks();
    }
  }
}

import * as pulumi from "@pulumi/pulumi";
import type { LogType, ResourceType } from "../api/types";
import { logCollectionJobProvider } from "./providers";

/**
 * Inputs of {@link LogCollectionJob}. All but the time window are required; any change is a
 * replacement.
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
}

/**
 * A log collection job: created once with a POST and tracked by the id the server returns. The API
 * has no update, read or delete of jobs: any change of an input starts a new job, and `pulumi destroy`
 * only removes the job from the stack.
 *
 * @example
 * new LogCollectionJob("incident-42", { groupId, resourceType: "REPLICASET", resourceName: "rs0",
 *   sizeRequestedPerFileBytes: 10_000_000, logTypes: ["MONGODB", "FTDC"], redacted: true });
 */
export class LogCollectionJob extends pulumi.dynamic.Resource {
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

  constructor(name: string, args: LogCollectionJobArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      logCollectionJobProvider,
      name,
      { logCollectionFromDate: undefined, logCollectionToDate: undefined, ...args, jobId: undefined },
      opts,
      "opsmanager",
      "LogCollectionJob",
    );
  }
}

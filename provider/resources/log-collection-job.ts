import * as pulumi from "@pulumi/pulumi";
import type { LogType, ResourceType } from "../api/types";
import { logCollectionJobProvider } from "./providers";

/** Inputs of {@link LogCollectionJob}. Every one is required; any change is a replacement. */
export interface LogCollectionJobArgs {
  /** The project (group) id: 24 hexadecimal digits. */
  groupId: pulumi.Input<string>;
  /** `CLUSTER` (a sharded cluster), `PROCESS` (a node of a replica set) or `REPLICASET`. */
  resourceType: pulumi.Input<ResourceType>;
  /** The resource's name; its form depends on `resourceType` (see the README). */
  resourceName: pulumi.Input<string>;
  /** Size of each log file, in bytes: a positive whole number. */
  sizeRequestedPerFileBytes: pulumi.Input<number>;
  /** Log types to collect, at least one, each once. */
  logTypes: pulumi.Input<pulumi.Input<LogType>[]>;
  /** Replace emails, host names, IP addresses and namespaces with random strings. */
  redacted: pulumi.Input<boolean>;
}

/**
 * A log collection job: created once with a POST and tracked by the id the server returns. The API
 * has no update, read or delete of jobs: any change of an input starts a new job, and `pulumi destroy`
 * only removes the job from the stack.
 *
 * @example
 * new LogCollectionJob("incident-42", { groupId, resourceType: "REPLICASET", resourceName: "rs0",
 *   sizeRequestedPerFileBytes: 10_000_000, logTypes: ["DATABASE", "FTDC"], redacted: true });
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

  constructor(name: string, args: LogCollectionJobArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      logCollectionJobProvider,
      name,
      { ...args, jobId: undefined },
      opts,
      "opsmanager",
      "LogCollectionJob",
    );
  }
}

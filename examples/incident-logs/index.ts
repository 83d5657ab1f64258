// Incident logs: one redacted log collection job per replica set. Changing any input starts a new job
// (the API cannot change a job); `pulumi destroy` deletes the jobs and their archives.
import * as pulumi from "@pulumi/pulumi";
import { LogCollectionJob } from "pulumi-opsmanager";

const config = new pulumi.Config();
const groupId = config.require("groupId");
const replicaSets = config.requireObject<string[]>("replicaSets");

export const jobIds = replicaSets.map(
  (name) =>
    new LogCollectionJob(`logs-${name}`, {
      groupId,
      resourceType: "REPLICASET",
      resourceName: name,
      sizeRequestedPerFileBytes: 50_000_000,
      logTypes: ["MONGODB", "FTDC", "AUTOMATION_AGENT"],
      redacted: true,
    }).jobId,
);

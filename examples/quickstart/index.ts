// Quickstart: adopt an existing organization API key, declare its desc and roles, and collect the logs
// of a replica set. Runs against the local simulator by default (`npm run example`).
import * as pulumi from "@pulumi/pulumi";
import { LogCollectionJob, OrgApiKey } from "pulumi-opsmanager";

const config = new pulumi.Config();
const orgId = config.require("orgId");
const groupId = config.require("groupId");

const ciKey = new OrgApiKey("ci-key", {
  orgId,
  publicKey: config.require("publicKey"),
  desc: "CI pipeline (managed by Pulumi)",
  roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
  restoreOnDelete: true,
});

const logs = new LogCollectionJob("rs0-logs", {
  groupId,
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["MONGODB", "AUTOMATION_AGENT"],
  redacted: true,
});

export const apiKeyId = ciKey.apiKeyId;
export const apiKeyRoles = ciKey.roles;
export const apiKeyPrivateKey = ciKey.privateKey; // redacted by the server
export const logCollectionJobId = logs.jobId;

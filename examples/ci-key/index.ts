// A CI key from start to end: create an organization API key, let it call the API only from the CI
// runners' addresses, give it a role in one project, and hand its private key to the pipeline as a
// secret. Runs against the local simulator by default (see the README's Examples).
import * as pulumi from "@pulumi/pulumi";
import { ApiKeyProjectAssignment, OrgApiKey } from "pulumi-opsmanager";

const config = new pulumi.Config();
const orgId = config.require("orgId");
const groupId = config.require("groupId");

// No apiKeyId nor publicKey: the key is created, and deleted by `pulumi destroy`.
const key = new OrgApiKey("ci", {
  orgId,
  desc: "CI pipeline (created by Pulumi)",
  roles: ["ORG_MEMBER"],
  accessList: ["203.0.113.0/24", "198.51.100.7"],
  keepers: { rotated: config.require("rotated") },
});

const inProject = new ApiKeyProjectAssignment("ci-in-project", {
  apiKeyId: key.apiKeyId,
  groupId,
  roles: ["GROUP_READ_ONLY", "GROUP_AUTOMATION_ADMIN"],
});

export const publicKey = key.publicKey;
// Already a secret output of OrgApiKey; pulumi.secret says so here too for whoever reads this program.
export const privateKey = pulumi.secret(key.privateKey);
export const accessList = key.accessList;
export const projectRoles = inProject.roles;

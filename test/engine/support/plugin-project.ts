/**
 * Projects that use the provider plugin (`pulumi-resource-opsmanager`) instead of the dynamic types:
 * their `Pulumi.yaml` names the plugin's folder in the package as installed (`plugins.providers`, as
 * the README says for a clone), and a small module declares the plugin's types with
 * `pulumi.CustomResource` and `pulumi.ProviderResource` until the generated Node.js SDK stands in.
 */
import type { ProjectOptions } from "./stack";

/** A project's `Pulumi.yaml` with the plugin's folder in the installed package. */
export function pluginProjectYaml(name: string): string {
  return `name: ${name}
runtime:
  name: nodejs
  options:
    typescript: true
plugins:
  providers:
    - name: opsmanager
      path: ./node_modules/pulumi-opsmanager/bin
`;
}

/** The plugin's types as a program declares them without the generated SDK. */
export const OPSMANAGER_TS = `import * as pulumi from "@pulumi/pulumi";

type Inputs = Record<string, pulumi.Input<unknown> | undefined>;

export class OrgApiKey extends pulumi.CustomResource {
  declare readonly apiKeyId: pulumi.Output<string>;
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly privateKey: pulumi.Output<string>;
  declare readonly roles: pulumi.Output<string[]>;
  declare readonly desc: pulumi.Output<string>;
  declare readonly accessList: pulumi.Output<string[]>;
  constructor(name: string, args: Inputs, opts?: pulumi.CustomResourceOptions) {
    super("opsmanager:index:OrgApiKey", name, { apiKeyId: undefined, publicKey: undefined, privateKey: undefined, roles: undefined, desc: undefined, accessList: undefined, ...args }, opts);
  }
}

export class ApiKeyProjectAssignment extends pulumi.CustomResource {
  declare readonly roles: pulumi.Output<string[]>;
  constructor(name: string, args: Inputs, opts?: pulumi.CustomResourceOptions) {
    super("opsmanager:index:ApiKeyProjectAssignment", name, { roles: undefined, ...args }, opts);
  }
}

export class LogCollectionJob extends pulumi.CustomResource {
  declare readonly jobId: pulumi.Output<string>;
  declare readonly status: pulumi.Output<string>;
  constructor(name: string, args: Inputs, opts?: pulumi.CustomResourceOptions) {
    super("opsmanager:index:LogCollectionJob", name, { jobId: undefined, status: undefined, ...args }, opts);
  }
}

export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: Inputs, opts?: pulumi.ResourceOptions) {
    super("opsmanager", name, args, opts);
  }
}
`;

/** The README's first program, through the plugin: an adopted key put back on destroy, and a job. */
export const FIRST_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { LogCollectionJob, OrgApiKey } from "./opsmanager";

const config = new pulumi.Config();
const ciKey = new OrgApiKey("ci-key", {
  orgId: config.require("orgId"),
  publicKey: config.require("publicKey"),
  desc: config.get("desc") ?? "CI pipeline (managed by Pulumi)",
  roles: config.getObject<string[]>("roles") ?? ["ORG_MEMBER", "ORG_READ_ONLY"],
  restoreOnDelete: true,
});
const logs = new LogCollectionJob("rs0-logs", {
  groupId: config.require("groupId"),
  resourceType: "REPLICASET",
  resourceName: config.get("resourceName") ?? "rs0",
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["MONGODB", "AUTOMATION_AGENT"],
  redacted: true,
});
export const apiKeyId = ciKey.apiKeyId;
export const apiKeyRoles = ciKey.roles;
export const logCollectionJobId = logs.jobId;
`;

/** examples/ci-key through the plugin: a created key with an access list, assigned to a project. */
export const CI_KEY_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { ApiKeyProjectAssignment, OrgApiKey } from "./opsmanager";

const config = new pulumi.Config();
const key = new OrgApiKey("ci", {
  orgId: config.require("orgId"),
  desc: "CI pipeline (created by Pulumi)",
  roles: ["ORG_MEMBER"],
  accessList: ["203.0.113.0/24", "198.51.100.7"],
  keepers: { rotated: config.require("rotated") },
});
const inProject = new ApiKeyProjectAssignment("ci-in-project", {
  apiKeyId: key.apiKeyId,
  groupId: config.require("groupId"),
  roles: ["GROUP_READ_ONLY", "GROUP_AUTOMATION_ADMIN"],
});
export const publicKey = key.publicKey;
// Not wrapped in pulumi.secret: the plugin answers it as a secret.
export const privateKey = key.privateKey;
export const accessList = key.accessList;
export const projectRoles = inProject.roles;
`;

/** A project of `program` through the plugin, with more files when given. */
export function pluginProject(program: string, files: Record<string, string> = {}): ProjectOptions {
  return {
    files: {
      "Pulumi.yaml": pluginProjectYaml("plugin-program"),
      "opsmanager.ts": OPSMANAGER_TS,
      "index.ts": program,
      ...files,
    },
  };
}

/**
 * The Node.js SDK and the plugin together, as a user gets them: the SDK's package as the release packs
 * it, in a program's node_modules with the `@pulumi/pulumi` it requires; the plugin installed from
 * `npm run plugin:pack`'s tarball by the real `pulumi plugin install`; the real CLI running the program
 * against the simulator. Needs the plugin's built entry (`dist/provider/plugin/bundle.js`).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import { cli } from "../engine/support/cli";
import { installNodeSdk, nodeSdkMissing } from "../engine/support/node-sdk";
import { snapshot } from "../engine/support/world";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";

const execFileAsync = promisify(execFile);
// The packing script is plain CommonJS, run by npm as a script.
const { pack, ENTRY } = require("../../tools/plugin-pack.js") as {
  pack(options: { outDir: string }): string;
  ENTRY: string;
};

const { version } = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as {
  version: string;
};
const { bin, missing: noCli } = cli();
const missing =
  noCli ??
  (existsSync(path.join(repoRoot(), ENTRY)) ? undefined : `the plugin's built entry ${ENTRY}`) ??
  nodeSdkMissing();

// examples/ci-key (a created key with an access list and keepers, assigned to a project) and the
// README's first program (an adopted key put back on destroy, a log collection job), on the SDK.
const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const opsmanager = require("@pulumi-opsmanager/sdk");
const config = new pulumi.Config();
const orgId = config.require("orgId");
const groupId = config.require("groupId");
const key = new opsmanager.OrgApiKey("made", {
  orgId,
  desc: "made by the SDK",
  roles: [opsmanager.OrgRole.OrgMember],
  accessList: ["203.0.113.0/24", "198.51.100.7"],
  keepers: { rotated: "2026-11" },
});
const inProject = new opsmanager.ApiKeyProjectAssignment("made-in-project", {
  apiKeyId: key.apiKeyId,
  groupId,
  roles: ["GROUP_READ_ONLY", "GROUP_AUTOMATION_ADMIN"],
});
const adopted = new opsmanager.OrgApiKey("ci-key", {
  orgId,
  publicKey: config.require("adoptPublicKey"),
  desc: "CI pipeline (managed by Pulumi)",
  roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
  restoreOnDelete: true,
});
const logs = new opsmanager.LogCollectionJob("rs0-logs", {
  groupId,
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 10000000,
  logTypes: ["MONGODB", "AUTOMATION_AGENT"],
  redacted: true,
});
const keys = opsmanager.getOrgApiKeysOutput({ orgId });
exports.publicKeys = keys.apply((listed) => listed.map((k) => k.publicKey));
exports.publicKey = key.publicKey;
exports.privateKey = key.privateKey;
exports.roles = key.roles;
exports.accessList = key.accessList;
exports.projectRoles = inProject.roles;
exports.adoptedDesc = adopted.desc;
exports.jobStatus = logs.status;
`;

describeNeeding(
  "a Node.js program on the SDK, through the plugin installed from its tarball",
  missing,
  () => {
    let work: string;
    let program: string;
    let sim: Awaited<ReturnType<typeof startSimulator>>;
    let env: NodeJS.ProcessEnv;

    const pulumi = async (...args: string[]) =>
      (
        await execFileAsync(path.join(bin!, "pulumi"), args, {
          cwd: program,
          env,
          timeout: 300_000,
          maxBuffer: 16 * 1024 * 1024,
        })
      ).stdout;

    beforeAll(async () => {
      work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdk-program-"));
      // Jobs stay IN_PROGRESS for the whole test: a refresh that finds nothing changed does not depend on speed.
      sim = await startSimulator({ jobDurationMs: 3_600_000 });
      env = {
        ...process.env,
        PATH: `${bin}${path.delimiter}${process.env.PATH}`,
        PULUMI_HOME: path.join(work, "home"),
        PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`,
        PULUMI_CONFIG_PASSPHRASE: "sdk-program",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      };
      await fsp.mkdir(path.join(work, "state"));
      const tarball = pack({ outDir: path.join(work, "out") });
      await pulumi("plugin", "install", "resource", "opsmanager", version, "--file", tarball);

      // The SDK's package as the release packs it, placed as npm would install it.
      program = path.join(work, "program");
      await installNodeSdk(program);
      await fsp.writeFile(path.join(program, "Pulumi.yaml"), "name: sdk-program\nruntime: nodejs\n");
      await fsp.writeFile(
        path.join(program, "package.json"),
        '{ "name": "sdk-program", "main": "index.js" }\n',
      );
      await fsp.writeFile(path.join(program, "index.js"), PROGRAM);
      await pulumi("stack", "init", "dev");
      await pulumi("config", "set", "orgId", sim.orgId);
      await pulumi("config", "set", "groupId", sim.groupId);
      const toAdopt = sim.state.apiKeys(sim.orgId).find((k) => k.publicKey !== sim.publicKey)!;
      await pulumi("config", "set", "adoptPublicKey", toAdopt.publicKey);
      await pulumi("config", "set", "opsmanager:baseUrl", sim.url);
      await pulumi("config", "set", "opsmanager:publicKey", sim.publicKey);
      await pulumi("config", "set", "--secret", "opsmanager:privateKey", sim.privateKey);
    }, 600_000);

    afterAll(async () => {
      await sim?.close();
      if (work !== undefined) await fsp.rm(work, { recursive: true, force: true });
    });

    it("ci-key and the README's first program: preview sends nothing, up, no change on preview and refresh, the private key a secret, destroy leaves the server as it was", async () => {
      const before = snapshot(sim);
      sim.resetRequests();
      await pulumi("preview");
      // The listing getOrgApiKeys reads is the only request a preview makes.
      expect(
        sim.requests.filter((r) => r.authenticated && !(r.method === "GET" && r.path.endsWith("/apiKeys"))),
      ).toEqual([]);
      await pulumi("up", "--yes", "--skip-preview");
      const outputs = JSON.parse(await pulumi("stack", "output", "--json", "--show-secrets")) as {
        publicKey: string;
        privateKey: string;
        roles: string[];
        publicKeys: string[];
        accessList: string[];
        projectRoles: string[];
        adoptedDesc: string;
        jobStatus: string;
      };
      expect(outputs.roles).toEqual(["ORG_MEMBER"]);
      const made = sim.state.apiKeys(sim.orgId).find((k) => k.desc === "made by the SDK");
      expect(made?.publicKey).toBe(outputs.publicKey);
      expect(outputs.privateKey).toBe(made?.privateKey);
      expect(outputs.publicKeys).toContain(sim.publicKey);
      expect(outputs.accessList).toEqual(["198.51.100.7", "203.0.113.0/24"]);
      expect(
        sim.state
          .accessList(made!.id)
          .map((e) => e.cidrBlock)
          .sort(),
      ).toEqual(["198.51.100.7/32", "203.0.113.0/24"]);
      expect([...outputs.projectRoles].sort()).toEqual(["GROUP_AUTOMATION_ADMIN", "GROUP_READ_ONLY"]);
      expect(outputs.adoptedDesc).toBe("CI pipeline (managed by Pulumi)");
      // A job's create reads nothing back: its status is the first refresh's to read.
      expect(outputs.jobStatus).toBe("");
      const shown = JSON.parse(await pulumi("stack", "output", "--json")) as { privateKey: string };
      expect(shown.privateKey).toBe("[secret]");
      expect(await pulumi("stack", "export")).not.toContain(outputs.privateKey);

      await pulumi("preview", "--expect-no-changes");
      await pulumi("refresh", "--yes", "--skip-preview", "--expect-no-changes");
      const refreshed = JSON.parse(await pulumi("stack", "export")) as {
        deployment: { resources: Array<{ type: string; outputs?: { status?: string } }> };
      };
      expect(
        refreshed.deployment.resources
          .filter((r) => r.type.endsWith("LogCollectionJob"))
          .map((r) => r.outputs?.status),
      ).toEqual(["IN_PROGRESS"]);
      await pulumi("preview", "--expect-no-changes");
      await pulumi("destroy", "--yes", "--skip-preview");
      expect(snapshot(sim)).toEqual(before);
    }, 600_000);
  },
  { timeout: 600_000 },
);

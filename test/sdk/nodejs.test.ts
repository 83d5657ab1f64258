/**
 * The Node.js SDK compiles, with its own tsconfig, into the package the release packs
 * (tools/release/node-sdk.js), against the oldest `@pulumi/pulumi` it declares (the generators' minimum:
 * the SDK calls `pulumi.runtime.existsResource`, which the repository's own 3.248 lacks), installed once
 * from the npm registry into `.sdk-floor/`. And its types mean what the dynamic face's mean: a program
 * written for the plugin compiles against the installed package's declarations.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { compiledNodeSdk, installNodeSdk, nodeSdkFloor, nodeSdkMissing } from "../engine/support/node-sdk";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";

const execFileAsync = promisify(execFile);
const floor = nodeSdkFloor();

// A program for the plugin, in the shapes the README's program has for the dynamic face.
const PROGRAM = `
import * as opsmanager from "@pulumi-opsmanager/sdk";

const prod = new opsmanager.Provider("prod", { baseUrl: "https://om.example.com:8443", publicKey: "abcdefgh" });
const key = new opsmanager.OrgApiKey(
  "ci",
  { orgId: "5f0000000000000000000001", desc: "CI", roles: ["ORG_MEMBER", "ORG_READ_ONLY"], keepers: { rotated: "2026-11" } },
  { provider: prod },
);
new opsmanager.ApiKeyProjectAssignment("ci-in-project", {
  apiKeyId: key.apiKeyId,
  groupId: "5f0000000000000000000002",
  roles: ["GROUP_READ_ONLY"],
});
new opsmanager.LogCollectionJob("rs0-logs", {
  groupId: "5f0000000000000000000002",
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["MONGODB", "AUTOMATION_AGENT"],
  redacted: true,
});
export const roles: import("@pulumi/pulumi").Output<("ORG_OWNER" | "ORG_MEMBER" | "ORG_GROUP_CREATOR" | "ORG_READ_ONLY")[]> = key.roles;
export const privateKey: import("@pulumi/pulumi").Output<string> = key.privateKey;
export const keys: Promise<{ id: string; publicKey: string; desc?: string }[]> = opsmanager.getOrgApiKeys({ orgId: "5f0000000000000000000001" });
// @ts-expect-error a role that does not exist
new opsmanager.OrgApiKey("bad", { orgId: "x", roles: ["ORG_ADMIN"] });
`;

// The program's own project, as \`pulumi new typescript\` would make it: strict, Node's module resolution.
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "ES2022",
    types: ["node"],
    noEmit: true,
    skipLibCheck: false,
  },
  files: ["program.ts"],
};

describeNeeding(`the Node.js SDK on @pulumi/pulumi ${floor}`, nodeSdkMissing(), () => {
  let work: string;

  beforeAll(async () => {
    work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdk-nodejs-"));
  });

  afterAll(async () => {
    if (work !== undefined) await fsp.rm(work, { recursive: true, force: true });
  });

  it("compiles with its own tsconfig into JavaScript and declarations, package.json naming them", async () => {
    const { dir } = await compiledNodeSdk();
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      main: string;
      types: string;
    };
    expect(existsSync(path.join(dir, manifest.main))).toBe(true);
    expect(existsSync(path.join(dir, manifest.types))).toBe(true);
    for (const module of [
      "orgApiKey",
      "apiKeyProjectAssignment",
      "logCollectionJob",
      "provider",
      "getOrgApiKeys",
    ]) {
      expect(existsSync(path.join(dir, `${module}.js`)), module).toBe(true);
      expect(existsSync(path.join(dir, `${module}.d.ts`)), module).toBe(true);
    }
  }, 300_000);

  it("takes a program written for it, and refuses a role that does not exist", async () => {
    await installNodeSdk(work);
    await fsp.mkdir(path.join(work, "node_modules", "@types"), { recursive: true });
    await fsp.symlink(
      path.join(repoRoot(), "node_modules", "@types", "node"),
      path.join(work, "node_modules", "@types", "node"),
      "dir",
    );
    await fsp.writeFile(path.join(work, "program.ts"), PROGRAM);
    await fsp.writeFile(path.join(work, "tsconfig.json"), JSON.stringify(TSCONFIG));
    const { stdout } = await execFileAsync(
      process.execPath,
      [require.resolve("typescript/bin/tsc"), "-p", path.join(work, "tsconfig.json")],
      { cwd: work, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => {
      throw new Error(`tsc of the program failed:\n${error.stdout ?? String(error)}`);
    });
    expect(stdout).toBe("");
  }, 300_000);
});

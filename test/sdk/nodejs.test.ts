/**
 * The Node.js SDK type-checks, with its own tsconfig, against the oldest `@pulumi/pulumi` it declares
 * (the generators' minimum: the SDK calls `pulumi.runtime.existsResource`, which the repository's own
 * 3.248 lacks), installed once from the npm registry into `.sdk-floor/`. And its types mean what the
 * dynamic face's mean: a program written for the plugin compiles with them.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { registryUnreachable } from "../support/registry";
import { installedSdk, sdkInstalled } from "../support/sdk-floor";
import { SDK } from "./sdk-support";

const execFileAsync = promisify(execFile);
const manifest = JSON.parse(readFileSync(path.join(SDK, "nodejs", "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};
const floor = /^\^(\d+\.\d+\.\d+)$/.exec(manifest.dependencies["@pulumi/pulumi"] ?? "")?.[1] ?? "";
const offline = sdkInstalled(floor) ? undefined : registryUnreachable(`@pulumi/pulumi@${floor}`);

// A program for the plugin, in the shapes the README's program has for the dynamic face.
const PROGRAM = `
import * as opsmanager from "./index";

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

describeNeeding(
  `the Node.js SDK on @pulumi/pulumi ${floor}`,
  floor === "" ? "a ^X.Y.Z dependency on @pulumi/pulumi in sdk/nodejs/package.json" : offline,
  () => {
    let work: string;

    beforeAll(async () => {
      const sdk = await installedSdk(floor);
      work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdk-nodejs-"));
      await fsp.cp(path.join(SDK, "nodejs"), work, { recursive: true });
      // The SDK's imports resolve to that @pulumi/pulumi, and its `types: ["node"]` to the repository's.
      await fsp.mkdir(path.join(work, "node_modules", "@types"), { recursive: true });
      await fsp.symlink(path.dirname(sdk), path.join(work, "node_modules", "@pulumi"), "dir");
      await fsp.symlink(
        path.join(repoRoot(), "node_modules", "@types", "node"),
        path.join(work, "node_modules", "@types", "node"),
        "dir",
      );
    }, 300_000);

    afterAll(async () => {
      if (work !== undefined) await fsp.rm(work, { recursive: true, force: true });
    });

    const tsc = (project: string) =>
      execFileAsync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", project, "--noEmit"], {
        cwd: work,
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => {
        throw new Error(`tsc -p ${path.basename(project)} failed:\n${error.stdout ?? String(error)}`);
      });

    it("type-checks with its own tsconfig", async () => {
      await tsc(path.join(work, "tsconfig.json"));
    }, 300_000);

    it("takes a program written for it, and refuses a role that does not exist", async () => {
      await fsp.writeFile(path.join(work, "program.ts"), PROGRAM);
      const config = JSON.parse(
        (await fsp.readFile(path.join(work, "tsconfig.json"), "utf8")).replace(/^\s*\/\/.*$/gm, ""),
      ) as { files: string[] };
      config.files = [...config.files, "program.ts"];
      await fsp.writeFile(path.join(work, "tsconfig.program.json"), JSON.stringify(config));
      await tsc(path.join(work, "tsconfig.program.json"));
      expect(config.files).toContain("program.ts");
    }, 300_000);
  },
);

/**
 * The release as a user installs it, under the real CLI: a loopback server stands in for GitHub's
 * release downloads (through the CLI's own PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), every program starts
 * from an empty PULUMI_HOME, and `pulumi up` itself downloads this platform's plugin from it. Python and
 * YAML programs run with no Node.js reachable (a mount namespace masks every node binary), so the
 * plugin can only be the self-contained binary; the TypeScript program needs node for itself, and its
 * plugin is the downloaded binary all the same.
 *
 * - YAML: examples/ci-key-yaml, with `version` and `pluginDownloadURL` in its resources' options.
 * - Python: examples/ci-key-python, in a fresh venv where pip installs pulumi_opsmanager from the
 *   release's python/ folder (its wheel names the plugin's server in pulumi-plugin.json).
 * - TypeScript: the SDK's npm package from the release's npm/ folder, installed with npm.
 *
 * Each: up (the archive fetched once, the plugin in PULUMI_HOME/plugins, ci-key's resources on the
 * simulator), a preview with no change, destroy (the simulator as before).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, it } from "vitest";
import { languageTools } from "../engine/support/languages";
import { NODE_STILL_FOUND, noNodeMissing, withoutNode } from "../support/no-node";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { deployAndDestroy, releasedExample, releaseVenv } from "./support/programs";
import { RELEASE_LIMIT_MS, releaseDir, releaseMissing, VERSION } from "./support/release";
import { initStack, openReleaseWorld } from "./support/user";

const execFileAsync = promisify(execFile);
const { tools, missing: noTools } = languageTools();
const missing = releaseMissing() ?? noNodeMissing() ?? noTools;

describeNeeding(
  "test/release/install: the release installed as a user installs it, under the real CLI",
  missing,
  () => {
    let release: string;
    beforeAll(async () => {
      release = await releaseDir();
    }, RELEASE_LIMIT_MS);

    it("no node is reachable in the namespace the commands run in, though this machine has one", async ({
      expect,
    }) => {
      const pathVariable = process.env.PATH ?? "";
      const outside = await execFileAsync("sh", ["-c", "command -v node"], { env: { PATH: pathVariable } });
      expect(outside.stdout.trim()).not.toBe("");
      // The wrapper's own proof, and a command of ours that looks for node anyway.
      const [file, ...args] = withoutNode(["sh", "-c", "command -v node || echo none"], pathVariable);
      const inside = await execFileAsync(file, args, { env: { PATH: pathVariable } });
      expect(inside.stdout.trim()).toBe("none");
      const [file2, ...args2] = withoutNode([process.execPath, "--version"], pathVariable);
      const direct = await execFileAsync(file2, args2, { env: { PATH: pathVariable } }).catch((e) => e);
      expect(direct.code).not.toBe(0);
      expect(direct.code).not.toBe(NODE_STILL_FOUND);
    });

    describe.concurrent("each program downloads the plugin with `pulumi up`, deploys, and is destroyed", () => {
      it("a YAML program (examples/ci-key-yaml), with no node on the machine", async ({
        expect,
        onTestFinished,
      }) => {
        const { user, server, sim } = await openReleaseWorld(
          onTestFinished,
          release,
          { bin: tools!.bin, path: [tools!.hosts] },
          { files: releasedExample("ci-key-yaml") },
        );
        await initStack(user, sim, { orgId: sim.orgId, groupId: sim.groupId });
        await deployAndDestroy(expect, user, sim, server);
      });

      it("a Python program (examples/ci-key-python) with pulumi_opsmanager pip-installed from the release's wheel, with no node on the machine", async ({
        expect,
        onTestFinished,
      }) => {
        const { user, server, sim } = await openReleaseWorld(
          onTestFinished,
          release,
          { bin: tools!.bin, path: [tools!.hosts] },
          { files: releasedExample("ci-key-python") },
        );
        const venv = await releaseVenv(path.join(user.dir, "venv"), tools!.venv, release);
        // The package the program imports is the release's wheel, installed into this venv.
        const shown = await execFileAsync(path.join(venv, "bin", "python"), [
          "-c",
          "import json, pulumi_opsmanager, importlib.metadata as m; d = m.distribution('pulumi_opsmanager'); print(json.dumps({'file': pulumi_opsmanager.__file__, 'version': d.version, 'installer': (d.read_text('INSTALLER') or '').strip()}))",
        ]);
        const where = JSON.parse(shown.stdout) as { file: string; version: string; installer: string };
        expect(
          where.file.startsWith(`${fs.realpathSync(venv)}/lib/`) || where.file.startsWith(`${venv}/lib/`),
        ).toBe(true);
        expect(where.version).toBe(VERSION);
        expect(where.installer).toBe("pip");
        await initStack(user, sim, { orgId: sim.orgId, groupId: sim.groupId });
        await deployAndDestroy(expect, user, sim, server);
      });

      it("a TypeScript program with the SDK's npm package from the release, installed with npm", async ({
        expect,
        onTestFinished,
      }) => {
        const { user, server, sim } = await openReleaseWorld(
          onTestFinished,
          release,
          { bin: tools!.bin, keepNode: true },
          {
            files: {
              "Pulumi.yaml":
                "name: release-typescript\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
              "index.ts": TYPESCRIPT_PROGRAM,
              "tsconfig.json": fs.readFileSync(
                path.join(repoRoot(), "examples", "ci-key", "tsconfig.json"),
                "utf8",
              ),
            },
          },
        );
        await installTypescriptProject(user.dir, release);
        // Nothing on PATH can serve the plugin: the CLI must use the one it downloads.
        expect(await onPath("pulumi-resource-opsmanager", user.env.PATH ?? "")).toBe(false);
        await initStack(user, sim, { orgId: sim.orgId, groupId: sim.groupId });
        await deployAndDestroy(expect, user, sim, server);
      });
    });
  },
  { timeout: RELEASE_LIMIT_MS },
);

/** examples/ci-key on the SDK's package (its types and enums), not the dynamic package. */
const TYPESCRIPT_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as opsmanager from "@pulumi-opsmanager/sdk";

const config = new pulumi.Config();
const key = new opsmanager.OrgApiKey("ci", {
  orgId: config.require("orgId"),
  desc: "CI pipeline (created by Pulumi)",
  roles: [opsmanager.OrgRole.OrgMember],
  accessList: ["203.0.113.0/24", "198.51.100.7"],
  keepers: { rotated: "2026-11" },
});
const inProject = new opsmanager.ApiKeyProjectAssignment("ci-in-project", {
  apiKeyId: key.apiKeyId,
  groupId: config.require("groupId"),
  roles: [opsmanager.GroupRole.GroupReadOnly, opsmanager.GroupRole.GroupAutomationAdmin],
});
export const publicKey = key.publicKey;
export const privateKey = key.privateKey;
export const accessList = key.accessList;
export const projectRoles = inProject.roles;
`;

/**
 * \`npm install\` of the release's SDK package into the project, with the \`@pulumi/pulumi\` this
 * clone runs on (from npm's cache when it is there) and TypeScript for the program.
 */
async function installTypescriptProject(dir: string, release: string): Promise<void> {
  const tarball = path.join(release, "npm", `pulumi-opsmanager-sdk-${VERSION}.tgz`);
  const version = (name: string) =>
    (
      JSON.parse(fs.readFileSync(path.join(repoRoot(), "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  // The oldest @pulumi/pulumi the package allows, which runs on this machine's Node 20 too.
  const packed = JSON.parse(
    (await execFileAsync("tar", ["-xOzf", tarball, "package/package.json"], { maxBuffer: 1024 * 1024 }))
      .stdout,
  ) as { dependencies: Record<string, string> };
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(packed.dependencies["@pulumi/pulumi"] ?? "")?.[1];
  if (!floor)
    throw new Error(`${tarball} depends on @pulumi/pulumi ${packed.dependencies["@pulumi/pulumi"]}`);
  const manifest = {
    name: "release-typescript",
    private: true,
    main: "index.ts",
    dependencies: { "@pulumi-opsmanager/sdk": `file:${tarball}`, "@pulumi/pulumi": floor },
    devDependencies: { typescript: version("typescript"), "@types/node": version("@types/node") },
  };
  await fsp.writeFile(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  try {
    await execFileAsync(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
      { cwd: dir, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm install of ${tarball} failed\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

async function onPath(name: string, pathVariable: string): Promise<boolean> {
  for (const dir of pathVariable.split(path.delimiter).filter(Boolean)) {
    if (fs.existsSync(path.join(dir, name))) return true;
  }
  return false;
}

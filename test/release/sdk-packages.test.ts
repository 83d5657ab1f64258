/**
 * The SDK packages of the release (tools/release/sdk-packages.js), built once into a temporary folder
 * and opened as each registry's client opens them: the npm SDK's tarball holds compiled JavaScript
 * and declarations and loads by its package name; the wheel and the sdist carry the plugin's
 * download URL and version; the Go module comes through `go get` from the release's GOPROXY folder,
 * builds, and passes `go mod verify`; every name and version is package.json's. Needs Go, Python
 * (tools/python/venv.sh makes the venv once) and the `@pulumi/pulumi` the Node.js SDK compiles
 * against (installed once into `.sdk-floor/`).
 */
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/schema";
import { missingTool } from "../sdk/sdk-support";
import { releaseGoEnv, SDK_MODULE } from "../support/go-modules";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { registryUnreachable } from "../support/registry";
import { installedSdk, sdkInstalled } from "../support/sdk-floor";

const execFileAsync = promisify(execFile);
// The release's tools are plain CommonJS, run by node.
const { buildSdkPackages } = require("../../tools/release/sdk-packages.js") as {
  buildSdkPackages(options: {
    root: string;
    outDir: string;
    version: string;
    pulumiSdk?: string;
  }): Promise<{ files: string[]; nuget: string }>;
};
const { pulumiFloor } = require("../../tools/release/node-sdk.js") as { pulumiFloor(root: string): string };

const root = repoRoot();
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const floor = pulumiFloor(root);
const missing =
  missingTool("go", ["version"], "Go") ??
  missingTool("python3", ["--version"], "Python 3") ??
  (sdkInstalled(floor) ? undefined : registryUnreachable(`@pulumi/pulumi@${floor}`));
const GO_AT = path.join("go", ...SDK_MODULE.split("/"), "@v");

const run = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  execFileAsync(command, args, { timeout: 600_000, maxBuffer: 64 * 1024 * 1024, ...options }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${command} ${args.join(" ")}: ${error.stderr || error.stdout || error.message}`);
    },
  );

/** A file of a zip archive (a wheel, a Go module zip), read by Python's zipfile. */
const unzip = async (archive: string, name: string) =>
  (
    await run("python3", [
      "-c",
      "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
      archive,
      name,
    ])
  ).stdout;
const zipNames = async (archive: string) =>
  (
    await run("python3", [
      "-c",
      "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
      archive,
    ])
  ).stdout
    .trim()
    .split("\n");
const tarNames = async (archive: string) => (await run("tar", ["-tzf", archive])).stdout.trim().split("\n");
const tarFile = async (archive: string, name: string) => (await run("tar", ["-xzOf", archive, name])).stdout;

describeNeeding(
  "the release's SDK packages",
  missing,
  () => {
    let work: string;
    let out: string;
    let built: { files: string[]; nuget: string };

    beforeAll(async () => {
      work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdk-packages-test-"));
      out = path.join(work, "release");
      built = await buildSdkPackages({ root, outDir: out, version, pulumiSdk: await installedSdk(floor) });
    }, 900_000);

    afterAll(async () => {
      if (work !== undefined) await fsp.rm(work, { recursive: true, force: true });
    });

    it("writes the contract's files, each named for package.json's version, and says why there is no NuGet package", async () => {
      const expected = [
        `npm/pulumi-opsmanager-${version}.tgz`,
        `npm/pulumi-opsmanager-sdk-${version}.tgz`,
        `python/pulumi_opsmanager-${version}-py3-none-any.whl`,
        `python/pulumi_opsmanager-${version}.tar.gz`,
        ...["list", `v${version}.info`, `v${version}.mod`, `v${version}.zip`].map((f) => path.join(GO_AT, f)),
      ].sort();
      expect(built.files).toEqual(expected);
      const written = (await fsp.readdir(out, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => path.relative(out, path.join(e.parentPath, e.name)))
        .sort();
      expect(written).toEqual(expected);
      expect(built.nuget).toMatch(/\.NET/);
    });

    it("the npm SDK: compiled JavaScript and declarations, package.json naming them, the version and the plugin's server; it loads by its name", async () => {
      const tarball = path.join(out, "npm", `pulumi-opsmanager-sdk-${version}.tgz`);
      const names = await tarNames(tarball);
      for (const module of [
        "index",
        "orgApiKey",
        "apiKeyProjectAssignment",
        "logCollectionJob",
        "provider",
      ]) {
        expect(names).toContain(`package/${module}.js`);
        expect(names).toContain(`package/${module}.d.ts`);
      }
      expect(names.filter((n) => n.endsWith(".ts") && !n.endsWith(".d.ts"))).toEqual([]);
      expect(names).toContain("package/LICENSE");
      const manifest = JSON.parse(await tarFile(tarball, "package/package.json")) as Record<string, unknown>;
      expect(manifest).toMatchObject({
        name: "@pulumi-opsmanager/sdk",
        version,
        main: "index.js",
        types: "index.d.ts",
        dependencies: { "@pulumi/pulumi": `^${floor}` },
        pulumi: { resource: true, name: "opsmanager", version, server: PLUGIN_DOWNLOAD_URL },
      });

      // Unpacked where npm would put it, beside the @pulumi/pulumi it requires.
      const program = path.join(work, "program");
      const installed = path.join(program, "node_modules", "@pulumi-opsmanager", "sdk");
      await fsp.mkdir(installed, { recursive: true });
      await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
      await fsp.symlink(
        path.dirname(await installedSdk(floor)),
        path.join(program, "node_modules", "@pulumi"),
      );
      const script =
        'const sdk = require("@pulumi-opsmanager/sdk"); console.log(JSON.stringify([typeof sdk.OrgApiKey, typeof sdk.getOrgApiKeysOutput, sdk.OrgRole.OrgMember]))';
      const { stdout } = await run(process.execPath, ["-e", script], { cwd: program });
      expect(JSON.parse(stdout)).toEqual(["function", "function", "ORG_MEMBER"]);
    });

    it("the dynamic package: npm pack of the repository as built, at package.json's version", async () => {
      const tarball = path.join(out, "npm", `pulumi-opsmanager-${version}.tgz`);
      const names = await tarNames(tarball);
      expect(names).toEqual(
        expect.arrayContaining([
          "package/dist/provider/index.js",
          "package/dist/provider/index.d.ts",
          "package/provider/plugin/schema.json",
          "package/bin/pulumi-resource-opsmanager",
          "package/LICENSE",
        ]),
      );
      const manifest = JSON.parse(await tarFile(tarball, "package/package.json")) as {
        name: string;
        version: string;
      };
      expect(manifest).toMatchObject({ name: "pulumi-opsmanager", version });
    });

    it("the wheel and the sdist: pulumi_opsmanager at the version, its pulumi-plugin.json naming the plugin's server", async () => {
      const wheel = path.join(out, "python", `pulumi_opsmanager-${version}-py3-none-any.whl`);
      const plugin = { resource: true, name: "opsmanager", version, server: PLUGIN_DOWNLOAD_URL };
      expect(JSON.parse(await unzip(wheel, "pulumi_opsmanager/pulumi-plugin.json"))).toEqual(plugin);
      const metadata = await unzip(wheel, `pulumi_opsmanager-${version}.dist-info/METADATA`);
      // PyPI's name, pulumi_opsmanager; setuptools writes it in its normalized spelling (PEP 503).
      expect(metadata).toMatch(/^Name: pulumi[-_]opsmanager$/m);
      expect(metadata).toMatch(new RegExp(`^Version: ${version.replace(/\./g, "\\.")}$`, "m"));
      expect(await zipNames(wheel)).toContain("pulumi_opsmanager/config/__init__.pyi");
      const sdist = path.join(out, "python", `pulumi_opsmanager-${version}.tar.gz`);
      const inSdist = `pulumi_opsmanager-${version}/pulumi_opsmanager/pulumi-plugin.json`;
      expect(JSON.parse(await tarFile(sdist, inSdist))).toEqual(plugin);
      // Stamped with the commit's time, not the build's.
      const commitTime = Number(
        execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8" }),
      );
      const { stdout } = await run("python3", [
        "-c",
        "import sys, tarfile; print(sorted({m.mtime for m in tarfile.open(sys.argv[1])}))",
        sdist,
      ]);
      expect(JSON.parse(stdout)).toEqual([commitTime]);
    });

    it("the Go module: list, .info at the commit's time, the commit's sdk/go.mod, and a zip of the commit's sdk/ with the LICENSE and the plugin's server", async () => {
      const at = path.join(out, GO_AT);
      expect(await fsp.readFile(path.join(at, "list"), "utf8")).toBe(`v${version}\n`);
      const commitTime = execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8" });
      expect(JSON.parse(await fsp.readFile(path.join(at, `v${version}.info`), "utf8"))).toEqual({
        Version: `v${version}`,
        Time: new Date(Number(commitTime) * 1000).toISOString().replace(".000Z", "Z"),
      });
      const goMod = execFileSync("git", ["show", "HEAD:sdk/go.mod"], { cwd: root, encoding: "utf8" });
      expect(await fsp.readFile(path.join(at, `v${version}.mod`), "utf8")).toBe(goMod);
      const names = await zipNames(path.join(at, `v${version}.zip`));
      const prefix = `${SDK_MODULE}@v${version}/`;
      expect(names.filter((n) => !n.startsWith(prefix))).toEqual([]);
      const committed = execFileSync("git", ["ls-files", "--", "sdk"], { cwd: root, encoding: "utf8" })
        .trim()
        .split("\n")
        .map((f) => path.posix.relative("sdk", f));
      expect(names.map((n) => n.slice(prefix.length)).sort()).toEqual([...committed, "LICENSE"].sort());
      // What the CLI reads of a Go program's dependencies to install the plugin.
      const plugin = await unzip(
        path.join(at, `v${version}.zip`),
        `${prefix}go/opsmanager/pulumi-plugin.json`,
      );
      expect(JSON.parse(plugin)).toEqual({
        resource: true,
        name: "opsmanager",
        version,
        server: PLUGIN_DOWNLOAD_URL,
      });
    });

    it(`go get ${SDK_MODULE}@v${version} through the release's GOPROXY folder: the program builds, go mod verify passes, go.sum holds the zip's own hash`, async () => {
      // The go command's own hash of the zip, from a cache that holds nothing else.
      const alone = {
        ...process.env,
        GOMODCACHE: path.join(work, "cache-alone"),
        GOPROXY: `file://${path.join(out, "go")}`,
        GONOSUMDB: "github.com/pulumi-opsmanager",
        GOFLAGS: "-modcacherw",
      };
      const { stdout: downloaded } = await run(
        "go",
        ["mod", "download", "-json", `${SDK_MODULE}@v${version}`],
        {
          cwd: work,
          env: alone,
        },
      );
      const { Sum } = JSON.parse(downloaded) as { Sum: string };

      const program = path.join(work, "go-program");
      await fsp.mkdir(program);
      await fsp.writeFile(path.join(program, "go.mod"), "module example.com/program\n\ngo 1.22\n");
      // The dependencies' sums as sdk/go.sum has them (the checksum database's), so that only the release's
      // module is new to go.sum.
      await fsp.copyFile(path.join(root, "sdk", "go.sum"), path.join(program, "go.sum"));
      await fsp.writeFile(
        path.join(program, "main.go"),
        `package main

import (
	"github.com/pulumi-opsmanager/pulumi-opsmanager/sdk/go/opsmanager"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		_, err := opsmanager.NewOrgApiKey(ctx, "ci", &opsmanager.OrgApiKeyArgs{OrgId: pulumi.String("5f0000000000000000000001")})
		return err
	})
}
`,
      );
      const env = await releaseGoEnv(path.join(out, "go"), path.join(work, "cache"));
      await run("go", ["get", `${SDK_MODULE}@v${version}`], { cwd: program, env });
      await run("go", ["build", "./..."], { cwd: program, env });
      const { stdout: verified } = await run("go", ["mod", "verify"], { cwd: program, env });
      expect(verified.trim()).toBe("all modules verified");
      const sums = await fsp.readFile(path.join(program, "go.sum"), "utf8");
      expect(sums).toContain(`${SDK_MODULE} v${version} ${Sum}\n`);
      expect(await fsp.readFile(path.join(program, "go.mod"), "utf8")).toContain(`${SDK_MODULE} v${version}`);
    }, 900_000);
  },
  { timeout: 600_000 },
);

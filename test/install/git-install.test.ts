/**
 * The package as a team installs it before it is published: from git. A clone has no `dist/` (it is
 * built, not committed), so npm's `prepare` must build it, both when npm installs the package from a
 * git URL (npm installs the clone's devDependencies, runs `prepare`, then packs it) and when someone
 * runs `npm pack` in a fresh clone. The repository here is a commit of the working tree, served by
 * `git+file://`, so nothing but the npm registry is reached. The program it is installed into is shaped as
 * `pulumi new typescript` makes one (the SDK a dependency, TypeScript and Node's types dev ones, its
 * tsconfig.json), holds the quickstart, and runs it as the language host loads it (see
 * `test/examples/support/projects.ts`).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { readProject, runProgram } from "../examples/support/projects";
import { JOB_TYPE, KEY_TYPE } from "../support/host";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { PULUMI_NEW_TSCONFIG } from "../support/pulumi-new";
import { registryUnreachable } from "../support/registry";

const execFileAsync = promisify(execFile);

// Installing from git installs the package's devDependencies from the npm registry: without it, that
// part skips and says so (any other failure of the install fails the suite).
const offline = registryUnreachable("typescript");

/** What the package ships that a clone does not have until it is built. */
const BUILT = [
  "dist/provider/index.js",
  "dist/provider/host.js",
  "dist/simulator/index.js",
  "dist/simulator/cli.js",
  // The plugin's script as one file (tools/bundle-script.js), which bin/pulumi-resource-opsmanager runs.
  "dist/provider/plugin/bundle.js",
];

/** The versions this repository has installed: npm finds them in its cache (`--prefer-offline`). */
function installedVersion(name: string): string {
  const manifest = path.join(repoRoot(), "node_modules", ...name.split("/"), "package.json");
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

let temp: string;
let origin: string;

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(
    "git",
    ["-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main", ...args],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/**
 * A git repository holding one commit of the working tree as it is now: the files git tracks or would
 * track (ignored ones, `dist/` and `node_modules/` among them, left out), edits included.
 */
async function commitWorkingTree(into: string): Promise<void> {
  const root = repoRoot();
  const listed = await listWorkingTree(root);
  const files = [...new Set(listed.split("\0"))].filter(
    (f) => f !== "" && fs.lstatSync(path.join(root, f), { throwIfNoEntry: false })?.isFile(),
  );
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(into, file));
  }
  await git(into, "init", "-q");
  await git(into, "add", "-A");
  await git(into, "commit", "-q", "-m", "the working tree");
}

/**
 * The files of the working tree git would commit. A checkout without `.git` (CI's second run works in
 * a copy of the tracked files, and a downloaded archive has none) is listed through an empty repository
 * of its own whose work tree is the checkout, so `.gitignore` still decides.
 */
async function listWorkingTree(root: string): Promise<string> {
  const args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"];
  const inside = await git(root, "rev-parse", "--is-inside-work-tree").then(
    (out) => out.trim() === "true",
    () => false,
  );
  if (inside) return git(root, ...args);
  const probe = path.join(temp, "probe.git");
  await git(temp, "init", "-q", "--bare", probe);
  return git(root, `--git-dir=${probe}`, `--work-tree=${root}`, ...args);
}

beforeAll(async () => {
  temp = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-git-"));
  origin = path.join(temp, "origin");
  fs.mkdirSync(origin);
  await commitWorkingTree(origin);
});

afterAll(() => {
  if (temp) fs.rmSync(temp, { recursive: true, force: true });
});

describe("a fresh clone", () => {
  it("has no dist/, and `npm pack` there builds it and ships it", async () => {
    const clone = path.join(temp, "clone");
    await git(temp, "clone", "-q", origin, clone);
    expect(fs.existsSync(path.join(clone, "dist"))).toBe(false);
    // The clone's dependencies as `npm ci` would install them, without downloading them again.
    fs.symlinkSync(path.join(repoRoot(), "node_modules"), path.join(clone, "node_modules"), "dir");
    const out = path.join(temp, "packed");
    fs.mkdirSync(out);
    const { stdout } = await execFileAsync(
      "npm",
      ["pack", "--json", "--loglevel=error", "--pack-destination", out],
      { cwd: clone, maxBuffer: 64 * 1024 * 1024 },
    );
    const [entry] = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{
      files: Array<{ path: string }>;
    }>;
    const shipped = entry!.files.map((f) => f.path);
    expect(shipped).toEqual(expect.arrayContaining([...BUILT, "LICENSE", "package.json"]));
  }, 300_000);
});

describeNeeding(
  "installed by npm from a git URL into a fresh program",
  offline && `the npm registry (${offline})`,
  () => {
    let program: string;

    beforeAll(async () => {
      program = path.join(temp, "program");
      fs.mkdirSync(program);
      // As `pulumi new typescript` writes it, so that one install brings the SDK and TypeScript too.
      const manifest = {
        name: "git-install-test-program",
        version: "0.0.0",
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": installedVersion("@pulumi/pulumi") },
        devDependencies: {
          "@types/node": installedVersion("@types/node"),
          typescript: installedVersion("typescript"),
        },
      };
      fs.writeFileSync(path.join(program, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      // The quickstart, in `pulumi new typescript`'s layout: its project file names the simulator's
      // seeded organization and key as defaults.
      for (const file of ["index.ts", "Pulumi.yaml"]) {
        fs.copyFileSync(path.join(repoRoot(), "examples", "quickstart", file), path.join(program, file));
      }
      fs.writeFileSync(path.join(program, "tsconfig.json"), JSON.stringify(PULUMI_NEW_TSCONFIG, null, 2));
      await execFileAsync(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "--loglevel=error",
          `git+file://${origin}`,
        ],
        { cwd: program, maxBuffer: 64 * 1024 * 1024 },
      );
    }, 900_000);

    it("is built on install: dist/ is there and the package, its host and its simulator load by name", async () => {
      const installed = path.join(program, "node_modules", "pulumi-opsmanager");
      for (const file of BUILT) expect(fs.existsSync(path.join(installed, file)), file).toBe(true);
      expect(fs.existsSync(path.join(installed, "LICENSE"))).toBe(true);
      const script = `
      console.log(JSON.stringify({
        main: require.resolve("pulumi-opsmanager"),
        exports: Object.keys(require("pulumi-opsmanager")).sort(),
        host: Object.keys(require("pulumi-opsmanager/host")).sort(),
        simulator: typeof require("pulumi-opsmanager/simulator").startSimulator,
      }));`;
      const { stdout } = await execFileAsync(process.execPath, ["-e", script], { cwd: program });
      const loaded = JSON.parse(stdout) as Record<string, unknown>;
      expect(loaded.main).toBe(path.join(fs.realpathSync(installed), "dist/provider/index.js"));
      expect(loaded.exports).toEqual(
        expect.arrayContaining(["OrgApiKey", "LogCollectionJob", "getOrgApiKeys"]),
      );
      // The names serialized providers call in state written by every earlier version.
      expect(loaded.host).toEqual([
        "apiKeyProjectAssignmentMethods",
        "configure",
        "logCollectionJobMethods",
        "orgApiKeyMethods",
      ]);
      expect(loaded.simulator).toBe("function");
      expect(fs.existsSync(path.join(program, "node_modules", ".bin", "pulumi-opsmanager-simulator"))).toBe(
        true,
      );
    });

    it("type-checks the quickstart with the program's own tsc", async () => {
      const result = await execFileAsync("npx", ["--no-install", "tsc", "--noEmit", "--pretty", "false"], {
        cwd: program,
        maxBuffer: 64 * 1024 * 1024,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
        (err: { code?: number; stdout?: string; stderr?: string }) => ({
          code: typeof err.code === "number" ? err.code : 1,
          output: `${err.stdout ?? ""}${err.stderr ?? ""}`,
        }),
      );
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
      // The tsc that ran is the program's, not this repository's.
      expect(fs.existsSync(path.join(program, "node_modules", "typescript", "bin", "tsc"))).toBe(true);
    }, 120_000);

    it("runs the quickstart as the language host loads it, each registration created by the provider host there", async () => {
      const sim: Simulator = await startSimulator({});
      const project = readProject(path.join(program, "Pulumi.yaml"));
      let host: Awaited<ReturnType<typeof runProgram>>["host"] | undefined;
      try {
        const result = await runProgram(project, {
          "opsmanager:baseUrl": sim.url,
          "opsmanager:publicKey": sim.publicKey,
          "opsmanager:privateKey": sim.privateKey,
        });
        host = result.host;
        expect(result.entry).toBe(path.join(program, "index.ts"));
        // In the order the provider host finished creating them, which need not be the program's.
        expect(result.registrations.map((r) => [r.type, r.name]).sort()).toEqual([
          [JOB_TYPE, "rs0-logs"],
          [KEY_TYPE, "ci-key"],
        ]);
        const key = result.registrations.find((r) => r.type === KEY_TYPE);
        const job = result.registrations.find((r) => r.type === JOB_TYPE);
        // Created on the simulator, as the program declared them.
        const onServer = sim.state.apiKey(key!.id)!;
        expect(onServer.desc).toBe("CI pipeline (managed by Pulumi)");
        expect(
          onServer.roles
            .filter((r) => r.orgId !== undefined)
            .map((r) => r.roleName)
            .sort(),
        ).toEqual(["ORG_MEMBER", "ORG_READ_ONLY"]);
        expect(sim.state.jobs().map((j) => j.id)).toContain(job!.id);
        // The serialized provider in each resource's state requires the package the program installed.
        for (const r of result.registrations)
          expect(String(r.outputs.__provider)).toContain("pulumi-opsmanager/host");
        expect(result.outputs).toMatchObject({ apiKeyId: key!.id, logCollectionJobId: job!.id });
        // A second check of each registration finds it as it was created: no failures.
        for (const r of result.registrations) {
          const checked = await host.check(r.urn, r.outputs, r.inputs);
          expect(checked.failures).toEqual([]);
        }
      } finally {
        await host?.close();
        await sim.close();
      }
    }, 300_000);
  },
);

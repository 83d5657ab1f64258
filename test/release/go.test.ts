/**
 * The Go examples run, for the first time: no Go language host can be built here, but the Automation
 * API serves a program inline from its own process. test/release/go-inline/ runs an example's
 * program.go that way (`auto.UpsertStackInlineSource`, sdk/v3 v3.274.1, the example's own Pulumi.yaml
 * less its clone plugin folder). The SDK module comes as `go get` takes it, from the release's go/
 * folder as a GOPROXY (`GOPROXY=file://<release>/go,https://proxy.golang.org`, our module outside the
 * checksum database), and the CLI downloads the plugin the SDK names (its pluginDownloadURL) from the
 * release server, with no node on the machine. Each example: up, a preview with no change, destroy
 * leaving the simulator as it was.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { cli } from "../engine/support/cli";
import { snapshot } from "../engine/support/world";
import { noNodeMissing } from "../support/no-node";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { expectCiKeyDeployed } from "./support/programs";
import {
  archiveName,
  HOST_PLATFORM,
  installedPlugin,
  RELEASE_LIMIT_MS,
  releaseDir,
  releaseMissing,
  serveRelease,
  VERSION,
} from "./support/release";
import { makeUser, pluginInstalled } from "./support/user";

const execFileAsync = promisify(execFile);
const MODULE = "github.com/pulumi-opsmanager/pulumi-opsmanager/sdk";
const RUNNER = path.join(repoRoot(), "test", "release", "go-inline");
const EXAMPLES = path.join(repoRoot(), "examples");
const GO_EXAMPLES = fs
  .readdirSync(EXAMPLES)
  .filter((name) => name.endsWith("-go") && fs.existsSync(path.join(EXAMPLES, name, "program.go")));

function goMissing(): string | undefined {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "Go (`go` on PATH)";
  }
}

const { bin, missing: noCli } = cli();
const missing = releaseMissing() ?? noNodeMissing() ?? noCli ?? goMissing();

async function go(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return (await execFileAsync("go", args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }))
      .stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`go ${args.join(" ")} failed in ${cwd}\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

/**
 * The module cache's copy of our module, when it is not the release's (an earlier release of the same
 * version): Go would take it instead of fetching, so it goes. Nothing else of the cache is touched.
 */
async function forgetStaleModule(release: string, env: NodeJS.ProcessEnv): Promise<void> {
  const cache = (await go(["env", "GOMODCACHE"], os.tmpdir(), env)).trim();
  const cachedZip = path.join(cache, "cache", "download", MODULE, "@v", `v${VERSION}.zip`);
  const releaseZip = path.join(release, "go", MODULE, "@v", `v${VERSION}.zip`);
  if (!fs.existsSync(cachedZip) || fs.readFileSync(cachedZip).equals(fs.readFileSync(releaseZip))) return;
  for (const dir of [
    path.join(cache, `${MODULE}@v${VERSION}`),
    path.join(cache, "cache", "download", MODULE),
  ]) {
    await execFileAsync("chmod", ["-R", "u+w", dir]).catch(() => undefined);
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** Builds the runner with an example's program.go, the SDK module taken from the release's GOPROXY. */
async function buildRunner(example: string, release: string, work: string): Promise<string> {
  const dir = path.join(work, `${example}-module`);
  await fsp.cp(RUNNER, dir, { recursive: true });
  await fsp.copyFile(path.join(EXAMPLES, example, "program.go"), path.join(dir, "program.go"));
  const env = {
    ...process.env,
    GOPROXY: `file://${path.join(release, "go")},https://proxy.golang.org`,
    GONOSUMDB: MODULE,
    GOFLAGS: "-mod=mod",
  };
  await go(["get", `${MODULE}@v${VERSION}`], dir, env);
  const binary = path.join(work, example);
  await go(["build", "-o", binary, "."], dir, env);
  return binary;
}

interface RunnerResult {
  changes: Record<string, number>;
  outputs?: Record<string, unknown>;
}

describeNeeding(
  "test/release/go: the Go examples run inline with the Automation API, on the release's SDK module and plugin",
  missing,
  () => {
    let release: string;
    let work: string;
    const binaries = new Map<string, string>();

    beforeAll(async () => {
      release = await releaseDir();
      work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-go-inline-"));
      await forgetStaleModule(release, process.env);
      // One after the other: the second build reuses the first one's packages.
      for (const example of GO_EXAMPLES) binaries.set(example, await buildRunner(example, release, work));
    }, RELEASE_LIMIT_MS);

    afterAll(async () => {
      if (work) await fsp.rm(work, { recursive: true, force: true });
    });

    it("every Go example has a program.go that main.go runs with pulumi.Run", ({ expect }) => {
      expect(GO_EXAMPLES.sort()).toEqual(["ci-key-go", "quickstart-go"]);
      for (const example of GO_EXAMPLES) {
        expect(fs.readFileSync(path.join(EXAMPLES, example, "main.go"), "utf8")).toContain(
          "pulumi.Run(program)",
        );
      }
    });

    /** Each example's stack settings beyond the server's, from the simulator. */
    const settings: Record<string, (sim: Simulator) => Record<string, string>> = {
      "ci-key-go": (sim) => ({ orgId: sim.orgId, groupId: sim.groupId }),
      "quickstart-go": (sim) => ({
        orgId: sim.orgId,
        groupId: sim.groupId,
        publicKey: sim.state.apiKeys(sim.orgId).find((k) => k.publicKey !== sim.publicKey)!.publicKey,
      }),
    };

    /** What each example's up leaves on the simulator. */
    const deployed: Record<
      string,
      (expect: import("vitest").ExpectStatic, sim: Simulator, out: RunnerResult) => void
    > = {
      "ci-key-go": (expect, sim, out) => {
        expect(out.changes).toEqual({ create: 3 });
        expectCiKeyDeployed(expect, sim, out.outputs ?? {});
      },
      "quickstart-go": (expect, sim, out) => {
        expect(out.changes).toEqual({ create: 3 });
        const adopted = sim.state.apiKeys(sim.orgId).find((k) => k.id === out.outputs?.apiKeyId);
        expect(adopted?.desc).toBe("CI pipeline (managed by Pulumi)");
        expect(out.outputs?.apiKeyRoles).toEqual(["ORG_MEMBER", "ORG_READ_ONLY"]);
        expect(sim.state.jobs().map((job) => job.id)).toContain(out.outputs?.logCollectionJobId);
      },
    };

    describe.concurrent("each example: up, a preview with no change, destroy", () => {
      for (const example of GO_EXAMPLES) {
        it(`examples/${example}, with no node on the machine`, async ({ expect, onTestFinished }) => {
          const sim = await startSimulator({ jobDurationMs: 3_600_000 });
          const server = await serveRelease(release);
          const extra = settings[example]?.(sim) ?? {};
          const config: Record<string, { value: string; secret?: boolean }> = {
            "opsmanager:baseUrl": { value: sim.url },
            "opsmanager:publicKey": { value: sim.publicKey },
            "opsmanager:privateKey": { value: sim.privateKey, secret: true },
          };
          for (const [key, value] of Object.entries(extra)) config[key] = { value };
          const user = await makeUser({ bin: bin!, server, env: { OPSM_CONFIG: JSON.stringify(config) } });
          onTestFinished(async () => {
            await Promise.all([sim.close(), server.close(), user.cleanup()]);
          });
          const runner = binaries.get(example)!;
          const step = async (command: string) =>
            JSON.parse(
              (await user.run(runner, [command, path.join(EXAMPLES, example)])).stdout,
            ) as RunnerResult;
          const before = snapshot(sim);

          const up = await step("up");
          expect(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
            `GET /${archiveName(HOST_PLATFORM)} 200`,
          ]);
          expect(pluginInstalled(installedPlugin(user.home))).toBe(true);
          deployed[example]!(expect, sim, up);

          const preview = await step("preview");
          expect(Object.keys(preview.changes)).toEqual(["same"]);
          const destroy = await step("destroy");
          expect(destroy.changes).toEqual({ delete: 3 });
          expect(snapshot(sim)).toEqual(before);
          expect(server.requests).toHaveLength(1);
        });
      }
    });
  },
  { timeout: RELEASE_LIMIT_MS },
);

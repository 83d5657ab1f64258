/**
 * The examples as a user of the release writes them: the same program, with a `Pulumi.yaml` that names
 * no plugin folder of a clone (the CLI downloads the plugin), and for YAML the resource options that
 * say which plugin a YAML program needs (`version` and `pluginDownloadURL`, as Pulumi's docs say for a
 * provider outside its registry). And what such a program does to the simulator, checked alike in
 * every language.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { promisify } from "node:util";
import type { ExpectStatic } from "vitest";
import type { Simulator } from "../../../simulator/types";
import { snapshot } from "../../engine/support/world";
import { repoRoot } from "../../support/program-dir";
import {
  archiveName,
  DOWNLOAD_URL,
  HOST_PLATFORM,
  installedPlugin,
  type ReleaseServer,
  VERSION,
} from "./release";
import { pluginInstalled, type User } from "./user";

const execFileAsync = promisify(execFile);

/** The `plugins:` block of an example's Pulumi.yaml (the clone's plugin folder), comment included. */
const CLONE_PLUGIN =
  /^# The provider plugin of this clone.*\nplugins:\n {2}providers:\n {4}- name: opsmanager\n {6}path: \.\.\/\.\.\/bin\n/m;

/** An example's files with its Pulumi.yaml as a user of the release has it. */
export function releasedExample(example: string): Record<string, string> {
  const from = path.join(repoRoot(), "examples", example);
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(from)) {
    if (fs.statSync(path.join(from, name)).isFile())
      files[name] = fs.readFileSync(path.join(from, name), "utf8");
  }
  const project = files["Pulumi.yaml"] ?? "";
  if (!CLONE_PLUGIN.test(project))
    throw new Error(`examples/${example}/Pulumi.yaml has no plugins block to take out`);
  let released = project.replace(CLONE_PLUGIN, "");
  if (/^runtime: yaml$/m.test(released)) {
    const options = `    options:\n      version: ${VERSION}\n      pluginDownloadURL: ${DOWNLOAD_URL}\n`;
    const typed = /^( {4}type: opsmanager:\w+\n)/gm;
    const count = released.match(typed)?.length ?? 0;
    if (count === 0) throw new Error(`examples/${example}/Pulumi.yaml declares no opsmanager resource`);
    // The options go at the end of each resource, after its properties.
    released = released.replace(/^( {2}[\w-]+:\n {4}type: opsmanager:\w+\n(?: {4,}.*\n)*)/gm, `$1${options}`);
    if ((released.match(/pluginDownloadURL/g)?.length ?? 0) !== count) {
      throw new Error(`examples/${example}/Pulumi.yaml: options added to ${count} resources did not take`);
    }
  }
  files["Pulumi.yaml"] = released;
  delete files["requirements.txt"];
  return files;
}

/**
 * A fresh virtual environment in `dir` with pulumi_opsmanager pip-installed from the release's
 * python/ folder and nothing else from the index. The Pulumi SDK and the other dependencies come from
 * the project's venv (tools/python/venv.sh), seen through a `.pth` file over links to its packages, its
 * own copy of pulumi_opsmanager (from the clone) left out: pip resolves the wheel's dependencies
 * against them, as it does against a system's site-packages.
 */
export async function releaseVenv(dir: string, baseVenv: string, release: string): Promise<string> {
  const base = path.join(baseVenv, "bin", "python");
  await execFileAsync(base, ["-m", "venv", "--without-pip", dir]);
  const sitePackages = async (python: string) =>
    (
      await execFileAsync(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    ).stdout.trim();
  const from = await sitePackages(base);
  const into = await sitePackages(path.join(dir, "bin", "python"));
  const shared = path.join(dir, "shared-site-packages");
  await fsp.mkdir(shared);
  for (const name of await fsp.readdir(from)) {
    if (/^pulumi_opsmanager/i.test(name) || name.endsWith(".pth")) continue;
    await fsp.symlink(path.join(from, name), path.join(shared, name));
  }
  await fsp.writeFile(path.join(into, "shared-site-packages.pth"), `${shared}\n`);
  await execFileAsync(
    path.join(dir, "bin", "python"),
    [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      "--no-index",
      "--find-links",
      path.join(release, "python"),
      `pulumi_opsmanager==${VERSION}`,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return dir;
}

/** The resources of examples/ci-key and its twins, as the simulator holds them after `up`. */
export function expectCiKeyDeployed(
  expect: ExpectStatic,
  sim: Simulator,
  outputs: Record<string, unknown>,
): void {
  const made = sim.state.apiKeys(sim.orgId).find((k) => k.desc === "CI pipeline (created by Pulumi)");
  expect(made, "the key ci-key creates").toBeDefined();
  expect(outputs.publicKey).toBe(made?.publicKey);
  expect(outputs.privateKey).toBe(made?.privateKey);
  expect(
    sim.state
      .accessList(made!.id)
      .map((e) => e.cidrBlock)
      .sort(),
  ).toEqual(["198.51.100.7/32", "203.0.113.0/24"]);
  expect(
    made!.roles
      .filter((r) => r.groupId === sim.groupId)
      .map((r) => r.roleName)
      .sort(),
  ).toEqual(["GROUP_AUTOMATION_ADMIN", "GROUP_READ_ONLY"]);
}

/**
 * What every program of the release does: `pulumi up` downloads this platform's plugin from the release
 * server (once) into PULUMI_HOME and deploys ci-key's resources; a preview finds no change; destroy
 * leaves the simulator as it was.
 */
export async function deployAndDestroy(
  expect: ExpectStatic,
  user: User,
  sim: Simulator,
  server: ReleaseServer,
): Promise<void> {
  const before = snapshot(sim);
  expect(pluginInstalled(installedPlugin(user.home)), "no plugin before up").toBe(false);
  const up = await user.pulumi(["up", "--yes", "--skip-preview"]);
  expect(`${up.stdout}${up.stderr}`).not.toContain("pulumi-resource-opsmanager from $PATH");
  expect(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
    `GET /${archiveName(HOST_PLATFORM)} 200`,
  ]);
  expect(server.requests[0]?.userAgent).toMatch(/^pulumi-cli\//);
  expect(pluginInstalled(installedPlugin(user.home)), "the plugin in PULUMI_HOME/plugins").toBe(true);
  const outputs = JSON.parse(
    (await user.pulumi(["stack", "output", "--json", "--show-secrets"])).stdout,
  ) as Record<string, unknown>;
  expectCiKeyDeployed(expect, sim, outputs);

  await user.pulumi(["preview", "--expect-no-changes"]);
  await user.pulumi(["destroy", "--yes", "--skip-preview"]);
  expect(snapshot(sim)).toEqual(before);
  // Installed once: no later command downloaded it again.
  expect(server.requests).toHaveLength(1);
}

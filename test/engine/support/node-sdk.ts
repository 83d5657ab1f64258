/**
 * The plugin's generated Node.js SDK (`sdk/nodejs`) in an engine project, as a user installs it:
 * compiled as its package.json says (tsc into bin/) on the `@pulumi/pulumi` it requires (the oldest
 * its range allows, installed once into `.sdk-floor/`), placed as `@pulumi-opsmanager/sdk` in the
 * project's `node_modules`, with the project's `@pulumi/pulumi` moved to that one as the SDK's
 * dependency would.
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../support/program-dir";
import { registryUnreachable } from "../../support/registry";
import { installedSdk, sdkInstalled } from "../../support/sdk-floor";

const execFileAsync = promisify(execFile);
const SOURCE = path.join(repoRoot(), "sdk", "nodejs");

/** The `@pulumi/pulumi` version the SDK's `^X.Y.Z` dependency starts at. */
function floorVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(SOURCE, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  return /^\^(\d+\.\d+\.\d+)$/.exec(manifest.dependencies["@pulumi/pulumi"] ?? "")?.[1] ?? "";
}

/** Why the SDK cannot be installed here, or `undefined` when it can. */
export function nodeSdkMissing(): string | undefined {
  const floor = floorVersion();
  if (floor === "") return "a ^X.Y.Z dependency on @pulumi/pulumi in sdk/nodejs/package.json";
  return sdkInstalled(floor) ? undefined : registryUnreachable(`@pulumi/pulumi@${floor}`);
}

let compiled: Promise<{ bin: string; pulumiSdk: string }> | undefined;

/** The SDK compiled once per test run, in a temporary folder removed when the run ends. */
function compile(): Promise<{ bin: string; pulumiSdk: string }> {
  compiled ??= (async () => {
    const pulumiSdk = await installedSdk(floorVersion());
    const work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-node-sdk-"));
    process.once("exit", () => rmSync(work, { recursive: true, force: true }));
    await fsp.cp(SOURCE, work, { recursive: true });
    await fsp.mkdir(path.join(work, "node_modules", "@types"), { recursive: true });
    await fsp.symlink(path.dirname(pulumiSdk), path.join(work, "node_modules", "@pulumi"), "dir");
    await fsp.symlink(
      path.join(repoRoot(), "node_modules", "@types", "node"),
      path.join(work, "node_modules", "@types", "node"),
      "dir",
    );
    await execFileAsync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", work], {
      timeout: 300_000,
    });
    return { bin: path.join(work, "bin"), pulumiSdk };
  })();
  return compiled;
}

/** Installs the SDK into `projectDir`'s `node_modules`; the program imports `@pulumi-opsmanager/sdk`. */
export async function installNodeSdk(projectDir: string): Promise<void> {
  const { bin, pulumiSdk } = await compile();
  const nodeModules = path.join(projectDir, "node_modules");
  const installed = path.join(nodeModules, "@pulumi-opsmanager", "sdk");
  await fsp.rm(installed, { recursive: true, force: true });
  await fsp.mkdir(path.dirname(installed), { recursive: true });
  await fsp.cp(bin, installed, { recursive: true });
  await fsp.copyFile(path.join(SOURCE, "package.json"), path.join(installed, "package.json"));
  const link = path.join(nodeModules, "@pulumi", "pulumi");
  await fsp.rm(link, { recursive: true, force: true });
  await fsp.symlink(pulumiSdk, link, "dir");
}

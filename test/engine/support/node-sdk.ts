/**
 * The plugin's generated Node.js SDK (`sdk/nodejs`) in a project, as a user installs it: compiled by
 * the release's own build (tools/release/node-sdk.js: JavaScript and declarations, package.json naming
 * them) on the `@pulumi/pulumi` it requires (the oldest its range allows, installed once into
 * `.sdk-floor/`), placed as `@pulumi-opsmanager/sdk` in the project's `node_modules`, with the
 * project's `@pulumi/pulumi` moved to that one as the SDK's dependency would.
 */
import { rmSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../support/program-dir";
import { registryUnreachable } from "../../support/registry";
import { installedSdk, sdkInstalled } from "../../support/sdk-floor";

// The release's build is plain CommonJS, run by node.
const { compileNodeSdk, pulumiFloor } = require("../../../tools/release/node-sdk.js") as {
  compileNodeSdk(options: {
    root: string;
    outDir: string;
    pulumiSdk?: string;
  }): Promise<{ dir: string; pulumiSdk: string }>;
  pulumiFloor(root: string): string;
};

/** The `@pulumi/pulumi` version the SDK's `^X.Y.Z` dependency starts at, or "" when it has no such range. */
export function nodeSdkFloor(): string {
  try {
    return pulumiFloor(repoRoot());
  } catch {
    return "";
  }
}

/** Why the SDK cannot be installed here, or `undefined` when it can. */
export function nodeSdkMissing(): string | undefined {
  const floor = nodeSdkFloor();
  if (floor === "") return "a ^X.Y.Z dependency on @pulumi/pulumi in sdk/nodejs/package.json";
  return sdkInstalled(floor) ? undefined : registryUnreachable(`@pulumi/pulumi@${floor}`);
}

let compiled: Promise<{ dir: string; pulumiSdk: string }> | undefined;

/**
 * The SDK's package folder, compiled once per test run into a temporary folder removed when the run
 * ends, and the `@pulumi/pulumi` folder it was compiled against.
 */
export function compiledNodeSdk(): Promise<{ dir: string; pulumiSdk: string }> {
  compiled ??= (async () => {
    const pulumiSdk = await installedSdk(nodeSdkFloor());
    const work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-node-sdk-package-"));
    process.once("exit", () => rmSync(work, { recursive: true, force: true }));
    return compileNodeSdk({ root: repoRoot(), outDir: path.join(work, "sdk"), pulumiSdk });
  })();
  return compiled;
}

/** Installs the SDK into `projectDir`'s `node_modules`; the program imports `@pulumi-opsmanager/sdk`. */
export async function installNodeSdk(projectDir: string): Promise<void> {
  const { dir, pulumiSdk } = await compiledNodeSdk();
  const nodeModules = path.join(projectDir, "node_modules");
  const installed = path.join(nodeModules, "@pulumi-opsmanager", "sdk");
  await fsp.rm(installed, { recursive: true, force: true });
  await fsp.mkdir(path.dirname(installed), { recursive: true });
  await fsp.cp(dir, installed, { recursive: true });
  const link = path.join(nodeModules, "@pulumi", "pulumi");
  await fsp.rm(link, { recursive: true, force: true });
  await fsp.mkdir(path.dirname(link), { recursive: true });
  await fsp.symlink(pulumiSdk, link, "dir");
}

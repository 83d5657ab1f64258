/**
 * Engine projects on the generated Node.js SDK (`sdk/nodejs`, `@pulumi-opsmanager/sdk`) through the
 * plugin: the SDK compiled once against the oldest `@pulumi/pulumi` it declares (installed from the npm
 * registry into `.sdk-floor/`, as test/sdk does), then placed in a project's `node_modules` with that
 * `@pulumi/pulumi` beside it, which the program and the plugin then load.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../support/program-dir";
import { registryUnreachable } from "../../support/registry";
import { installedSdk, sdkInstalled } from "../../support/sdk-floor";
import type { EngineStack } from "./stack";

const execFileAsync = promisify(execFile);
const SDK_NODEJS = path.join(repoRoot(), "sdk", "nodejs");
const manifest = JSON.parse(readFileSync(path.join(SDK_NODEJS, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

/** The oldest `@pulumi/pulumi` the SDK declares (`^X.Y.Z`). */
export const SDK_PULUMI_FLOOR =
  /^\^(\d+\.\d+\.\d+)$/.exec(manifest.dependencies["@pulumi/pulumi"] ?? "")?.[1] ?? "";

let missingChecked: { missing: string | undefined } | undefined;

/** Why the SDK cannot be used here (its `@pulumi/pulumi` neither installed nor reachable), or `undefined`. */
export function nodejsSdkMissing(): string | undefined {
  missingChecked ??= {
    missing: sdkInstalled(SDK_PULUMI_FLOOR)
      ? undefined
      : registryUnreachable(`@pulumi/pulumi@${SDK_PULUMI_FLOOR}`),
  };
  return missingChecked.missing;
}

let compiled: Promise<{ sdk: string; pulumi: string }> | undefined;

/** The SDK compiled as its package.json says (tsc into bin/), once per test file. */
function compiledSdk(): Promise<{ sdk: string; pulumi: string }> {
  compiled ??= (async () => {
    const pulumiSdk = await installedSdk(SDK_PULUMI_FLOOR);
    const work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdk-nodejs-"));
    const source = path.join(work, "sdk-nodejs");
    await fsp.cp(SDK_NODEJS, source, { recursive: true });
    await fsp.mkdir(path.join(source, "node_modules", "@types"), { recursive: true });
    await fsp.symlink(path.dirname(pulumiSdk), path.join(source, "node_modules", "@pulumi"), "dir");
    await fsp.symlink(
      path.join(repoRoot(), "node_modules", "@types", "node"),
      path.join(source, "node_modules", "@types", "node"),
      "dir",
    );
    await execFileAsync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", source], {
      timeout: 300_000,
    });
    const sdk = path.join(work, "package");
    await fsp.cp(path.join(source, "bin"), sdk, { recursive: true });
    await fsp.copyFile(path.join(source, "package.json"), path.join(sdk, "package.json"));
    return { sdk, pulumi: pulumiSdk };
  })();
  return compiled;
}

/**
 * `stack`'s project made to run on the SDK: `@pulumi-opsmanager/sdk` in its `node_modules`, and its
 * `@pulumi/pulumi` the SDK's own (the program's and the plugin's alike).
 */
export async function useNodejsSdk(stack: EngineStack): Promise<void> {
  const { sdk, pulumi } = await compiledSdk();
  const nodeModules = path.join(stack.dir, "node_modules");
  const pulumiLink = path.join(nodeModules, "@pulumi", "pulumi");
  await fsp.rm(pulumiLink, { recursive: true, force: true });
  await fsp.symlink(pulumi, pulumiLink, "dir");
  const target = path.join(nodeModules, "@pulumi-opsmanager", "sdk");
  await fsp.mkdir(path.dirname(target), { recursive: true });
  await fsp.cp(sdk, target, { recursive: true });
}

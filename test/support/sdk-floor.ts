/**
 * The oldest `@pulumi/pulumi` the package's peer dependency allows, installed from the npm registry
 * once into a git-ignored folder (`.sdk-floor/<version>` at the repository root, or
 * `$OPSMANAGER_SDK_FLOOR_DIR/<version>`) and reused by every later run.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./program-dir";

const execFileAsync = promisify(execFile);

/** The lower bound of `peerDependencies["@pulumi/pulumi"]` in the package's `package.json`. */
export function sdkFloorVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as {
    peerDependencies?: Record<string, string>;
  };
  const range = manifest.peerDependencies?.["@pulumi/pulumi"] ?? "";
  const floor = /^>=\s*(\d+\.\d+\.\d+)\s/.exec(range)?.[1];
  if (floor === undefined) {
    throw new Error(`peerDependencies["@pulumi/pulumi"] is ${JSON.stringify(range)}, not ">=X.Y.Z <4"`);
  }
  return floor;
}

const DONE = ".installed";

function versionAt(sdk: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(sdk, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Where `@pulumi/pulumi@<version>` is installed (`dir`), and its package directory (`sdk`). */
function placeOf(version: string): { base: string; dir: string; sdk: string } {
  const base = process.env.OPSMANAGER_SDK_FLOOR_DIR ?? path.join(repoRoot(), ".sdk-floor");
  const dir = path.join(base, version);
  return { base, dir, sdk: path.join(dir, "node_modules", "@pulumi", "pulumi") };
}

/** Whether `@pulumi/pulumi@<version>` is installed already, so that using it needs no registry. */
export function sdkInstalled(version: string): boolean {
  const { dir, sdk } = placeOf(version);
  return existsSync(path.join(dir, DONE)) && versionAt(sdk) === version;
}

/**
 * The directory of `@pulumi/pulumi@<version>` with its dependencies beside it, installed on first use.
 * Link it into a program directory (`makeProgramDir({ linked })`) to run the program on that SDK.
 */
export async function installedSdk(version: string): Promise<string> {
  const { base, dir, sdk } = placeOf(version);
  if (sdkInstalled(version)) return sdk;

  // Installed beside the final place and moved there when complete: a run cut short leaves nothing
  // half-installed for the next run to trust.
  await fsp.mkdir(base, { recursive: true });
  const work = await fsp.mkdtemp(path.join(base, `.${version}-`));
  try {
    const manifest = { private: true, dependencies: { "@pulumi/pulumi": version } };
    await fsp.writeFile(path.join(work, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await execFileAsync(
      "npm",
      ["install", "--prefix", work, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      { cwd: work, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
    );
    if (versionAt(path.join(work, "node_modules", "@pulumi", "pulumi")) !== version) {
      throw new Error(`npm install of @pulumi/pulumi@${version} into ${work} did not install it`);
    }
    await fsp.writeFile(path.join(work, DONE), `${version}\n`);
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rename(work, dir);
  } catch (error) {
    await fsp.rm(work, { recursive: true, force: true });
    // Another run may have finished the same install meanwhile.
    if (existsSync(path.join(dir, DONE)) && versionAt(sdk) === version) return sdk;
    throw error;
  }
  return sdk;
}

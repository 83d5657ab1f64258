/**
 * The oldest `@pulumi/pulumi` the package's peer dependency allows, and any other version a suite
 * runs on: installed from the npm registry once into a git-ignored folder (`.sdk-floor/<version>` at
 * the repository root, or `$OPSMANAGER_SDK_FLOOR_DIR/<version>`) by the release's own installer
 * (tools/release/pulumi-sdk.js), and reused by every later run.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./program-dir";

// The installer is plain CommonJS, shared with the release build.
const installer = require("../../tools/release/pulumi-sdk.js") as {
  installedSdk(root: string, version: string): Promise<string>;
  sdkInstalled(root: string, version: string): boolean;
};

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

/** Whether `@pulumi/pulumi@<version>` is installed already, so that using it needs no registry. */
export function sdkInstalled(version: string): boolean {
  return installer.sdkInstalled(repoRoot(), version);
}

/**
 * The directory of `@pulumi/pulumi@<version>` with its dependencies beside it, installed on first use.
 * Link it into a program directory (`makeProgramDir({ linked })`) to run the program on that SDK.
 */
export function installedSdk(version: string): Promise<string> {
  return installer.installedSdk(repoRoot(), version);
}

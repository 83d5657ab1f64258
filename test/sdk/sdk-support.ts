/**
 * What the SDK suites share: the repository's `sdk/` folder, the files git holds there, and whether
 * the tools a suite runs are on this machine.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "../support/program-dir";

/** The committed SDKs' folder. */
export const SDK = path.join(repoRoot(), "sdk");

/** The files git tracks under `sdk/<folder>`, relative to it, sorted. */
export function committedFiles(folder: string): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--", folder], { cwd: SDK, encoding: "utf8" });
  return out
    .split("\0")
    .filter((f) => f !== "")
    .map((f) => path.relative(folder, f))
    .sort();
}

/** Why `command --version`-like `args` cannot run here, or `undefined` when it can. */
export function missingTool(command: string, args: string[], what: string): string | undefined {
  try {
    execFileSync(command, args, { stdio: "ignore", timeout: 30_000 });
    return undefined;
  } catch {
    return `${what} (\`${command} ${args.join(" ")}\` does not run here)`;
  }
}

/**
 * A command run where no Node.js can be found: in a mount namespace of its own (`unshare --mount`),
 * with /dev/null bound over every `node` on PATH and over the one running the tests, so that a program
 * that needs Node fails there as on a machine without it. Needs root and util-linux's unshare, as CI has.
 */
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import * as path from "node:path";

/** Every `node` on PATH and this process's own, each as its real file (a bind mount follows links). */
export function nodeBinaries(): string[] {
  const found = new Set<string>([realpathSync(process.execPath)]);
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, "node");
    if (dir !== "" && existsSync(file)) found.add(realpathSync(file));
  }
  return [...found].sort();
}

/** Why {@link withoutNode} cannot run here, or undefined when it can. */
export function noNodeMissing(): string | undefined {
  if (process.getuid?.() !== 0) return "root (a mount namespace that hides node)";
  try {
    execFileSync("unshare", ["--mount", "true"], { stdio: "ignore" });
  } catch {
    return "util-linux's unshare --mount";
  }
  return undefined;
}

/** `argv` as a command that runs it with every Node hidden ({@link nodeBinaries}). */
export function withoutNode(argv: readonly string[]): [string, ...string[]] {
  const hide = nodeBinaries()
    .map((file) => `mount --bind /dev/null '${file.replaceAll("'", "'\\''")}' || exit 97`)
    .join("\n");
  return ["unshare", "--mount", "--propagation", "private", "sh", "-c", `${hide}\nexec "$@"`, "sh", ...argv];
}

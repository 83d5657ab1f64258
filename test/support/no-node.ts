/**
 * A machine without Node.js, for one process tree: the command runs in a mount namespace of its own
 * (`unshare --mount`, as root) where every `node` it could find is masked by a bind mount of `/dev/null`,
 * which is no regular executable file, so neither a shell's `command -v` nor Go's `exec.LookPath`
 * takes it and running it fails. What is masked: `node` and `nodejs` in every folder of the command's
 * PATH, the usual system places (`/usr/bin`, `/usr/local/bin`, ...), and the node running these tests
 * (`process.execPath`, which may be npm's node@22 in CI). The namespace's mounts are private: nothing
 * changes outside it.
 *
 * The wrapper proves it in the same namespace before it runs the command: when `node` is still found
 * it exits {@link NODE_STILL_FOUND} and says where, instead of running the command.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The wrapper's exit code when a `node` is still reachable inside the namespace (or a mask failed). */
export const NODE_STILL_FOUND = 97;

/** The names a Node.js binary goes by. */
const NAMES = ["node", "nodejs"];
const SYSTEM_DIRS = ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin", "/usr/local/sbin"];

/** Why {@link withoutNode} cannot run here, or undefined when it can. */
export function noNodeMissing(): string | undefined {
  if (process.platform !== "linux") return "Linux mount namespaces (`unshare --mount`)";
  if (process.getuid?.() !== 0) return "root (a mount namespace that hides node)";
  try {
    execFileSync("unshare", ["--mount", "true"], { stdio: "ignore" });
  } catch {
    return "util-linux's unshare --mount";
  }
  return undefined;
}

/** Every Node.js binary a process with this PATH could run, by its real path (a bind mount follows links). */
export function nodeBinaries(pathVariable: string = process.env.PATH ?? ""): string[] {
  const dirs = [...pathVariable.split(path.delimiter).filter((d) => d !== ""), ...SYSTEM_DIRS];
  const candidates = [process.execPath, ...dirs.flatMap((dir) => NAMES.map((name) => path.join(dir, name)))];
  const found = new Set<string>();
  for (const candidate of candidates) {
    try {
      const real = fs.realpathSync(candidate);
      if (fs.statSync(real).isFile()) found.add(real);
    } catch {
      // Not there.
    }
  }
  return [...found].sort();
}

/**
 * `argv` as a command that runs it with no Node.js reachable, for a process whose PATH is
 * `pathVariable` (by default this one's).
 */
export function withoutNode(
  argv: readonly string[],
  pathVariable: string = process.env.PATH ?? "",
): [string, ...string[]] {
  const script = [
    ...nodeBinaries(pathVariable).map(
      (bin) => `mount --bind /dev/null ${shellQuote(bin)} || exit ${NODE_STILL_FOUND}`,
    ),
    // The proof, in the namespace the command runs in, with the command's own PATH.
    `for name in ${NAMES.join(" ")}; do`,
    `  if found=$(command -v "$name"); then echo "no-node: $name is still reachable at $found" >&2; exit ${NODE_STILL_FOUND}; fi`,
    "done",
    'exec "$@"',
  ].join("\n");
  return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", script, "no-node", ...argv];
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

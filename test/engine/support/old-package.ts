/**
 * The package as an earlier commit shipped it, packed from git history: the commit's files, compiled
 * with this checkout's TypeScript, then `npm pack` (what a user who installed that version has).
 */
import { execFile } from "node:child_process";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO } from "./stack";

const run = promisify(execFile);

/** Packs the package at `commit` and returns the tarball; the caller removes `dir`. */
export async function packCommit(commit: string): Promise<{ tarball: string; dir: string }> {
  const present = () =>
    run("git", ["-C", REPO, "cat-file", "-e", `${commit}^{commit}`]).then(
      () => true,
      () => false,
    );
  // A shallow clone lacks it: ask the clone's origin for that one commit.
  if (!(await present())) {
    await run("git", ["-C", REPO, "fetch", "--quiet", "origin", commit], { timeout: 120_000 }).catch(
      () => undefined,
    );
  }
  if (!(await present())) {
    throw new Error(
      `commit ${commit} is not in this clone's history, nor could its origin give it (a shallow or tar copy?): the old-stack test packs the package from it`,
    );
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-old-package-"));
  const source = path.join(dir, "source");
  await fsp.mkdir(source);
  await run("bash", ["-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "_", REPO, commit, source], {
    maxBuffer: 64 * 1024 * 1024,
  });
  // Its build (tsc) with this checkout's dependencies, which the old package.json's also were.
  await fsp.symlink(path.join(REPO, "node_modules"), path.join(source, "node_modules"), "dir");
  await run(process.execPath, [path.join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], {
    cwd: source,
  });
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
    cwd: source,
    maxBuffer: 64 * 1024 * 1024,
  });
  const entries = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ filename: string }>;
  return { tarball: path.join(dir, path.basename(entries[0]!.filename)), dir };
}

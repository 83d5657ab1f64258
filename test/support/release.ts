/**
 * The release folder that `npm run release` writes (tools/release/release.js), for the tests of what
 * it holds: OPSMANAGER_RELEASE_DIR when set (.ci/run builds it once and sets it), else
 * `<repo>/dist-release`, built here once when it is not there yet (a folder there is a whole release:
 * release.js renames it into place at the end). Test files that run at once build it once: the first
 * takes a lock folder, the others wait for the release to appear.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./program-dir";

/** How long a build of the release may take here: rcodesign's first build is most of it. */
export const RELEASE_BUILD_TIMEOUT_MS = 40 * 60_000;

/** The release folder, built first when neither OPSMANAGER_RELEASE_DIR nor dist-release/ holds one. */
export async function releaseDir(): Promise<string> {
  const given = process.env.OPSMANAGER_RELEASE_DIR;
  if (given !== undefined && given !== "") {
    if (!existsSync(path.join(given, "checksums.txt"))) {
      throw new Error(`OPSMANAGER_RELEASE_DIR=${given} holds no checksums.txt: not a release folder`);
    }
    return given;
  }
  const dir = path.join(repoRoot(), "dist-release");
  const lock = `${dir}.lock`;
  const deadline = Date.now() + RELEASE_BUILD_TIMEOUT_MS;
  while (!existsSync(dir)) {
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() > deadline)
        throw new Error(`${dir} did not appear: is ${lock} left from a build that stopped?`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      continue;
    }
    try {
      if (!existsSync(dir)) {
        execFileSync(
          process.execPath,
          [path.join(repoRoot(), "tools", "release", "release.js"), "--out", dir],
          {
            stdio: ["ignore", "ignore", "inherit"],
          },
        );
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

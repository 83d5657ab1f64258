/**
 * The release folder that `npm run release` writes (tools/release/release.js), for the tests of what
 * it holds: OPSMANAGER_RELEASE_DIR when set (.ci/run builds it once and sets it), else
 * `<repo>/dist-release`, built here when it is not there yet or was built from another state of the
 * checkout (its stamp, `dist-release.stamp`, names the commit and the uncommitted changes it was built
 * from: a release of the code before an edit is not tested as the code after it). A folder there is a
 * whole release: release.js renames it into place at the end. Test files that run at once build it
 * once: the first takes a lock folder, the others wait for it.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  const stampFile = `${dir}.stamp`;
  const stamp = checkoutStamp();
  const fresh = () => existsSync(dir) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp;
  const deadline = Date.now() + RELEASE_BUILD_TIMEOUT_MS;
  while (!fresh()) {
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() > deadline)
        throw new Error(`${dir} did not appear: is ${lock} left from a build that stopped?`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      continue;
    }
    try {
      if (!fresh()) {
        rmSync(stampFile, { force: true });
        execFileSync(
          process.execPath,
          [path.join(repoRoot(), "tools", "release", "release.js"), "--out", dir],
          {
            stdio: ["ignore", "ignore", "inherit"],
          },
        );
        writeFileSync(stampFile, stamp);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

/**
 * The state of the checkout a release is built from: the commit, and a digest of every change to a
 * tracked file not yet committed (what `git diff HEAD` shows). The built dist/ follows from it.
 */
function checkoutStamp(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repoRoot(), encoding: "utf8" });
  const changes = createHash("sha256")
    .update(git("diff", "HEAD", "--binary"))
    .digest("hex");
  return `${git("rev-parse", "HEAD").trim()} ${changes}\n`;
}

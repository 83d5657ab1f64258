/**
 * The release folder that `npm run release` writes (release.js), for whatever reads a release here
 * (the tests of what it holds, the benchmarks): OPSMANAGER_RELEASE_DIR when set (.ci/run builds it once
 * and sets it), else `<repo>/dist-release`, built when it is not there yet or was built from another
 * state of the checkout. Its stamp, `dist-release.stamp`, names the commit and the uncommitted changes it
 * was built from, so that a release of the code before an edit is not read as the code after it. A folder
 * there is a whole release: release.js renames it into place at the end. Processes that ask at once
 * build it once: the first takes a lock folder, the others wait for it.
 */
const { execFileSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

/** How long a build of the release may take here: rcodesign's first build is most of it. */
const RELEASE_BUILD_TIMEOUT_MS = 40 * 60_000;

/**
 * The state of the checkout at `root` a release is built from: the commit, and a digest of every change
 * to a tracked file not yet committed (what `git diff HEAD` shows). The built dist/ follows from it.
 */
function checkoutStamp(root) {
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
  const changes = createHash("sha256")
    .update(git("diff", "HEAD", "--binary"))
    .digest("hex");
  return `${git("rev-parse", "HEAD").trim()} ${changes}\n`;
}

/**
 * The release folder of the checkout at `root`, built first when OPSMANAGER_RELEASE_DIR names none and
 * dist-release/ is missing or stale. `onBuild` is told before a build starts.
 */
async function releaseDir(root, { onBuild = () => {} } = {}) {
  const given = process.env.OPSMANAGER_RELEASE_DIR;
  if (given !== undefined && given !== "") {
    if (!fs.existsSync(path.join(given, "checksums.txt"))) {
      throw new Error(`OPSMANAGER_RELEASE_DIR=${given} holds no checksums.txt: not a release folder`);
    }
    return given;
  }
  const dir = path.join(root, "dist-release");
  const lock = `${dir}.lock`;
  const stampFile = `${dir}.stamp`;
  const stamp = checkoutStamp(root);
  const fresh = () =>
    fs.existsSync(dir) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp;
  const deadline = Date.now() + RELEASE_BUILD_TIMEOUT_MS;
  while (!fresh()) {
    try {
      fs.mkdirSync(lock);
    } catch {
      if (Date.now() > deadline)
        throw new Error(`${dir} did not appear: is ${lock} left from a build that stopped?`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      continue;
    }
    try {
      if (!fresh()) {
        onBuild(dir);
        fs.rmSync(stampFile, { force: true });
        execFileSync(process.execPath, [path.join(__dirname, "release.js"), "--out", dir], {
          stdio: ["ignore", "ignore", "inherit"],
        });
        fs.writeFileSync(stampFile, stamp);
      }
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

module.exports = { checkoutStamp, RELEASE_BUILD_TIMEOUT_MS, releaseDir };

/**
 * The release the bench measures (tools/release/release.js): OPSMANAGER_RELEASE_DIR when set, else
 * dist-release/, built first when it is missing or was built from another state of the checkout; and
 * this machine's plugin executable unpacked from its archive.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { releaseDir: sharedReleaseDir } = require("../../tools/release/release-dir");

const ROOT = path.join(__dirname, "..", "..");

/**
 * The release folder (tools/release/release-dir.js, as the tests find it): OPSMANAGER_RELEASE_DIR, else
 * a dist-release/ built from this state of the checkout, built first when it is missing or stale.
 */
function releaseDir() {
  return sharedReleaseDir(ROOT, {
    onBuild: () => console.error("(building the release into dist-release/ first: npm run release)"),
  });
}

/** This machine's platform in the archives' names (`linux-amd64`), as the Pulumi CLI asks for it. */
function hostPlatform() {
  const osName = { win32: "windows" }[process.platform] ?? process.platform;
  const arch = { x64: "amd64" }[process.arch] ?? process.arch;
  return `${osName}-${arch}`;
}

/**
 * This machine's executable from the release, unpacked into a new folder: resolves to `{ dir, file,
 * archive, cleanup }`.
 */
async function hostBinary() {
  const { archiveName, binaryName } = require("../../tools/release/plugin-binaries");
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const platform = hostPlatform();
  const archive = path.join(await releaseDir(), archiveName(version, platform));
  if (!fs.existsSync(archive))
    throw new Error(`${archive} is missing: the release has no ${platform} archive`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-bench-binary-"));
  execFileSync("tar", ["-xzf", archive, "-C", dir, binaryName(platform)]);
  return {
    dir,
    file: path.join(dir, binaryName(platform)),
    archive,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

module.exports = { hostBinary, hostPlatform, releaseDir };

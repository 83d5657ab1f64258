/**
 * The release the bench measures (tools/release/release.js): OPSMANAGER_RELEASE_DIR when set, else
 * dist-release/, built first when it is not there (`npm run release` writes it); and this machine's
 * plugin executable unpacked from its archive.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.join(__dirname, "..", "..");

/** The release folder, built when neither OPSMANAGER_RELEASE_DIR nor dist-release/ holds one. */
function releaseDir() {
  const given = process.env.OPSMANAGER_RELEASE_DIR;
  if (given) return given;
  const dir = path.join(ROOT, "dist-release");
  if (!fs.existsSync(dir)) {
    console.error("(building the release into dist-release/ first: npm run release)");
    execFileSync(process.execPath, [path.join(ROOT, "tools", "release", "release.js"), "--out", dir], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return dir;
}

/** This machine's platform in the archives' names (`linux-amd64`), as the Pulumi CLI asks for it. */
function hostPlatform() {
  const osName = { win32: "windows" }[process.platform] ?? process.platform;
  const arch = { x64: "amd64" }[process.arch] ?? process.arch;
  return `${osName}-${arch}`;
}

/**
 * This machine's executable from the release, unpacked into a new folder: `{ dir, file, archive,
 * cleanup }`.
 */
function hostBinary() {
  const { archiveName, binaryName } = require("../../tools/release/plugin-binaries");
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const platform = hostPlatform();
  const archive = path.join(releaseDir(), archiveName(version, platform));
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

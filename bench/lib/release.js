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

/**
 * The plugin that does nothing (../ideal/plugin.js) as a single executable of this machine, made as the
 * release makes ours (tools/release: an esbuild bundle, a blob with its V8 code cache, the pinned Node
 * binary): the engine bench's like of the release's executable, so that the two start and load alike
 * and their ratio is what the plugin does. Only where the release builds: linux-amd64. Resolves to
 * `{ dir, file, cleanup }`.
 */
async function idealBinary() {
  const { BUILD_PLATFORM, buildExecutable, seaBlob } = require("../../tools/release/sea");
  const { BUILTIN, BUNDLE_OPTIONS, diskLoads } = require("../../tools/release/bundle");
  if (hostPlatform() !== BUILD_PLATFORM)
    throw new Error(`the plugin that does nothing is built as an executable on ${BUILD_PLATFORM} only`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-bench-ideal-"));
  try {
    const bundleFile = path.join(dir, "plugin.js");
    await require("esbuild").build({
      ...BUNDLE_OPTIONS,
      entryPoints: [path.join(__dirname, "..", "ideal", "plugin.js")],
      outfile: bundleFile,
      charset: "ascii",
    });
    // The executable's require loads built-in modules only, as for ours.
    const loads = diskLoads(fs.readFileSync(bundleFile, "latin1"), BUILTIN);
    if (loads.length > 0)
      throw new Error(`the bundle of ../ideal/plugin.js would load from disk: ${loads.join("; ")}`);
    const blob = await seaBlob({ root: ROOT, workDir: dir, bundleFile, withCodeCache: true });
    const file = path.join(dir, "pulumi-resource-opsmanager");
    await buildExecutable({ root: ROOT, platform: BUILD_PLATFORM, blob, outFile: file });
    return { dir, file, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

module.exports = { hostBinary, hostPlatform, idealBinary, releaseDir };

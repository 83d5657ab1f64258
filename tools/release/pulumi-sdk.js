// A given version of `@pulumi/pulumi`, installed from the npm registry once into a git-ignored folder
// (`.sdk-floor/<version>` at the repository's root, or `$OPSMANAGER_SDK_FLOOR_DIR/<version>`) and
// reused by every later run, offline. The release compiles the Node.js SDK against the oldest version
// its dependency range allows; the tests run the package and the SDK on the oldest their ranges allow.
const { execFile } = require("node:child_process");
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const path = require("node:path");
const { promisify } = require("node:util");

const execFileAsync = promisify(execFile);
const DONE = ".installed";

function versionAt(sdk) {
  try {
    return JSON.parse(fs.readFileSync(path.join(sdk, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** Where `@pulumi/pulumi@<version>` is installed for the repository at `root`: its folder and the SDK's. */
function placeOf(root, version) {
  const base = process.env.OPSMANAGER_SDK_FLOOR_DIR ?? path.join(root, ".sdk-floor");
  const dir = path.join(base, version);
  return { base, dir, sdk: path.join(dir, "node_modules", "@pulumi", "pulumi") };
}

/** Whether `@pulumi/pulumi@<version>` is installed already, so that using it needs no registry. */
function sdkInstalled(root, version) {
  const { dir, sdk } = placeOf(root, version);
  return fs.existsSync(path.join(dir, DONE)) && versionAt(sdk) === version;
}

/**
 * The folder of `@pulumi/pulumi@<version>` (its `node_modules/@pulumi/pulumi`, its dependencies beside
 * it), installed on first use.
 */
async function installedSdk(root, version) {
  const { base, dir, sdk } = placeOf(root, version);
  if (sdkInstalled(root, version)) return sdk;

  // Installed beside the final place and moved there when complete: a run cut short leaves nothing
  // half-installed for the next run to trust.
  await fsp.mkdir(base, { recursive: true });
  const work = await fsp.mkdtemp(path.join(base, `.${version}-`));
  try {
    const manifest = { private: true, dependencies: { "@pulumi/pulumi": version } };
    await fsp.writeFile(path.join(work, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await execFileAsync(
      "npm",
      ["install", "--prefix", work, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      { cwd: work, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
    );
    if (versionAt(path.join(work, "node_modules", "@pulumi", "pulumi")) !== version) {
      throw new Error(`npm install of @pulumi/pulumi@${version} into ${work} did not install it`);
    }
    await fsp.writeFile(path.join(work, DONE), `${version}\n`);
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rename(work, dir);
  } catch (error) {
    await fsp.rm(work, { recursive: true, force: true });
    // Another run may have finished the same install meanwhile.
    if (sdkInstalled(root, version)) return sdk;
    throw error;
  }
  return sdk;
}

module.exports = { installedSdk, sdkInstalled };

// The Node.js SDK (sdk/nodejs, TypeScript as the generator writes it) compiled into the package npm
// publishes: JavaScript and declarations at the package's root, its package.json pointing `main` and
// `types` at them, README and LICENSE beside. Offline: the repository's own TypeScript compiles it
// against the oldest `@pulumi/pulumi` its dependency range allows (installed once: ./pulumi-sdk.js),
// as a user's install may resolve it; the repository's own SDK may be older than that range.
const { execFile } = require("node:child_process");
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const os = require("node:os");
const path = require("node:path");
const { promisify } = require("node:util");
const { installedSdk } = require("./pulumi-sdk");

const execFileAsync = promisify(execFile);

/** sdk/nodejs/package.json of the repository at `root`. */
function sdkManifest(root) {
  return JSON.parse(fs.readFileSync(path.join(root, "sdk", "nodejs", "package.json"), "utf8"));
}

/** The `@pulumi/pulumi` version the SDK's `^X.Y.Z` dependency starts at. */
function pulumiFloor(root) {
  const range = sdkManifest(root).dependencies?.["@pulumi/pulumi"] ?? "";
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (floor === undefined) {
    throw new Error(
      `sdk/nodejs/package.json's dependency on @pulumi/pulumi is ${JSON.stringify(range)}, not ^X.Y.Z`,
    );
  }
  return floor;
}

/**
 * Compiles sdk/nodejs of the repository at `root` into `outDir` (emptied first), the package as npm
 * packs it, and returns `{ dir, pulumiSdk }`: the package's folder and the `@pulumi/pulumi` folder it
 * was compiled against. `pulumiSdk` overrides that folder. A type error fails with tsc's output.
 */
async function compileNodeSdk({ root, outDir, pulumiSdk }) {
  const source = path.join(root, "sdk", "nodejs");
  const sdk = pulumiSdk ?? (await installedSdk(root, pulumiFloor(root)));
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-node-sdk-"));
  try {
    await fsp.cp(source, work, { recursive: true });
    // The SDK's imports resolve to that @pulumi/pulumi, its `types: ["node"]` to the repository's.
    await fsp.mkdir(path.join(work, "node_modules", "@types"), { recursive: true });
    await fsp.symlink(path.dirname(sdk), path.join(work, "node_modules", "@pulumi"), "dir");
    await fsp.symlink(
      path.join(root, "node_modules", "@types", "node"),
      path.join(work, "node_modules", "@types", "node"),
      "dir",
    );
    const tsc = require.resolve("typescript/bin/tsc", { paths: [root] });
    // No maps: they would name sources the package does not hold.
    const args = [tsc, "-p", work, "--outDir", path.join(work, "bin"), "--sourceMap", "false"];
    await execFileAsync(process.execPath, [...args, "--declarationMap", "false"], {
      cwd: work,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error) => {
      throw new Error(`tsc of sdk/nodejs failed:\n${error.stdout || error.message}`);
    });

    await fsp.rm(outDir, { recursive: true, force: true });
    await fsp.cp(path.join(work, "bin"), outDir, { recursive: true });
    // The compiled package: its entry and declarations named, no build script or compiler to install.
    const { scripts: _scripts, devDependencies: _dev, ...manifest } = sdkManifest(root);
    const published = { ...manifest, main: "index.js", types: "index.d.ts" };
    await fsp.writeFile(path.join(outDir, "package.json"), `${JSON.stringify(published, null, 4)}\n`);
    await fsp.copyFile(path.join(source, "README.md"), path.join(outDir, "README.md"));
    await fsp.copyFile(path.join(root, "LICENSE"), path.join(outDir, "LICENSE"));
    return { dir: outDir, pulumiSdk: sdk };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

module.exports = { compileNodeSdk, pulumiFloor };

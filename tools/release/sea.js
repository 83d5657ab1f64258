/**
 * The plugin's executable for one platform: Node's own binary for it (./node-binaries.js) with a single
 * executable application's blob injected by `postject` (Node's "single executable applications"). The
 * blob holds ./sea-main.js as its main script and the plugin's bundle (./bundle.js) as an asset, and,
 * for the platform this machine can run (linux-amd64), the bundle's V8 code cache (./code-cache.js).
 *
 * The blob is made by the pinned Node of linux-amd64 itself (`--experimental-sea-config`), whatever
 * the platform: its format is the same on every platform of one Node version. The SEA's own
 * `useCodeCache` is off: it would cache only the small main script, and Node's documentation rules it
 * out for a blob made for another platform; the plugin's cache is made by running the bundle on the
 * Node it is for, so linux-amd64 alone has one. A darwin binary is then signed ad hoc with rcodesign
 * (./macho-signature.js checks the signature). The Windows binary's Authenticode signature (Node's,
 * which the injection would leave in place but invalid: a tampered signature, worse to Windows than
 * none) is removed first with osslsigncode (Debian's `osslsigncode`), as Node's documentation does with
 * `signtool remove /s`; the executable is then unsigned.
 */
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { stripVTControlCharacters } = require("node:util");
const { nodeBinary } = require("./node-binaries");

/** The fuse string Node's binary carries, which postject flips to say a blob is present. */
const SENTINEL_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** The platform whose Node runs here: it makes every blob, and its binary alone gets a code cache. */
const BUILD_PLATFORM = "linux-amd64";

/** Runs `file` with `args`, its output kept; an error with that output when it fails. */
function run(file, args, options = {}) {
  try {
    return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
  } catch (error) {
    throw new Error(
      `${path.basename(file)} ${args.join(" ")} failed:\n${error.stderr || error.stdout || error.message}`,
    );
  }
}

/**
 * Writes the blob of `bundleFile` into `workDir` and resolves to its path: with the bundle's code
 * cache when `withCodeCache`, made by the same Node binary that makes the blob.
 */
async function seaBlob({ root, workDir, bundleFile, withCodeCache }) {
  const node = await nodeBinary(root, BUILD_PLATFORM);
  const name = withCodeCache ? "cached" : "plain";
  const assets = { "plugin.js": bundleFile };
  if (withCodeCache) {
    const cache = path.join(workDir, "plugin.cache");
    run(node, ["--random-seed=1", path.join(__dirname, "code-cache.js"), bundleFile, cache], {
      cwd: workDir,
    });
    assets["plugin.cache"] = cache;
  }
  const blob = path.join(workDir, `sea-${name}.blob`);
  const config = path.join(workDir, `sea-${name}.json`);
  // The blob keeps the main script's path as the config names it: a name relative to the work folder
  // (the command's cwd), so that no builder's folder is in the executable and the release's bytes are
  // the same wherever the checkout is.
  fs.copyFileSync(path.join(__dirname, "sea-main.js"), path.join(workDir, "sea-main.js"));
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: "sea-main.js",
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets,
    }),
  );
  run(node, ["--experimental-sea-config", config], { cwd: workDir });
  return blob;
}

/** The bin folder of rcodesign as tools/rcodesign/build.sh builds it (OPSMANAGER_RCODESIGN overrides). */
function rcodesignBin(root) {
  if (process.env.OPSMANAGER_RCODESIGN) return process.env.OPSMANAGER_RCODESIGN;
  const out = run("bash", [path.join(root, "tools", "rcodesign", "build.sh")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop();
}

/** osslsigncode, which takes the Authenticode signature off Node's Windows binary (Debian's package). */
const OSSLSIGNCODE = process.env.OPSMANAGER_OSSLSIGNCODE ?? "osslsigncode";

/**
 * Writes `platform`'s executable to `outFile`: the pinned Node binary with `blob` injected, on darwin
 * signed ad hoc with the identifier `pulumi-resource-opsmanager`, on Windows with Node's signature
 * removed before the injection. Resolves to what postject warned of.
 */
async function buildExecutable({ root, platform, blob, outFile, rcodesign }) {
  const node = await nodeBinary(root, platform);
  if (platform.startsWith("windows-")) {
    fs.rmSync(outFile, { force: true });
    run(OSSLSIGNCODE, ["remove-signature", "-in", node, "-out", outFile]);
  } else fs.copyFileSync(node, outFile);
  fs.chmodSync(outFile, 0o755);
  const darwin = platform.startsWith("darwin-");
  const args = [require.resolve("postject/dist/cli.js"), outFile, "NODE_SEA_BLOB", blob];
  args.push("--sentinel-fuse", SENTINEL_FUSE, ...(darwin ? ["--macho-segment-name", "NODE_SEA"] : []));
  // postject holds the whole binary in WebAssembly memory: a process of its own returns it.
  const said = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (said.status !== 0) throw new Error(`postject failed on ${platform}:\n${said.stderr}${said.stdout}`);
  const warnings = `${said.stdout}\n${said.stderr}`
    .split("\n")
    .map((line) => stripVTControlCharacters(line).trim())
    .filter((line, i, all) => line.startsWith("warning:") && all.indexOf(line) === i);
  if (darwin) {
    // postject's injection drops Node's signature; rcodesign writes an ad-hoc one (no certificate,
    // no hardened runtime), as `codesign --sign -` does.
    const bin = rcodesign ?? rcodesignBin(root);
    run(path.join(bin, "rcodesign"), ["sign", "--binary-identifier", "pulumi-resource-opsmanager", outFile]);
  }
  return { warnings };
}

module.exports = { BUILD_PLATFORM, SENTINEL_FUSE, buildExecutable, rcodesignBin, seaBlob };

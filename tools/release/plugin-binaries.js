/**
 * The plugin's release archives, one per platform: `pulumi-resource-opsmanager-v<version>-<os>-<arch>.tar.gz`
 * holding at its root the plugin's single executable (`pulumi-resource-opsmanager`, `.exe` on Windows;
 * ./sea.js), README.md, LICENSE and THIRD-PARTY-NOTICES (the licences of Node.js, which each
 * executable is, and of every npm package in the plugin's bundle), as `pulumi plugin install` and
 * `pulumi up` fetch and unpack them.
 * Every platform's executable is made here, from the built package (`npm run build` first).
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { writeArchive } = require("./archive");
const { bundlePlugin } = require("./bundle");
const { checkAdHocSignature } = require("./macho-signature");
const { NODE_VERSION, PLATFORMS, nodeLicense } = require("./node-binaries");
const { BUILD_PLATFORM, buildExecutable, rcodesignBin, seaBlob } = require("./sea");

const NAME = "pulumi-resource-opsmanager";
/** The CPU each darwin executable is for, as its Mach-O header names it. */
const DARWIN_ARCH = { "darwin-amd64": "x86_64", "darwin-arm64": "arm64" };

/** The archive's file name for `version` and `platform` (`linux-amd64`: Go's names, as the CLI asks). */
function archiveName(version, platform) {
  return `${NAME}-v${version}-${platform}.tar.gz`;
}

/** The executable's name inside the archive. */
function binaryName(platform) {
  return platform.startsWith("windows-") ? `${NAME}.exe` : NAME;
}

/**
 * The notices every archive carries beside LICENSE: Node.js's licence, then each bundled package's,
 * as the licences those packages are under ask their copies to carry.
 */
function thirdPartyNotices(nodeLicenseText, packages) {
  const rule = "-".repeat(78);
  const parts = [
    `${NAME} is one executable: Node.js ${NODE_VERSION} with the plugin's code, bundled from the npm`,
    "packages below, inside it. Their licences follow: Node.js's first, then each package's.",
    "",
    rule,
    `Node.js ${NODE_VERSION}`,
    rule,
    "",
    nodeLicenseText.trimEnd(),
  ];
  for (const p of packages) {
    parts.push(
      "",
      rule,
      `${p.name} ${p.version}${p.license === undefined ? "" : ` (${p.license})`}`,
      rule,
      "",
    );
    parts.push(
      p.text === undefined
        ? `The package carries no licence file; its package.json says ${p.license ?? "nothing"}.`
        : p.text.trimEnd(),
    );
  }
  return `${parts.join("\n")}\n`;
}

/**
 * The time every archive entry carries: SOURCE_DATE_EPOCH when set (the reproducible-builds
 * convention), else the commit's time, so that two builds of one commit write the same bytes.
 */
function sourceDate(root) {
  let seconds = process.env.SOURCE_DATE_EPOCH;
  if (seconds === undefined) {
    try {
      seconds = execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8" }).trim();
    } catch {
      throw new Error(
        "not a git checkout: set SOURCE_DATE_EPOCH to the time the archives' files should carry",
      );
    }
  }
  if (!/^\d+$/.test(seconds)) throw new Error(`SOURCE_DATE_EPOCH ${seconds}: not a number of seconds`);
  return new Date(Number(seconds) * 1000);
}

/**
 * Builds the archive of each of `platforms` into `outDir` and resolves to one record per archive:
 * `{ platform, file, bytes, binaryBytes, codeCache, warnings, signature }` (`signature`: a darwin
 * executable's checked ad-hoc signature). `log` receives a line per step.
 */
async function buildPluginArchives({ root, outDir, platforms = PLATFORMS, log = () => {} }) {
  const unknown = platforms.filter((p) => !PLATFORMS.includes(p));
  if (unknown.length > 0)
    throw new Error(`no platform ${unknown.join(", ")}; the platforms are ${PLATFORMS.join(", ")}`);
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const mtime = sourceDate(root);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-plugin-binaries-"));
  try {
    const bundleFile = path.join(work, "plugin.js");
    const bundled = await bundlePlugin({ root, outFile: bundleFile });
    log(
      `bundle: ${bundled.bytes} bytes, version ${bundled.version}, ${bundled.packages.length} npm packages`,
    );
    const notices = path.join(work, "THIRD-PARTY-NOTICES");
    fs.writeFileSync(notices, thirdPartyNotices(await nodeLicense(root), bundled.packages));
    const blobs = {};
    const blobOf = async (withCodeCache) => {
      blobs[withCodeCache] ??= await seaBlob({ root, workDir: work, bundleFile, withCodeCache });
      return blobs[withCodeCache];
    };
    const rcodesign = platforms.some((p) => p.startsWith("darwin-")) ? rcodesignBin(root) : undefined;
    fs.mkdirSync(outDir, { recursive: true });
    const built = [];
    for (const platform of platforms) {
      const codeCache = platform === BUILD_PLATFORM;
      const dir = path.join(work, platform);
      fs.mkdirSync(dir);
      const exe = path.join(dir, binaryName(platform));
      const blob = await blobOf(codeCache);
      const { warnings } = await buildExecutable({ root, platform, blob, outFile: exe, rcodesign });
      let signature;
      if (DARWIN_ARCH[platform] !== undefined) {
        signature = checkAdHocSignature(fs.readFileSync(exe));
        if (signature.arch !== DARWIN_ARCH[platform])
          throw new Error(`${platform}: the executable is for ${signature.arch}`);
      }
      const file = path.join(outDir, archiveName(version, platform));
      await writeArchive({
        file,
        mtime,
        entries: [
          { name: binaryName(platform), from: exe, executable: true },
          { name: "README.md", from: path.join(root, "README.md") },
          { name: "LICENSE", from: path.join(root, "LICENSE") },
          { name: "THIRD-PARTY-NOTICES", from: notices },
        ],
      });
      const record = {
        platform,
        file,
        bytes: fs.statSync(file).size,
        binaryBytes: fs.statSync(exe).size,
        codeCache,
        warnings,
        signature,
      };
      built.push(record);
      fs.rmSync(dir, { recursive: true, force: true });
      log(
        `${path.basename(file)}: ${record.bytes} bytes (executable ${record.binaryBytes} bytes)${warnings.map((w) => `; postject: ${w}`).join("")}`,
      );
    }
    return built;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

module.exports = { NAME, archiveName, binaryName, buildPluginArchives, sourceDate, thirdPartyNotices };

// The SDKs and the dynamic package as their registries take them, built offline into the release
// folder (tools/release/release.js calls buildSdkPackages; alone: node tools/release/sdk-packages.js --out <dir>):
//
//   npm/pulumi-opsmanager-sdk-<version>.tgz   `npm pack` of sdk/nodejs compiled (./node-sdk.js)
//   npm/pulumi-opsmanager-<version>.tgz       `npm pack` of the repository's root, as built (`npm run build`)
//   python/pulumi_opsmanager-<version>-py3-none-any.whl, pulumi_opsmanager-<version>.tar.gz
//                                             tools/python/wheel.sh
//   go/<module>/@v/{list,v<version>.info,.mod,.zip}
//                                             a GOPROXY folder of the SDK's module at the commit, as
//                                             `go get` takes it from the tag sdk/v<version> (tools/gomodzip)
//
// and no NuGet package: no .NET SDK can be had on these machines, nor Pulumi's NuGet package to build
// against. Every stamp is the commit's time (SOURCE_DATE_EPOCH for the wheel and sdist, the Go .info's
// Time), and npm pack writes fixed ones: two runs on one commit give the same bytes.
const { execFile } = require("node:child_process");
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const os = require("node:os");
const path = require("node:path");
const { promisify } = require("node:util");
const { compileNodeSdk } = require("./node-sdk");

const execFileAsync = promisify(execFile);
const run = (command, args, options) =>
  execFileAsync(command, args, { timeout: 600_000, maxBuffer: 64 * 1024 * 1024, ...options }).catch(
    (error) => {
      throw new Error(
        `${command} ${args.join(" ")} failed: ${error.stderr || error.stdout || error.message}`,
      );
    },
  );

/** The SDK's Go module (sdk/go.mod) and its folder, which is also its tags' prefix (sdk/v<version>). */
const GO_MODULE = "github.com/pulumi-opsmanager/pulumi-opsmanager/sdk";
const GO_SUBDIR = "sdk";

/** Each SDK's own statement of its version, to be package.json's. */
function sdkVersions(root) {
  const read = (file) => fs.readFileSync(path.join(root, file), "utf8");
  const json = (file) => JSON.parse(read(file)).version;
  return {
    "sdk/nodejs/package.json": json("sdk/nodejs/package.json"),
    "sdk/python/pyproject.toml": /^\s*version = "([^"]*)"$/m.exec(read("sdk/python/pyproject.toml"))?.[1],
    "sdk/python/pulumi_opsmanager/pulumi-plugin.json": json(
      "sdk/python/pulumi_opsmanager/pulumi-plugin.json",
    ),
    "sdk/go/opsmanager/pulumi-plugin.json": json("sdk/go/opsmanager/pulumi-plugin.json"),
    "sdk/dotnet/version.txt": read("sdk/dotnet/version.txt").trim(),
    "provider/plugin/schema.json": json("provider/plugin/schema.json"),
  };
}

/** Fails unless `version` is package.json's and every SDK's, and sdk/ is as committed. */
async function checkSources(root, version) {
  const own = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  if (version !== own) throw new Error(`the release's version ${version} is not package.json's (${own})`);
  const wrong = Object.entries(sdkVersions(root)).filter(([, v]) => v !== version);
  if (wrong.length > 0) {
    const list = wrong.map(([file, v]) => `${file} ${v}`).join(", ");
    throw new Error(`${list}: not package.json's ${version}; run npm run gen:sdk`);
  }
  // The Go module is made from the commit, the other packages from the files: they must be the same.
  const { stdout } = await run("git", ["status", "--porcelain", "--", GO_SUBDIR], { cwd: root });
  if (stdout.trim() !== "") {
    throw new Error(
      `${GO_SUBDIR}/ differs from the commit (git status: ${stdout.trim().split("\n")[0]} …); commit it first`,
    );
  }
  if (
    !fs.existsSync(path.join(root, "dist", "provider", "index.js")) ||
    !fs.existsSync(path.join(root, "dist", "provider", "plugin", "bundle.js"))
  ) {
    throw new Error("dist/ is not built: run npm run build first (the dynamic package is packed as built)");
  }
}

/** `npm pack` of `dir` into `destination`; the tarball's path. */
async function npmPack(dir, destination) {
  const { stdout } = await run(
    "npm",
    ["pack", "--json", "--ignore-scripts", "--loglevel=error", "--pack-destination", destination],
    { cwd: dir },
  );
  const [entry] = JSON.parse(stdout.slice(stdout.indexOf("[")));
  return path.join(destination, entry.filename);
}

/** The Go module at the commit as a GOPROXY folder in `outDir`, by tools/gomodzip (x/mod's zip). */
async function goProxy(root, outDir, version) {
  await run(
    "go",
    [
      "run",
      ".",
      "-repo",
      root,
      "-rev",
      "HEAD",
      "-subdir",
      GO_SUBDIR,
      "-module",
      GO_MODULE,
      "-version",
      `v${version}`,
      "-out",
      outDir,
    ],
    { cwd: path.join(root, "tools", "gomodzip"), env: { ...process.env, GOFLAGS: "-mod=readonly" } },
  );
  const dir = path.join(outDir, ...GO_MODULE.split("/"), "@v");
  return ["list", `v${version}.info`, `v${version}.mod`, `v${version}.zip`].map((f) => path.join(dir, f));
}

/**
 * Writes the SDK packages and the dynamic package of the repository at `root`, at `version`
 * (package.json's), into `outDir`'s npm/, python/ and go/ folders, and returns their paths, relative
 * to `outDir` and sorted, with why there is no NuGet package. `pulumiSdk` is the `@pulumi/pulumi`
 * folder to compile the Node.js SDK against (default: the oldest its range allows, installed once).
 */
async function buildSdkPackages({ root, outDir, version, pulumiSdk }) {
  await checkSources(root, version);
  const { stdout: epoch } = await run("git", ["log", "-1", "--format=%ct"], { cwd: root });
  const npmDir = path.join(outDir, "npm");
  const pythonDir = path.join(outDir, "python");
  const goDir = path.join(outDir, "go");
  for (const dir of [npmDir, pythonDir, goDir]) {
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.mkdir(dir, { recursive: true });
  }

  const work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-sdk-packages-"));
  try {
    const { dir: nodeSdk } = await compileNodeSdk({ root, outDir: path.join(work, "nodejs"), pulumiSdk });
    const files = [await npmPack(nodeSdk, npmDir), await npmPack(root, npmDir)];
    const env = { ...process.env, SOURCE_DATE_EPOCH: epoch.trim() };
    await run("bash", [path.join(root, "tools", "python", "wheel.sh"), pythonDir], { cwd: root, env });
    files.push(...(await fsp.readdir(pythonDir)).map((f) => path.join(pythonDir, f)));
    files.push(...(await goProxy(root, goDir, version)));
    return {
      files: files.map((f) => path.relative(outDir, f)).sort(),
      nuget:
        "no .NET SDK on this machine kind (Debian 12's apt has none, PyPI's dotnetcore2 is a 3.1 runtime) and no NuGet feed for the Pulumi package",
    };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

module.exports = { buildSdkPackages, GO_MODULE };

if (require.main === module) {
  // node tools/release/sdk-packages.js [--out <dir>]: the SDK packages alone, into <dir> (dist-release).
  const root = path.join(__dirname, "..", "..");
  const at = process.argv.indexOf("--out");
  const outDir = path.resolve(at === -1 ? path.join(root, "dist-release") : process.argv[at + 1]);
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  buildSdkPackages({ root, outDir, version }).then(
    ({ files, nuget }) => {
      for (const f of files) console.log(path.join(outDir, f));
      console.log(`no NuGet package: ${nuget}`);
    },
    (error) => {
      console.error(`sdk-packages: ${error.message}`);
      process.exit(1);
    },
  );
}

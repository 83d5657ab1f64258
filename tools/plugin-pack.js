#!/usr/bin/env node
// Builds the provider plugin as a tarball that `pulumi plugin install resource opsmanager <version>
// --file <tarball>` installs: `npm run plugin:pack` (builds first). Writes
// dist-plugin/pulumi-resource-opsmanager-v<version>-<os>-<arch>.tar.gz and prints its path and size.
//
// The tarball holds, at its top: the executable `pulumi-resource-opsmanager` (a Node.js script that
// runs ENTRY with the `node` on PATH, as bin/pulumi-resource-opsmanager does), package.json, the
// built dist/provider, the schema provider/plugin/schema.json (the plugin's GetSchema reads it), and
// the production node_modules: the package's dependencies and @pulumi/pulumi (a peer dependency, whose
// gRPC stubs the plugin serves), each with its own dependencies, copied from this clone's
// node_modules as npm recorded the tree it installed. Nothing in it is native: the same tarball runs
// wherever Node 20 runs.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/**
 * The plugin's entry in the built package, which the launcher runs (it turns on Node's compile cache,
 * then runs the plugin as one file, BUNDLE).
 */
const { BUNDLE, LAUNCH: ENTRY } = require("./bundle-script");
const NAME = "pulumi-resource-opsmanager";

/** The launcher at the tarball's top: the engine runs it with its own arguments. */
function launcher(entry) {
  return `#!/usr/bin/env node
// The Pulumi provider plugin of pulumi-opsmanager (package "opsmanager"), run with the node on PATH.
require("./${entry}");
`;
}

/** The installed folders of `names` and everything they depend on, as Node resolves them. */
function productionFolders(root, names) {
  // npm's record of the tree it installed, which an `npm install --no-save` (CI's newest SDK) updates
  // and package-lock.json does not; package-lock.json where there is none.
  const hidden = path.join(root, "node_modules", ".package-lock.json");
  const lockFile = fs.existsSync(hidden) ? hidden : path.join(root, "package-lock.json");
  const lock = JSON.parse(fs.readFileSync(lockFile, "utf8"));
  const packages = lock.packages;
  const found = new Set();
  // Node's resolution over the lockfile: from `from`'s folder up, the first node_modules/<name>.
  const resolve = (from, name) => {
    let dir = from;
    for (;;) {
      const candidate = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      if (packages[candidate] !== undefined) return candidate;
      if (dir === "") return undefined;
      const at = dir.lastIndexOf("/node_modules/");
      dir = at === -1 ? "" : dir.slice(0, at);
    }
  };
  const visit = (from, name) => {
    const folder = resolve(from, name);
    if (folder === undefined)
      throw new Error(`${name} (needed by ${from || "the package"}) is not in package-lock.json`);
    if (found.has(folder)) return;
    found.add(folder);
    const entry = packages[folder];
    if (entry.link) throw new Error(`${folder} is a link; run npm ci`);
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(folder, dep);
    // Optional dependencies are taken where they were installed (a platform's binary, say).
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
      if (resolve(folder, dep) !== undefined && fs.existsSync(path.join(root, resolve(folder, dep))))
        visit(folder, dep);
    }
  };
  for (const name of names) visit("", name);
  // A folder inside another is copied with it.
  return [...found].sort().filter((f) => ![...found].some((o) => o !== f && f.startsWith(`${o}/`)));
}

/** Go's names of this machine, as plugin tarballs are named (`linux-amd64`, `darwin-arm64`). */
function platform() {
  const osName = { win32: "windows" }[process.platform] ?? process.platform;
  const arch = { x64: "amd64", ia32: "386" }[process.arch] ?? process.arch;
  return `${osName}-${arch}`;
}

/**
 * Packs the built package at `root` into `outDir` and returns the tarball's path. `entryFile`, when
 * given, is put at ENTRY instead of the built one (the tests' stand-in before the plugin is built).
 */
function pack({ root = path.join(__dirname, ".."), outDir, entryFile } = {}) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const schema = path.join(root, "provider", "plugin", "schema.json");
  const entry = entryFile ?? path.join(root, ENTRY);
  for (const [file, what] of [
    [entry, "the plugin's entry (run npm run build)"],
    ...(entryFile === undefined
      ? [[path.join(root, BUNDLE), "the plugin as one file (run npm run build)"]]
      : []),
    [schema, "the schema (run npm run gen:schema)"],
  ]) {
    if (!fs.existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: ${what}`);
  }
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-plugin-"));
  try {
    fs.writeFileSync(path.join(stage, NAME), launcher(ENTRY), { mode: 0o755 });
    fs.writeFileSync(
      path.join(stage, "package.json"),
      `${JSON.stringify({ name: manifest.name, version: manifest.version, license: manifest.license, private: true }, null, 2)}\n`,
    );
    fs.cpSync(path.join(root, "dist", "provider"), path.join(stage, "dist", "provider"), { recursive: true });
    if (entryFile !== undefined) fs.cpSync(entryFile, path.join(stage, ENTRY));
    fs.mkdirSync(path.join(stage, "provider", "plugin"), { recursive: true });
    fs.copyFileSync(schema, path.join(stage, "provider", "plugin", "schema.json"));
    const names = [...Object.keys(manifest.dependencies ?? {}), "@pulumi/pulumi"];
    for (const folder of productionFolders(root, names)) {
      fs.cpSync(path.join(root, folder), path.join(stage, folder), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    const out = outDir ?? path.join(root, "dist-plugin");
    fs.mkdirSync(out, { recursive: true });
    const tarball = path.join(out, `${NAME}-v${manifest.version}-${platform()}.tar.gz`);
    execFileSync("tar", ["-czf", tarball, "-C", stage, "."]);
    return tarball;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

module.exports = { BUNDLE, ENTRY, pack, platform };

if (require.main === module) {
  const tarball = pack();
  const bytes = fs.statSync(tarball).size;
  console.log(
    `wrote ${path.relative(process.cwd(), tarball)} (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${bytes} bytes)`,
  );
}

/**
 * The plugin as one CommonJS file for a Node single executable (./sea.js), made with esbuild from the
 * built entry (dist/provider/plugin/main.js: `npm run build` first). Two of the package's modules are
 * replaced in it, so that the file needs nothing beside it:
 *
 * - dist/provider/plugin/package-files.js and dist/provider/client/package-version.js, which read
 *   package.json and the schema, by modules that hold the version and the schema's text as they were
 *   at build time;
 * - dist/provider/plugin/sdk.js, which loads the SDK's gRPC stubs by name at run time from the SDK's
 *   folder (createRequire), by one that `require`s each of those names literally, resolved from that same
 *   folder, so that esbuild takes each into the file.
 *
 * A single executable's `require` loads Node's built-in modules only: the build fails on any other
 * `require` left in the file (an esbuild warning of a call it could not follow, or an import it left
 * external), rather than leaving it to fail at run time.
 */
const fs = require("node:fs");
const { builtinModules } = require("node:module");
const path = require("node:path");

/** The plugin's entry in the built package. */
const ENTRY = "dist/provider/plugin/main.js";

/** The SDK module names the plugin's sources pass to `sdkRequire`, each once, sorted. */
function sdkModuleIds(root) {
  const dir = path.join(root, "provider", "plugin");
  const ids = new Set();
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".ts"))) {
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    const calls = text.match(/sdkRequire</g)?.length ?? 0;
    const literal = [...text.matchAll(/sdkRequire<[^>]*>\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]);
    // sdk.ts declares it; every other use must name its module literally to be bundled.
    const declared = name === "sdk.ts" ? 1 : 0;
    if (literal.length !== calls - declared) {
      throw new Error(`provider/plugin/${name}: an sdkRequire call whose module is not a string literal`);
    }
    for (const id of literal) ids.add(id);
  }
  return [...ids].sort();
}

/** The esbuild plugin that swaps the two modules (see the file's comment). */
function replaced({ root, version, schema, sdkDir, ids }) {
  const built = (...names) => path.join(root, "dist", "provider", ...names);
  const packageFiles = [
    "// The schema of the package this binary was built from (tools/release/bundle.js).",
    `exports.SCHEMA_PATH = "(in the binary)";`,
    `exports.schemaText = () => ${JSON.stringify(schema)};`,
  ].join("\n");
  const packageVersion = `exports.packageVersion = () => ${JSON.stringify(version)};`;
  const sdk = [
    "// The SDK's modules the plugin uses, resolved from the SDK's folder (tools/release/bundle.js).",
    "const modules = {",
    ...ids.map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(id)}),`),
    "};",
    "exports.sdkRequire = (id) => {",
    "  const load = modules[id];",
    `  if (load === undefined) throw new Error("the plugin's binary holds no SDK module " + id);`,
    "  return load();",
    "};",
  ].join("\n");
  return {
    name: "opsmanager-plugin-binary",
    setup(build) {
      build.onLoad({ filter: /[\\/](package-files|package-version|sdk)\.js$/ }, (args) => {
        if (args.path === built("plugin", "package-files.js"))
          return { contents: packageFiles, loader: "js" };
        if (args.path === built("client", "package-version.js"))
          return { contents: packageVersion, loader: "js" };
        if (args.path === built("plugin", "sdk.js"))
          return { contents: sdk, loader: "js", resolveDir: sdkDir };
        return undefined;
      });
    },
  };
}

/**
 * Every place in the bundle's code that could load a module from disk: a `require` that is not called
 * (or `require.resolve`d) with the literal name of a module `builtin` allows (passed as a value, or
 * called with a computed name), any `import()` (a bundle compiled by vm.Script cannot import), and a
 * direct `eval` (which could call `require`). esbuild follows only literal calls, and leaves the others as they were without a warning.
 * `builtin`: the names a bundle may load at run time, Node's own for the executable (BUILTIN).
 */
function diskLoads(code, builtin) {
  const acorn = require("acorn");
  const found = [];
  const resolvedLiterals = new Set();
  const line = (node) => code.slice(0, node.start).split("\n").length;
  const literalBuiltin = (arg) =>
    arg?.type === "Literal" && typeof arg.value === "string" && builtin.has(arg.value);
  const visit = (node, parent, key) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, parent, key);
      return;
    }
    if (typeof node.type !== "string") return;
    if (node.type === "Identifier" && node.name === "require") {
      const named =
        (parent?.type === "MemberExpression" && key === "property" && !parent.computed) ||
        (parent?.type === "Property" && key === "key" && !parent.computed);
      const called =
        parent?.type === "CallExpression" && key === "callee" && literalBuiltin(parent.arguments[0]);
      const resolved = key === "object" && resolvedLiterals.has(parent);
      if (!named && !called && !resolved)
        found.push(`line ${line(node)}: require used other than as require("<built-in>")`);
    }
    // `require.resolve("<allowed>")`: its `require.resolve` is marked here, its `require` seen below.
    if (
      node.type === "CallExpression" &&
      node.callee.type === "MemberExpression" &&
      !node.callee.computed &&
      node.callee.object.type === "Identifier" &&
      node.callee.object.name === "require" &&
      node.callee.property.name === "resolve" &&
      literalBuiltin(node.arguments[0])
    )
      resolvedLiterals.add(node.callee);
    // Any import(), of a built-in module too: the executable (./sea-main.js) and the script on Node 20
    // (provider/plugin/code-cache.ts) compile their bundle with vm.Script, which has no loader for it.
    if (node.type === "ImportExpression") found.push(`line ${line(node)}: import()`);
    if (node.type === "CallExpression" && node.callee.type === "Identifier" && node.callee.name === "eval") {
      found.push(`line ${line(node)}: eval`);
    }
    for (const [childKey, child] of Object.entries(node)) {
      if (childKey !== "type" && childKey !== "start" && childKey !== "end") visit(child, node, childKey);
    }
  };
  visit(acorn.parse(code, { ecmaVersion: "latest", sourceType: "script", allowHashBang: true }), null, "");
  return found;
}

/**
 * The modules the executable's `require` can load: Node's own. Any `node:` name is built in
 * (node:sqlite, say, which the Node running this build may not have).
 */
const BUILTIN = { has: (name) => name.startsWith("node:") || builtinModules.includes(name) };

/**
 * How a script becomes one CommonJS file for the executable's Node (the pinned Node 22). Minified: less
 * for V8 to parse and compile at each start; every error the plugin answers carries its own message
 * and name, which minifying leaves as they are.
 */
const BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  minify: true,
  logLevel: "silent",
};

/**
 * Bundles the plugin of the built package at `root` into `outFile`. Resolves to the file's size and the
 * package version inside it.
 */
async function bundlePlugin({ root, outFile }) {
  const esbuild = require("esbuild");
  const entry = path.join(root, ENTRY);
  if (!fs.existsSync(entry)) throw new Error(`${ENTRY} is missing: run npm run build`);
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const schema = fs.readFileSync(path.join(root, "provider", "plugin", "schema.json"), "utf8");
  const schemaVersion = JSON.parse(schema).version;
  if (schemaVersion !== version) {
    throw new Error(
      `provider/plugin/schema.json is at version ${schemaVersion}, package.json at ${version}: run npm run gen:schema`,
    );
  }
  const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [root] }));
  const result = await esbuild.build({
    ...BUNDLE_OPTIONS,
    entryPoints: [entry],
    outfile: outFile,
    metafile: true,
    legalComments: "eof",
    plugins: [replaced({ root, version, schema, sdkDir, ids: sdkModuleIds(root) })],
  });
  const problems = result.warnings.map((w) => {
    const at = w.location === null ? "" : `${w.location.file}:${w.location.line}: `;
    return `${at}${w.text}`;
  });
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external && !BUILTIN.has(imported.path))
        problems.push(`${file}: ${imported.path} left external`);
    }
  }
  // esbuild writes code in ASCII (its default charset), and comments as they were: the licences it
  // keeps hold a few other characters. Escaped, the file is ASCII, which the executable reads as
  // Latin-1 without decoding UTF-8, and V8 holds in one byte a character.
  const code = fs
    .readFileSync(outFile, "utf8")
    .replace(/[^\p{ASCII}]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  fs.writeFileSync(outFile, code);
  problems.push(...diskLoads(code, BUILTIN));
  if (problems.length > 0) {
    fs.rmSync(outFile, { force: true });
    throw new Error(`the plugin's bundle would load modules from disk:\n${problems.join("\n")}`);
  }
  return { bytes: fs.statSync(outFile).size, version, packages: bundledPackages(result.metafile) };
}

/** The names a package's licence file goes by, in the order they are looked for. */
const LICENSE_FILES = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/**
 * The npm packages whose code is in the bundle (every input under a node_modules folder), each with
 * its name, version, the licence its package.json declares and the text of its licence file (or
 * undefined where the package has none), sorted by name: what the archives' notices list.
 */
function bundledPackages(metafile) {
  const dirs = new Set();
  for (const file of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file.replace(/\\/g, "/"));
    if (m !== null) dirs.add(path.resolve(m[1]));
  }
  const packages = new Map();
  for (const dir of dirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    const key = `${manifest.name}@${manifest.version}`;
    if (packages.has(key)) continue;
    const file = fs.readdirSync(dir).find((f) => LICENSE_FILES.test(f));
    packages.set(key, {
      name: manifest.name,
      version: manifest.version,
      license: typeof manifest.license === "string" ? manifest.license : undefined,
      text: file === undefined ? undefined : fs.readFileSync(path.join(dir, file), "utf8"),
    });
  }
  return [...packages.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

module.exports = { BUILTIN, BUNDLE_OPTIONS, ENTRY, bundlePlugin, bundledPackages, diskLoads, sdkModuleIds };

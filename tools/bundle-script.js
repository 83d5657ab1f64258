#!/usr/bin/env node
/**
 * The plugin as the package's script runs it (bin/pulumi-resource-opsmanager, and the launcher of the
 * plugin tarball that tools/plugin-pack.js makes): the built entry, dist/provider/plugin/main.js, with
 * the package's modules and its dependencies in one file beside it, dist/provider/plugin/bundle.js.
 * `npm run build` makes it after tsc. The engine waits for a plugin's port at the start of every
 * command, and Node resolves, reads and compiles some 400 files for the unbundled entry: the bundle is
 * one file, compiled a function at a time as each is first called.
 *
 * Left out of it, and loaded at run time as before: the SDK (`@pulumi/pulumi`, the program's peer
 * dependency, whose gRPC stubs and `@grpc/grpc-js` ./provider/plugin/sdk.ts resolves from the SDK's
 * folder) and Node's own modules. The bundle sits in dist/provider/plugin/ as main.js does, so that
 * what it reads beside itself (the schema, package.json) is where it was.
 *
 * Not minified: V8 compiles at once a function that a minifier leaves wrapped in parentheses, and
 * the minified bundle started slower (docs/performance.md).
 */
const fs = require("node:fs");
const path = require("node:path");
// ENTRY: the entry tsc builds, which the release bundles too.
const { BUILTIN, ENTRY, diskLoads } = require("./release/bundle");

/** The bundle the package's script runs. */
const BUNDLE = "dist/provider/plugin/bundle.js";
/** What the package's script and the tarball's launcher require: it turns on Node's compile cache, then requires BUNDLE (provider/plugin/launch.ts). */
const LAUNCH = "dist/provider/plugin/launch.js";

/**
 * An esbuild plugin that bundles zod's English messages only: zod's classic API loads every one of
 * its some 60 locales at its start (colinhacks/zod#6050) and configures English, the only one the
 * provider's messages use. `z.locales` then holds `en` alone.
 */
const ZOD_ENGLISH_ONLY = {
  name: "zod-english-only",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.cjs$/ }, (args) => {
      const dir = path.dirname(args.path);
      if (!fs.existsSync(path.join(dir, "en.cjs")))
        throw new Error(`${dir} has no en.cjs: zod's locales changed; update tools/bundle-script.js`);
      return { contents: 'exports.en = require("./en.cjs").default;\n', loader: "js", resolveDir: dir };
    });
  },
};

/** What the bundle may load at run time: Node's own modules, and the SDK's by their literal names. */
const RUN_TIME = {
  has: (name) => BUILTIN.has(name) || name === "@pulumi/pulumi" || name.startsWith("@pulumi/pulumi/"),
};

/** Writes the bundle of the built package at `root`; resolves to its size in bytes. */
async function bundleScript(root) {
  const esbuild = require("esbuild");
  const entry = path.join(root, ENTRY);
  if (!fs.existsSync(entry)) throw new Error(`${ENTRY} is missing: run tsc first (npm run build)`);
  const outFile = path.join(root, BUNDLE);
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: outFile,
    bundle: true,
    platform: "node",
    // package.json's engines.
    target: "node20",
    format: "cjs",
    external: ["@pulumi/pulumi", "@pulumi/pulumi/*"],
    plugins: [ZOD_ENGLISH_ONLY],
    logLevel: "silent",
  });
  // esbuild follows only the requires it can read (a literal name) and says nothing of the others,
  // which would load from disk, or fail, at run time: every other way the code could load a module.
  const problems = [
    ...result.warnings.map((w) => `${w.location ? `${w.location.file}:${w.location.line}: ` : ""}${w.text}`),
    ...diskLoads(fs.readFileSync(outFile, "utf8"), RUN_TIME),
  ];
  if (problems.length > 0) {
    fs.rmSync(outFile, { force: true });
    throw new Error(`the plugin's script bundle would load modules from disk:\n${problems.join("\n")}`);
  }
  return fs.statSync(outFile).size;
}

if (require.main === module) {
  bundleScript(path.resolve(__dirname, "..")).catch((error) => {
    process.stderr.write(`tools/bundle-script.js: ${error.message}\n`);
    process.exit(1);
  });
}

module.exports = { BUNDLE, LAUNCH, RUN_TIME, ZOD_ENGLISH_ONLY, bundleScript };

// The main script of the plugin's single executable (tools/release/sea.js): it runs the plugin's
// bundle, an asset of the executable, compiled with the V8 code cache that is the asset `plugin.cache`
// where the build made one (tools/release/code-cache.js). The cache holds every function compiled
// until the plugin printed its port; V8 checks that it was made by the same V8, with the same flags, for
// the same source, and compiles the source anew when it was not.

const sea = require("node:sea");
const vm = require("node:vm");
const { wrap } = require("node:module");

// The assets as the executable maps them, not copied; the bundle is ASCII (tools/release/bundle.js).
const source = Buffer.from(sea.getRawAsset("plugin.js")).toString("latin1");
let cachedData;
try {
  cachedData = Buffer.from(sea.getRawAsset("plugin.cache"));
} catch {
  // A binary built without a cache (every platform but the one that builds it).
}
const script = new vm.Script(wrap(source), { filename: "pulumi-resource-opsmanager.js", cachedData });
if (process.env.OPSMANAGER_PLUGIN_CODE_CACHE_REPORT === "1") {
  const state = cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
  process.stderr.write(`pulumi-resource-opsmanager: code cache ${state}\n`);
}
// The bundle's own `require` is the executable's, which loads Node's built-in modules only.
script.runInThisContext()(exports, require, module, __filename, __dirname);

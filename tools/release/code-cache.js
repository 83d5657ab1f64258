// Makes the V8 code cache of the plugin's bundle that its single executable loads (./sea-main.js):
// `node --random-seed=1 code-cache.js <bundle> <out>` compiles the bundle as sea-main.js does, runs it
// until it prints its port (every module loaded, the gRPC server listening), then writes the cache of
// every function compiled so far and exits. It must run on the Node binary the executable is made
// from: V8 takes a cache only from its own version and flags. `--random-seed` fixes V8's seed, which
// the cache's bytes otherwise vary with from run to run, and which V8 leaves out of the flags it checks.

const fs = require("node:fs");
const vm = require("node:vm");
const { wrap } = require("node:module");

const [bundle, out] = process.argv.slice(2);
const script = new vm.Script(wrap(fs.readFileSync(bundle, "utf8")), {
  filename: "pulumi-resource-opsmanager.js",
});
process.stdout.write = () => {
  fs.writeFileSync(out, script.createCachedData());
  process.exit(0);
};
setTimeout(() => {
  process.stderr.write("code-cache.js: the plugin printed no port within 60 s\n");
  process.exit(1);
}, 60_000).unref();
script.runInThisContext()(exports, require, module, __filename, __dirname);

/**
 * What the plugin's script runs (bin/pulumi-resource-opsmanager, and the launcher at the top of the
 * plugin's tarball, tools/plugin-pack.js): it keeps V8's compiled code between starts, then runs the
 * plugin as one file (./bundle.js, which tools/bundle-script.js makes).
 *
 * On Node 22.10 and newer (`module.enableCompileCache`, and `module.flushCompileCache`, which ./main.ts
 * calls once the port is out), Node's module compile cache keeps the compiled code of the bundle and of
 * the SDK modules it loads in the package's own `.cache` folder, which only who can write the package
 * can write (Node's default folder is under the shared temporary folder). `NODE_COMPILE_CACHE` names
 * another folder and `NODE_DISABLE_COMPILE_CACHE` turns it off, as Node documents them; a folder that
 * cannot be made or written is passed over in silence.
 *
 * A Node with no `module.enableCompileCache` (Node 20, and 22 before 22.8) keeps the bundle's own V8
 * code cache in the same `.cache` folder instead (./code-cache.ts): the bundle alone, not the SDK's
 * modules. `NODE_DISABLE_COMPILE_CACHE` turns it off too; with `NODE_COMPILE_CACHE` set the user has
 * chosen Node's own cache, and this one stays off.
 */
import * as nodeModule from "node:module";
import * as path from "node:path";
import { runCached } from "./code-cache";

const compileCache = nodeModule as {
  enableCompileCache?: (directory: string) => unknown;
  flushCompileCache?: () => void;
};
const cacheFolder = path.join(__dirname, "..", "..", "..", ".cache");
const bundle = path.join(__dirname, "bundle.js");
if (compileCache.enableCompileCache === undefined) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE || process.env.NODE_COMPILE_CACHE) require(bundle);
  else runCached(bundle, path.join(cacheFolder, "v8-code-cache"), module);
} else {
  // Without flushCompileCache (Node 22.8 and 22.9) the cache would never be written: the engine ends a
  // plugin with SIGINT, and Node writes it only at a normal exit.
  if (compileCache.flushCompileCache !== undefined && !process.env.NODE_COMPILE_CACHE) {
    compileCache.enableCompileCache(path.join(cacheFolder, "node-compile-cache"));
  }
  require(bundle);
}

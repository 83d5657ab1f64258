/**
 * The bundle's V8 code cache, for a Node that has no module compile cache (./launch.ts): the bundle is
 * compiled with the code V8 compiled for it at an earlier start, and the first start that has none, or
 * whose cache V8 refused, writes one once the plugin has printed its port (./main.ts calls
 * ./code-cache-flush.ts), so that it holds every function compiled by then, not only the bundle's top level
 * (esbuild's module bodies are functions, compiled when each module is first required).
 *
 * A file per Node version and architecture, `bundle-<version>-<arch>.cache`, begins with the SHA-1 of
 * the source it was made for: V8 itself checks its own version, its flags and the source's length, not
 * the source's text, so a rebuilt bundle of the same length would otherwise run the old build's code.
 * It is written to a file of its own and renamed into place, so that a plugin started meanwhile reads a
 * whole cache or none. Any error reading or writing it is passed over in silence, as Node does its own.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as nodeModule from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { onFlushCodeCache } from "./code-cache-flush";

/** Bytes of the source's SHA-1 at the start of a cache file. */
const DIGEST_BYTES = 20;

/** The cache file of this Node in `folder`. */
export function cacheFileOf(folder: string): string {
  return path.join(folder, `bundle-${process.version}-${process.arch}.cache`);
}

/** What the last {@link runCached} did with the cache, for the tests: `accepted`, `rejected` or `none`. */
export type CacheUse = "accepted" | "rejected" | "none";

/**
 * Runs the CommonJS file `file` as `require` would, compiled with the cache in `folder` when there is
 * one for this source, and leaves ./code-cache-flush.ts set to write a new cache when it had none that
 * V8 took.
 * With `OPSMANAGER_PLUGIN_CODE_CACHE_REPORT=1` it says on stderr which it was, as the single executable
 * does (tools/release/sea-main.js).
 */
export function runCached(file: string, folder: string, parent: NodeJS.Module): CacheUse {
  const source = fs.readFileSync(file, "utf8");
  const digest = createHash("sha1").update(source).digest();
  const cacheFile = cacheFileOf(folder);
  let cachedData: Buffer | undefined;
  try {
    const held = fs.readFileSync(cacheFile);
    if (held.length > DIGEST_BYTES && held.subarray(0, DIGEST_BYTES).equals(digest)) {
      cachedData = held.subarray(DIGEST_BYTES);
    }
  } catch {
    // No cache yet, or none readable: compiled anew.
  }
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData });
  const use: CacheUse =
    cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
  if (process.env.OPSMANAGER_PLUGIN_CODE_CACHE_REPORT === "1") {
    process.stderr.write(`pulumi-resource-opsmanager: code cache ${use}\n`);
  }
  onFlushCodeCache(use === "accepted" ? undefined : () => writeCache(cacheFile, digest, script));
  // The module as `require` would make it, and in require's cache as `require` would put it.
  const mod = new nodeModule.Module(file, parent);
  const fileRequire = nodeModule.createRequire(file);
  mod.filename = file;
  // The folders require looks in for a package from here.
  mod.paths = fileRequire.resolve.paths("a-package") ?? [];
  require.cache[file] = mod;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(mod.exports, fileRequire, mod, file, path.dirname(file));
  mod.loaded = true;
  return use;
}

/** Writes `script`'s cache for the source of `digest`; any failure leaves things as they were. */
function writeCache(cacheFile: string, digest: Buffer, script: vm.Script): void {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    // A package its user cannot write (installed by another): not even the cache's bytes are made.
    fs.accessSync(path.dirname(cacheFile), fs.constants.W_OK);
    fs.writeFileSync(partial, Buffer.concat([digest, script.createCachedData()]));
    fs.renameSync(partial, cacheFile);
  } catch {
    try {
      fs.rmSync(partial, { force: true });
    } catch {
      // Left for nobody to read: only a whole cache is ever renamed into place.
    }
  }
}

/**
 * The bundle's V8 code cache, for a Node that has no module compile cache (./launch.ts): the bundle is
 * compiled with the code V8 compiled for it at an earlier start. The first start that has none, or
 * whose cache V8 refused, writes one once the plugin has printed its port (./main.ts calls
 * ./code-cache-flush.ts), so that it holds every function compiled by then, not only the bundle's top
 * level (esbuild's module bodies are functions, compiled when each module is first required); and
 * again when it ends, on the SIGINT with which the engine ends a plugin (or at an exit), so that the
 * cache also holds what its commands compiled after the port: the HTTP client, the listing, the
 * resources' calls. It then dies of that SIGINT, as it would have. A start that took a cache writes
 * none: the cache holds what that first start compiled (a light first command, a preview, leaves less
 * in it) until the bundle, Node or its flags change. On Windows the engine ends a plugin with
 * CTRL_BREAK_EVENT, which Node dies of with no exit: only the port line's cache is written there.
 *
 * A file per Node version, architecture and V8 flags (`v8.cachedDataVersionTag()`, which V8 checks),
 * `bundle-<version>-<arch>-<tag>.cache`, begins with the SHA-1 of the source it was made for and the
 * SHA-1 of V8's data after them. V8 checks its own version, its flags and the source's length, not the
 * source's text (a rebuilt bundle of the same length would run the old build's code), and not its data
 * (a damaged byte can crash the process or run other code): a file whose digests do not match is not
 * given to V8. It is written to a file of its own, owner-only, and renamed into place, so that a plugin
 * started meanwhile reads a whole cache or none. Any error reading or writing it is passed over in
 * silence, and the plugin compiles the bundle anew.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as nodeModule from "node:module";
import * as path from "node:path";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { onFlushCodeCache } from "./code-cache-flush";

/** Bytes of a SHA-1: the source's, then the data's, at the start of a cache file. */
const DIGEST_BYTES = 20;

const sha1 = (data: string | Buffer) => createHash("sha1").update(data).digest();

/** The cache file of this Node and its flags in `folder`. */
function cacheFileOf(folder: string): string {
  return path.join(folder, `bundle-${process.version}-${process.arch}-${v8.cachedDataVersionTag()}.cache`);
}

/** What {@link runCached} did with the cache: `accepted`, `rejected` (by V8) or `none` (none that matched). */
type CacheUse = "accepted" | "rejected" | "none";

/** V8's data in `held` when it was made for the source of `digest` and is whole; else `undefined`. */
function cachedDataOf(held: Buffer, digest: Buffer): Buffer | undefined {
  if (held.length <= 2 * DIGEST_BYTES || !held.subarray(0, DIGEST_BYTES).equals(digest)) return undefined;
  const data = held.subarray(2 * DIGEST_BYTES);
  return held.subarray(DIGEST_BYTES, 2 * DIGEST_BYTES).equals(sha1(data)) ? data : undefined;
}

/**
 * Runs the CommonJS file `file` as `require` runs a module (its wrapper, called on its `exports`, with
 * a `require` of its folder, the module in require's cache), compiled with the cache in `folder` when
 * there is one for this source; when it had none that V8 took, it writes one at the port line
 * (./code-cache-flush.ts) and again at the end. With `OPSMANAGER_PLUGIN_CODE_CACHE_REPORT=1` it says on stderr which it was, as the
 * single executable does (tools/release/sea-main.js). The bundle may not `import()`: vm.Script has no
 * loader for it here, and tools/bundle-script.js refuses a bundle that does.
 */
export function runCached(file: string, folder: string, parent: NodeJS.Module): void {
  const source = fs.readFileSync(file, "utf8");
  const digest = sha1(source);
  const cacheFile = cacheFileOf(folder);
  let cachedData: Buffer | undefined;
  try {
    cachedData = cachedDataOf(fs.readFileSync(cacheFile), digest);
  } catch {
    // No cache yet, or none readable: compiled anew.
  }
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData });
  const use: CacheUse =
    cachedData === undefined ? "none" : script.cachedDataRejected ? "rejected" : "accepted";
  if (process.env.OPSMANAGER_PLUGIN_CODE_CACHE_REPORT === "1") {
    process.stderr.write(`pulumi-resource-opsmanager: code cache ${use}\n`);
  }
  if (use !== "accepted") {
    const write = () => writeCache(cacheFile, digest, script);
    onFlushCodeCache(write);
    writeAgainAtTheEnd(write);
  }
  const mod = new nodeModule.Module(file, parent);
  const fileRequire = nodeModule.createRequire(file);
  mod.filename = file;
  // The folders require looks in for a package from here.
  mod.paths = fileRequire.resolve.paths("a-package") ?? [];
  require.cache[file] = mod;
  const run = script.runInThisContext() as (this: unknown, ...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, fileRequire, mod, file, path.dirname(file));
  mod.loaded = true;
}

/**
 * Runs `write` once, when the process ends: on SIGINT, after which the process dies of it, as with no
 * listener (the signal raised again once this one listener is gone); or at an exit (a SIGINT that
 * another listener turns into an exit, as the engine bench's bench/lib/host-usage.js does).
 */
function writeAgainAtTheEnd(write: () => void): void {
  let written = false;
  const once = () => {
    if (written) return;
    written = true;
    write();
  };
  process.once("exit", once);
  process.once("SIGINT", () => {
    once();
    process.kill(process.pid, "SIGINT");
  });
}

/** Writes `script`'s cache for the source of `digest`; any failure leaves things as they were. */
function writeCache(cacheFile: string, digest: Buffer, script: vm.Script): void {
  const folder = path.dirname(cacheFile);
  // A name no other write takes, and no file left by a write that died can block (a SIGKILL after the
  // engine's 5 s, a second SIGINT mid-write).
  const partial = `${cacheFile}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let opened: number | undefined;
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    // A package its user cannot write (installed by another): not even the cache's bytes are made.
    fs.accessSync(folder, fs.constants.W_OK);
    const data = script.createCachedData();
    // A new file only (never through a link planted at its name), readable by its owner alone.
    opened = fs.openSync(partial, "wx", 0o600);
    fs.writeFileSync(opened, Buffer.concat([digest, sha1(data), data]));
    fs.closeSync(opened);
    opened = undefined;
    fs.renameSync(partial, cacheFile);
  } catch {
    try {
      if (opened !== undefined) fs.closeSync(opened);
      fs.rmSync(partial, { force: true });
    } catch {
      // Left for nobody to read: only a whole cache is ever renamed into place.
    }
  }
}

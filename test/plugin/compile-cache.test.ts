/**
 * The package's script keeps V8's compiled code between starts (bin/pulumi-resource-opsmanager, by
 * dist/provider/plugin/launch.js), in the package's own `.cache` folder, written once the port is
 * printed (the engine ends a plugin with SIGINT, which leaves Node no exit to write it at): on Node
 * 22.10 and newer, Node's module compile cache; on a Node without one (Node 20), the bundle's own V8
 * code cache (dist/provider/plugin/code-cache.js). The package runs here as a program's node_modules
 * holds it: its script, its launch modules and its bundle, beside the program's `@pulumi/pulumi`.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as nodeModule from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import type * as plugpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Empty, startPlugin, struct } from "../support/plugin";

const provpb = require("@pulumi/pulumi/proto/provider_pb") as typeof provpbTypes;

const ROOT = path.resolve(__dirname, "../..");
// The build's paths of the plugin as one file and of what turns the cache on before it (plain CommonJS).
const { BUNDLE, LAUNCH } = require("../../tools/bundle-script.js") as { BUNDLE: string; LAUNCH: string };
const has = (name: string) => typeof (nodeModule as unknown as Record<string, unknown>)[name] === "function";
/** Whether this Node can keep the cache as the launcher does: it turns it on and writes it (22.10 and newer). */
const HAS_COMPILE_CACHE = has("enableCompileCache") && has("flushCompileCache");
/** Whether this Node has no module compile cache at all, so the launcher keeps the bundle's own (Node 20). */
const BUNDLE_CACHE = !has("enableCompileCache");
/** The built files of the package's script, as the package ships them. */
const SCRIPT_FILES = [
  "bin/pulumi-resource-opsmanager",
  LAUNCH,
  path.join(path.dirname(LAUNCH), "code-cache.js"),
  path.join(path.dirname(LAUNCH), "code-cache-flush.js"),
  BUNDLE,
];
/** The bundle's own cache files, as dist/provider/plugin/code-cache.js names them: Node's version, arch, V8's flags' tag. */
function bundleCacheFiles(): string[] {
  const folder = path.join(pkg, ".cache", "v8-code-cache");
  const names = filesUnder(folder).filter((name) => name.endsWith(".cache"));
  for (const name of names)
    expect(name).toMatch(new RegExp(`^bundle-${process.version}-${process.arch}-\\d+\\.cache$`));
  return names.map((name) => path.join(folder, name));
}
/** The one cache file of the bundle there is. */
function bundleCacheFile(): string {
  const files = bundleCacheFiles();
  expect(files).toHaveLength(1);
  return files[0]!;
}
const sha1 = (data: string | Buffer) => createHash("sha1").update(data).digest();
/** A cache file with `data` for the source of `digest`, its data's digest right. */
const cacheBytes = (digest: Buffer, data: Buffer) => Buffer.concat([digest, sha1(data), data]);
/** What the script says of the bundle's cache with OPSMANAGER_PLUGIN_CODE_CACHE_REPORT=1. */
const REPORT = { OPSMANAGER_PLUGIN_CODE_CACHE_REPORT: "1" };
const reported = (stderr: string) => /code cache (\w+)/.exec(stderr)?.[1];

let program: string;
let pkg: string;
/** What {@link startAsAnotherUser} changed that must be put back before the program's folder is removed. */
let putBack: (() => void) | undefined;

beforeEach(async () => {
  program = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-compile-cache-"));
  pkg = path.join(program, "node_modules", "pulumi-opsmanager");
  for (const file of SCRIPT_FILES) {
    await fsp.mkdir(path.dirname(path.join(pkg, file)), { recursive: true });
    await fsp.copyFile(path.join(ROOT, file), path.join(pkg, file));
  }
  await fsp.symlink(
    path.join(ROOT, "node_modules", "@pulumi"),
    path.join(program, "node_modules", "@pulumi"),
  );
});

afterEach(async () => {
  putBack?.();
  await fsp.rm(program, { recursive: true, force: true });
});

/** Node's compile-cache variables, left out of the plugin's environment (spawn leaves out what is undefined). */
const WITHOUT_CACHE_VARIABLES = {
  NODE_COMPILE_CACHE: undefined,
  NODE_DISABLE_COMPILE_CACHE: undefined,
  NODE_DEBUG_NATIVE: undefined,
  OPSMANAGER_PLUGIN_CODE_CACHE_REPORT: undefined,
} as unknown as Record<string, string>;

/**
 * Starts the package's script with `env`, waits for its port and one call served after it (the cache
 * is written right after the port, so it is on disk by then), then ends it with a signal, as the
 * engine does.
 */
async function startAndEnd(env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  const plugin = await startPlugin({ ...WITHOUT_CACHE_VARIABLES, ...env }, undefined, [
    process.execPath,
    path.join(pkg, "bin", "pulumi-resource-opsmanager"),
  ]);
  const info = await plugin.call<plugpbTypes.PluginInfo>("getPluginInfo", new Empty());
  expect(info.getVersion()).not.toBe("");
  await plugin.close();
  return { stdout: plugin.stdout, stderr: plugin.stderr };
}

/** The files under `dir`, relative to it (none when it is absent). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(dir, f)).isFile(),
  );
}

/**
 * Each entry under `dir`: a file's bytes' SHA-1, its mode and its mtime, a folder's mode. What a start
 * that writes nothing leaves as it was.
 */
function snapshot(dir: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const entry = path.join(dir, name);
    const stat = fs.statSync(entry);
    const mode = (stat.mode & 0o777).toString(8);
    entries.set(
      name,
      stat.isDirectory()
        ? `folder ${mode}`
        : `${sha1(fs.readFileSync(entry)).toString("hex")} ${mode} ${stat.mtimeMs}`,
    );
  }
  return entries;
}

/** `dir` and every entry under it, parents first, not through links (a link itself is listed). */
function entriesOf(dir: string): string[] {
  const entries = [dir];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (fs.lstatSync(entry).isDirectory()) {
      for (const name of fs.readdirSync(entry)) entries.push(path.join(entry, name));
    }
  }
  return entries;
}

/** Folders under `dir` (and it) others may list and enter, its files others may read; none writable by them. */
function readableByOthers(dir: string): void {
  for (const entry of entriesOf(dir)) fs.chmodSync(entry, fs.lstatSync(entry).isDirectory() ? 0o755 : 0o644);
}

/**
 * Starts the package's script with `command`, as `as` when given, calls getPluginInfo, then ends it
 * with SIGINT as the engine does; how it ended and what it printed. The plugin is ended whatever fails.
 */
async function servedThenInterrupted(
  env: Record<string, string>,
  command: readonly [string, ...string[]],
  as?: { uid: number; gid: number },
) {
  const plugin = await startPlugin(env, undefined, command, as);
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  try {
    const info = await plugin.call<plugpbTypes.PluginInfo>("getPluginInfo", new Empty());
    expect(info.getVersion()).not.toBe("");
    ended = await plugin.end("SIGINT");
  } finally {
    if (ended === undefined) await plugin.end("SIGKILL");
  }
  return { ended, stdout: plugin.stdout, stderr: plugin.stderr };
}

/**
 * The modes a shared install gives `dir`, whatever this process's umask: folders and programs 0755,
 * other files 0644. Links are left as they are, and what they lead to (this clone's packages), and so
 * is `kept` (the package's cache, as the plugin wrote it).
 */
function installModes(dir: string, kept: string): void {
  for (const entry of entriesOf(dir)) {
    if (entry === kept || entry.startsWith(kept + path.sep)) continue;
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) continue;
    fs.chmodSync(entry, stat.isDirectory() || stat.mode & 0o100 ? 0o755 : 0o644);
  }
}

/**
 * The program's own copies of the packages the plugin loads from the program (the SDK and its gRPC
 * modules), in place of the link to this clone's: another user may not reach this clone (CI's second
 * run is in a folder of `mktemp -d`, its owner's alone), as it reaches a program's installed packages.
 * They are the packages loaded by the port line and by a getPluginInfo, all that these starts call.
 */
async function ownPackages(): Promise<void> {
  const linked = path.join(program, "node_modules", "@pulumi");
  if (!fs.lstatSync(linked).isSymbolicLink()) return;
  // The owner's start lists the modules it loaded when it ends (the bench's probe does the same).
  const listed = path.join(program, "loaded.json");
  const preload = path.join(program, "list-loaded.js");
  await fsp.writeFile(
    preload,
    `const write = () => require("node:fs").writeFileSync(${JSON.stringify(listed)}, JSON.stringify(Object.keys(require.cache)));
process.once("SIGINT", () => { write(); process.exit(130); });
`,
  );
  const { ended } = await servedThenInterrupted(
    { ...WITHOUT_CACHE_VARIABLES, NODE_DISABLE_COMPILE_CACHE: "1" },
    [process.execPath, "--require", preload, path.join(pkg, "bin", "pulumi-resource-opsmanager")],
  );
  expect(ended.code).toBe(130);
  const modules = path.join(fs.realpathSync(linked), "..");
  const packages = new Set<string>();
  for (const id of JSON.parse(await fsp.readFile(listed, "utf8")) as string[]) {
    const inModules = path.relative(modules, id);
    if (inModules.startsWith("..")) continue;
    const [first, second] = inModules.split(path.sep);
    packages.add(first!.startsWith("@") ? path.join(first!, second!) : first!);
  }
  expect([...packages]).toContain(path.join("@pulumi", "pulumi"));
  await fsp.rm(linked);
  await fsp.rm(listed);
  await fsp.rm(preload);
  for (const name of packages) {
    await fsp.cp(path.join(modules, name), path.join(program, "node_modules", name), { recursive: true });
  }
}

/**
 * This Node, at a path another user may reach: a hard link in the program's folder, or a copy where
 * the temporary folder is another file system.
 */
function nodeOthersCanRun(): string {
  const own = path.join(program, "node");
  if (fs.existsSync(own)) return own;
  try {
    fs.linkSync(process.execPath, own);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    fs.copyFileSync(process.execPath, own);
    fs.chmodSync(own, 0o755);
  }
  return own;
}

/** The user the root branch of {@link startAsAnotherUser} runs the plugin as. */
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * Starts the package's script as a user who did not install the package and cannot write it, calls
 * getPluginInfo, then ends it with SIGINT as the engine does (the cache is written at the port line
 * and again at the end). Its temporary folder, `HOME` and `XDG_CACHE_HOME` are a folder of the
 * program's that anyone may write, which must stay empty: a cache written there instead, or Node's own
 * cache in its default folder under the temporary one, would be shared with every user of the machine.
 *
 * Run by root (as CI runs), as `nobody` (uid 65534), with the program's packages as a shared install
 * leaves them. Run by another user, which is the package's owner here, as that owner with each of the
 * package's files' and folders' owner and group bits set to its bits for others meanwhile: what a user
 * in neither class may do. (Node's own cache keeps a folder per user, by uid: this branch, under the
 * owner's uid, reads the owner's, and a user of another uid makes its own, or cannot.)
 */
async function startAsAnotherUser(
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  const shared = path.join(program, "shared-tmp");
  const sharedEnv = { TMPDIR: shared, TMP: shared, TEMP: shared, HOME: shared, XDG_CACHE_HOME: shared };
  const script = path.join(pkg, "bin", "pulumi-resource-opsmanager");
  const cache = path.join(pkg, ".cache");
  let node = process.execPath;
  let as: typeof NOBODY | undefined;
  if (process.getuid?.() === 0) {
    await ownPackages();
    installModes(program, cache);
    node = nodeOthersCanRun();
    as = NOBODY;
  } else {
    installModes(program, cache);
    const modes = entriesOf(pkg).map((entry) => [entry, fs.statSync(entry).mode & 0o777] as const);
    // Opened again from the top (parents first), before the folder is removed whatever fails.
    putBack = () => {
      for (const [entry, mode] of modes) fs.chmodSync(entry, mode);
      putBack = undefined;
    };
    // Deepest first, so that no folder is closed before what is in it.
    for (const [entry, mode] of [...modes].reverse()) fs.chmodSync(entry, (mode & 0o7) * 0o111);
  }
  // Made after the modes above, which would close it.
  fs.mkdirSync(shared, { recursive: true });
  fs.chmodSync(shared, 0o1777);
  try {
    const { ended, stdout, stderr } = await servedThenInterrupted(
      { ...WITHOUT_CACHE_VARIABLES, ...sharedEnv, ...env },
      [node, script],
      as,
    );
    // Dead of the engine's SIGINT, as ever: what the end writes ran, and failed in silence.
    expect(ended).toEqual({ code: null, signal: "SIGINT" });
    expect(fs.readdirSync(shared, { recursive: true })).toEqual([]);
    return { stdout, stderr };
  } finally {
    putBack?.();
  }
}

// Each Node runs the tests of the cache it has (CI runs Node 20 and Node 22): no test is skipped.
describe("the plugin script's compile cache", () => {
  if (HAS_COMPILE_CACHE)
    it("Node's: the first start writes the compiled code in the package's .cache folder, and the second start takes it", async () => {
      const cacheDir = path.join(pkg, ".cache", "node-compile-cache");
      const first = await startAndEnd();
      expect(first.stdout).toMatch(/^\d+\n$/);
      // One folder per Node version, architecture, V8 cache version and user; a file per module.
      const written = filesUnder(cacheDir);
      expect(written.length).toBeGreaterThan(1);
      expect(written.filter((f) => /\.[A-Za-z0-9]{6}$/.test(f))).toEqual([]);
      const second = await startAndEnd({ NODE_DEBUG_NATIVE: "COMPILE_CACHE" });
      expect(second.stdout).toMatch(/^\d+\n$/);
      const bundle = path.join(pkg, BUNDLE);
      expect(second.stderr).toContain(`${bundle} was accepted`);
      // No module's cache refused, none written again: what the first start wrote is what the second took.
      expect(second.stderr).not.toContain("was rejected");
      expect(second.stderr).not.toContain("Renaming");
      expect(filesUnder(cacheDir).sort()).toEqual(written.sort());
      expect(fs.existsSync(path.join(pkg, ".cache", "v8-code-cache"))).toBe(false);
    });

  if (BUNDLE_CACHE)
    it("the bundle's own, on a Node without Node's: the first start writes it for this bundle's text, and the second start takes it", async () => {
      const first = await startAndEnd(REPORT);
      expect(first.stdout).toMatch(/^\d+\n$/);
      expect(reported(first.stderr)).toBe("none");
      const file = bundleCacheFile();
      const written = await fsp.readFile(file);
      // The SHA-1 of the source it was made for, then that of V8's data, then the data: every function
      // compiled by the port line (some 640 KB; the top level alone is some 115 KB).
      expect(written.subarray(0, 20).equals(sha1(await fsp.readFile(path.join(pkg, BUNDLE), "utf8")))).toBe(
        true,
      );
      expect(written.subarray(20, 40).equals(sha1(written.subarray(40)))).toBe(true);
      expect(written.length).toBeGreaterThan(400_000);
      // Its owner's alone, as the folder it is in.
      expect((await fsp.stat(file)).mode & 0o777).toBe(0o600);
      expect((await fsp.stat(path.dirname(file))).mode & 0o777).toBe(0o700);

      const second = await startAndEnd(REPORT);
      expect(second.stdout).toMatch(/^\d+\n$/);
      expect(reported(second.stderr)).toBe("accepted");
      // Taken, not written again, and nothing else left there.
      expect((await fsp.readFile(file)).equals(written)).toBe(true);
      expect(filesUnder(path.join(pkg, ".cache"))).toEqual([path.join("v8-code-cache", path.basename(file))]);
    });

  /**
   * Starts the package's script (after `preload`, when given), waits for its port-line cache, makes the
   * calls `work` makes, then ends it with SIGINT as the engine does; the cache at the port line and at
   * the end, and how the process ended. The plugin is ended whatever happens.
   */
  async function startWorkAndInterrupt(
    work: (plugin: Awaited<ReturnType<typeof startPlugin>>) => Promise<void>,
    preload?: string,
  ) {
    const plugin = await startPlugin({ ...WITHOUT_CACHE_VARIABLES }, undefined, [
      process.execPath,
      ...(preload === undefined ? [] : ["--require", preload]),
      path.join(pkg, "bin", "pulumi-resource-opsmanager"),
    ]);
    let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    try {
      // Written at the port line: a call served after it finds it on disk.
      await plugin.call("getPluginInfo", new Empty());
      const atPort = await fsp.readFile(bundleCacheFile());
      await work(plugin);
      ended = await plugin.end("SIGINT");
      return { atPort, atEnd: await fsp.readFile(bundleCacheFile()), ended, stderr: plugin.stderr };
    } finally {
      if (ended === undefined) await plugin.end("SIGKILL");
    }
  }

  /** Calls that compile what the port line did not need: a provider's settings checked and taken, a key's inputs checked (no request leaves: the inputs are refused first). */
  async function someCalls(plugin: Awaited<ReturnType<typeof startPlugin>>): Promise<void> {
    const provider = "urn:pulumi:dev::proj::pulumi:providers:opsmanager::default";
    const bad = new provpb.CheckRequest();
    bad.setUrn(provider);
    bad.setNews(struct({ baseUrl: "ftp://om.example.com", publicKey: "pk", privateKey: "sk" }));
    expect((await plugin.call<provpbTypes.CheckResponse>("checkConfig", bad)).getFailuresList()).toHaveLength(
      1,
    );
    const settings = { baseUrl: "http://127.0.0.1:1", publicKey: "pk", privateKey: "sk" };
    await plugin.call(
      "configure",
      new provpb.ConfigureRequest().setUrn(provider).setArgs(struct(settings)).setAcceptsecrets(true),
    );
    const key = new provpb.CheckRequest();
    key.setUrn("urn:pulumi:dev::proj::opsmanager:index:OrgApiKey::ci");
    key.setNews(struct({ orgId: "not an id", desc: "ci" }));
    expect(
      (await plugin.call<provpbTypes.CheckResponse>("check", key)).getFailuresList().length,
    ).toBeGreaterThan(0);
  }

  if (BUNDLE_CACHE)
    it("the bundle's own is written again when the engine's SIGINT ends the plugin, with what its calls compiled, and the plugin still dies of that SIGINT", async () => {
      // Without calls first, for what the end adds by itself.
      const idle = await startWorkAndInterrupt(async () => {});
      expect(idle.ended).toEqual({ code: null, signal: "SIGINT" });
      await fsp.rm(bundleCacheFile());

      const run = await startWorkAndInterrupt(someCalls);
      expect(run.ended).toEqual({ code: null, signal: "SIGINT" });
      expect(run.stderr).toBe("");
      expect(run.atEnd.equals(run.atPort)).toBe(false);
      expect(run.atEnd.length).toBeGreaterThan(run.atPort.length);
      // What the calls compiled is in it: some 40 KB more than a plugin that served none.
      expect(run.atEnd.length).toBeGreaterThan(idle.atEnd.length + 20_000);
      expect(run.atEnd.subarray(0, 20).equals(run.atPort.subarray(0, 20))).toBe(true);
      expect(run.atEnd.subarray(20, 40).equals(sha1(run.atEnd.subarray(40)))).toBe(true);
      const file = bundleCacheFile();
      expect(filesUnder(path.dirname(file))).toEqual([path.basename(file)]);

      // The next start takes it, and, having taken one, writes none, at its port or its end.
      const next = await startPlugin({ ...WITHOUT_CACHE_VARIABLES, ...REPORT }, undefined, [
        process.execPath,
        path.join(pkg, "bin", "pulumi-resource-opsmanager"),
      ]);
      await next.call("getPluginInfo", new Empty());
      expect(await next.end("SIGINT")).toEqual({ code: null, signal: "SIGINT" });
      expect(reported(next.stderr)).toBe("accepted");
      expect((await fsp.readFile(file)).equals(run.atEnd)).toBe(true);
    });

  if (BUNDLE_CACHE)
    it("the bundle's own is written again at an exit too: a SIGINT that another listener, loaded first, turns into an exit", async () => {
      // As the engine bench's bench/lib/host-usage.js does: its listener runs first, and exits.
      const preload = path.join(program, "sigint-exits.js");
      await fsp.writeFile(preload, 'process.once("SIGINT", () => process.exit(130));\n');
      const run = await startWorkAndInterrupt(someCalls, preload);
      expect(run.ended).toEqual({ code: 130, signal: null });
      expect(run.stderr).toBe("");
      expect(run.atEnd.length).toBeGreaterThan(run.atPort.length);
      expect(run.atEnd.subarray(20, 40).equals(sha1(run.atEnd.subarray(40)))).toBe(true);
    });

  if (BUNDLE_CACHE)
    it("a temporary file left by a write that died (its pid's name) blocks no later write of that pid", async () => {
      // What a plugin killed mid-write leaves (a SIGKILL after the engine's 5 s), under the pid the next
      // plugin runs as: a shell makes it under its own pid, then becomes the plugin (exec keeps the pid).
      const folder = path.join(pkg, ".cache", "v8-code-cache");
      await fsp.mkdir(folder, { recursive: true });
      const node = JSON.stringify(process.execPath);
      const tag = `$(${node} -p 'require("v8").cachedDataVersionTag()')`;
      const left = `${folder}/bundle-${process.version}-${process.arch}-${tag}.cache.$$.tmp`;
      const script = `printf 'half a cache' > "${left}" && exec ${node} ${JSON.stringify(path.join(pkg, "bin", "pulumi-resource-opsmanager"))} "$@"`;
      const plugin = await startPlugin({ ...WITHOUT_CACHE_VARIABLES, ...REPORT }, undefined, [
        "/bin/sh",
        "-c",
        script,
        "sh",
      ]);
      try {
        await plugin.call("getPluginInfo", new Empty());
      } finally {
        await plugin.end("SIGINT");
      }
      expect(reported(plugin.stderr)).toBe("none");
      const leftovers = filesUnder(folder).filter((name) => name.endsWith(".tmp"));
      expect(leftovers).toHaveLength(1);
      // Its cache was written all the same, and the next start takes it.
      expect(bundleCacheFiles()).toHaveLength(1);
      expect(reported((await startAndEnd(REPORT)).stderr)).toBe("accepted");
    });

  if (BUNDLE_CACHE)
    it("the bundle's own is kept for each set of V8 flags: other flags make another file, and each is taken after", async () => {
      const plain = await startAndEnd(REPORT);
      expect(reported(plain.stderr)).toBe("none");
      const [first] = bundleCacheFiles();
      const firstBytes = await fsp.readFile(first!);
      const flags = { NODE_OPTIONS: "--max-old-space-size=300" };
      const other = await startAndEnd({ ...REPORT, ...flags });
      expect(other.stdout).toMatch(/^\d+\n$/);
      expect(reported(other.stderr)).toBe("none");
      expect(bundleCacheFiles()).toHaveLength(2);
      expect(reported((await startAndEnd({ ...REPORT, ...flags })).stderr)).toBe("accepted");
      expect(reported((await startAndEnd(REPORT)).stderr)).toBe("accepted");
      expect((await fsp.readFile(first!)).equals(firstBytes)).toBe(true);
    });

  if (BUNDLE_CACHE)
    it("the bundle's own is not used for another build of the bundle, even of the same length, and is made anew for it", async () => {
      await startAndEnd();
      const file = bundleCacheFile();
      const old = await fsp.readFile(file);
      // Another build of the same length: one letter of a comment changed. V8 would take the old cache
      // for it (it checks the length, not the text), so the digest must refuse it.
      const bundle = path.join(pkg, BUNDLE);
      const text = await fsp.readFile(bundle, "utf8");
      const at = text.indexOf("// ");
      expect(at).toBeGreaterThan(-1);
      const rebuilt = `${text.slice(0, at + 3)}${text[at + 3] === "x" ? "y" : "x"}${text.slice(at + 4)}`;
      expect(rebuilt.length).toBe(text.length);
      await fsp.writeFile(bundle, rebuilt);

      const next = await startAndEnd(REPORT);
      expect(next.stdout).toMatch(/^\d+\n$/);
      expect(reported(next.stderr)).toBe("none");
      const made = await fsp.readFile(file);
      expect(made.subarray(0, 20).equals(sha1(rebuilt))).toBe(true);
      expect(made.subarray(0, 20).equals(old.subarray(0, 20))).toBe(false);
    });

  if (BUNDLE_CACHE)
    it("a cache whose data lost a bit is not given to V8 (which would run it): compiled anew and written again", async () => {
      await startAndEnd();
      const file = bundleCacheFile();
      const good = await fsp.readFile(file);
      // One bit of V8's data flipped, in the middle, as a bad disk block would: V8 checks no checksum
      // of its data, and such a cache can crash the process or run other code.
      const damaged = Buffer.from(good);
      const middle = 40 + Math.floor((good.length - 40) / 2);
      damaged[middle] = damaged[middle]! ^ 0x10;
      await fsp.writeFile(file, damaged);

      const next = await startAndEnd(REPORT);
      expect(next.stdout).toMatch(/^\d+\n$/);
      expect(reported(next.stderr)).toBe("none");
      const rewritten = await fsp.readFile(file);
      expect(rewritten.equals(damaged)).toBe(false);
      expect(rewritten.subarray(20, 40).equals(sha1(rewritten.subarray(40)))).toBe(true);
      expect(reported((await startAndEnd(REPORT)).stderr)).toBe("accepted");
    });

  if (BUNDLE_CACHE)
    it("a whole cache that V8 refuses (its own header not V8's) is passed over and written anew; the plugin serves as ever", async () => {
      await startAndEnd();
      const file = bundleCacheFile();
      const good = await fsp.readFile(file);
      // The digests right, V8's data not V8's: V8 checks its own header and refuses it.
      const foreign = cacheBytes(good.subarray(0, 20), Buffer.alloc(good.length - 40, 0x5a));
      await fsp.writeFile(file, foreign);

      const next = await startAndEnd(REPORT);
      expect(next.stdout).toMatch(/^\d+\n$/);
      expect(reported(next.stderr)).toBe("rejected");
      expect((await fsp.readFile(file)).equals(foreign)).toBe(false);
      const after = await startAndEnd(REPORT);
      expect(reported(after.stderr)).toBe("accepted");
    });

  if (!HAS_COMPILE_CACHE && !BUNDLE_CACHE)
    it("Node 22.8 and 22.9 (a compile cache that cannot be written before a signal): the script writes nothing", async () => {
      const { stdout } = await startAndEnd();
      expect(stdout).toMatch(/^\d+\n$/);
      expect(fs.existsSync(path.join(pkg, ".cache"))).toBe(false);
    });

  it("NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing is written", async () => {
    const { stdout } = await startAndEnd({ NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(stdout).toMatch(/^\d+\n$/);
    expect(fs.existsSync(path.join(pkg, ".cache"))).toBe(false);
  });

  it("NODE_COMPILE_CACHE names the folder: the cache goes there, not in the package", async () => {
    const elsewhere = path.join(program, "elsewhere");
    const { stdout } = await startAndEnd({ NODE_COMPILE_CACHE: elsewhere });
    expect(stdout).toMatch(/^\d+\n$/);
    expect(fs.existsSync(path.join(pkg, ".cache"))).toBe(false);
    // Node's own cache goes there; on a Node without one, the user chose Node's cache, and there is none.
    if (HAS_COMPILE_CACHE) expect(filesUnder(elsewhere).length).toBeGreaterThan(1);
    else expect(filesUnder(elsewhere)).toEqual([]);
  });

  it("a package another user installed: the plugin serves and says nothing, writes nothing in the package nor in a folder others share, and on Node 20 takes the cache its owner lets others read", async () => {
    // The owner's first start writes the cache (Node's, or the bundle's own on Node 20).
    expect((await startAndEnd()).stdout).toMatch(/^\d+\n$/);
    const cache = path.join(pkg, ".cache");
    const owners = snapshot(cache);
    expect(owners.size).toBeGreaterThan(0);

    // As the owner left it (the bundle's own cache owner-only; Node's in a folder of the owner's uid).
    const kept = await startAsAnotherUser(REPORT);
    expect(kept.stdout).toMatch(/^\d+\n$/);
    expect(kept.stderr).toBe(BUNDLE_CACHE ? "pulumi-resource-opsmanager: code cache none\n" : "");
    expect(snapshot(cache)).toEqual(owners);

    // Opened to others for reading (an administrator's choice): the bundle's own cache is taken; nothing
    // is written.
    readableByOthers(cache);
    const opened = snapshot(cache);
    const reading = await startAsAnotherUser(REPORT);
    expect(reading.stdout).toMatch(/^\d+\n$/);
    if (BUNDLE_CACHE) expect(reported(reading.stderr)).toBe("accepted");
    else expect(reading.stderr).toBe("");
    expect(snapshot(cache)).toEqual(opened);

    if (BUNDLE_CACHE) {
      // Gone stale (another build of the bundle): compiled anew, and no cache made where it cannot
      // write, at the port line nor at the end.
      const stale = bundleCacheFile();
      const held = await fsp.readFile(stale);
      await fsp.writeFile(stale, Buffer.concat([sha1("another build"), held.subarray(20)]));
      const before = snapshot(cache);
      const anew = await startAsAnotherUser(REPORT);
      expect(anew.stdout).toMatch(/^\d+\n$/);
      expect(anew.stderr).toBe("pulumi-resource-opsmanager: code cache none\n");
      expect(snapshot(cache)).toEqual(before);
    }
  });

  it("a cache folder it cannot make changes nothing: the port alone on stdout, nothing on stderr", async () => {
    // A file where the folder would be: Node cannot make the cache folder, and passes it over.
    await fsp.writeFile(path.join(pkg, ".cache"), "not a folder");
    const { stdout, stderr } = await startAndEnd();
    expect(stdout).toMatch(/^\d+\n$/);
    expect(stderr).toBe("");
    expect(await fsp.readFile(path.join(pkg, ".cache"), "utf8")).toBe("not a folder");
  });
});

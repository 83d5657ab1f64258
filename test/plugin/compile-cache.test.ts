/**
 * The package's script keeps V8's compiled code between starts (bin/pulumi-resource-opsmanager, by
 * dist/provider/plugin/launch.js): on Node 22.10 and newer, Node's module compile cache, in the
 * package's own `.cache` folder, written once the port is printed (the engine ends a plugin with
 * SIGINT, which leaves Node no exit to write it at). The package runs here as a program's node_modules
 * holds it: its script, its launch module and its bundle, beside the program's `@pulumi/pulumi`.
 */
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as nodeModule from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import type * as plugpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Empty, startPlugin } from "../support/plugin";

const ROOT = path.resolve(__dirname, "../..");
// The build's paths of the plugin as one file and of what turns the cache on before it (plain CommonJS).
const { BUNDLE, LAUNCH } = require("../../tools/bundle-script.js") as { BUNDLE: string; LAUNCH: string };
/** Whether this Node can keep the cache as the launcher does: it turns it on and writes it (22.10 and newer). */
const HAS_COMPILE_CACHE = ["enableCompileCache", "flushCompileCache"].every(
  (name) => typeof (nodeModule as unknown as Record<string, unknown>)[name] === "function",
);
/** The built files of the package's script, as the package ships them. */
const SCRIPT_FILES = ["bin/pulumi-resource-opsmanager", LAUNCH, BUNDLE];

let program: string;
let pkg: string;

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
  await fsp.rm(program, { recursive: true, force: true });
});

/** Node's compile-cache variables, left out of the plugin's environment (spawn leaves out what is undefined). */
const WITHOUT_CACHE_VARIABLES = {
  NODE_COMPILE_CACHE: undefined,
  NODE_DISABLE_COMPILE_CACHE: undefined,
  NODE_DEBUG_NATIVE: undefined,
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

describe("the plugin script's compile cache", () => {
  it(
    HAS_COMPILE_CACHE
      ? "the first start writes the compiled code in the package's .cache folder, and the second start takes it"
      : "this Node has no compile cache: the script writes nothing",
    async () => {
      const cacheDir = path.join(pkg, ".cache", "node-compile-cache");
      const first = await startAndEnd();
      expect(first.stdout).toMatch(/^\d+\n$/);
      if (!HAS_COMPILE_CACHE) {
        expect(fs.existsSync(path.join(pkg, ".cache"))).toBe(false);
        return;
      }
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
    },
  );

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
    if (HAS_COMPILE_CACHE) expect(filesUnder(elsewhere).length).toBeGreaterThan(1);
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

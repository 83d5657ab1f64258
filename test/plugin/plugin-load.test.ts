/**
 * What the provider plugin loads before it prints its port: the engine waits for that line, in every
 * `pulumi up` and `pulumi refresh`. The plugin takes the SDK's gRPC stubs, never the SDK's index (the
 * Automation API, the closure serializer and the TypeScript compiler it loads, npm's tree reader),
 * which a program needs and a provider does not. And it reads no package.json of its own: a bundled
 * binary has none beside it, and answers GetPluginInfo with the version built in.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type * as plugpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import { describe, expect, it } from "vitest";
import { Empty, startPlugin } from "../support/plugin";

const ROOT = path.resolve(__dirname, "../..");

/**
 * The modules loaded when the plugin started from `entry` writes its port, as paths relative to the
 * repository.
 */
function loadedAtPort(entry = path.join(ROOT, "dist", "provider", "plugin", "main.js")): string[] {
  // The first write to stdout is the port: the script lists require's cache then, on stderr, and exits.
  const script = `
process.stdout.write = () => {
  process.stderr.write(JSON.stringify(Object.keys(require.cache)));
  process.exit(0);
};
require(${JSON.stringify(entry)});
`;
  const run = spawnSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" });
  expect(run.status).toBe(0);
  return (JSON.parse(run.stderr) as string[]).map((id) => path.relative(ROOT, id));
}

describe("what the plugin loads before it serves", () => {
  it("the SDK's gRPC stubs and the core, not the SDK's index, its Automation API or the TypeScript compiler", () => {
    const loaded = loadedAtPort();
    const sdk = path.join("node_modules", "@pulumi", "pulumi");
    expect(loaded).toContain(path.join(sdk, "proto", "provider_pb.js"));
    expect(loaded).toContain(path.join("dist", "provider", "resources", "methods.js"));
    const heavy = loaded.filter(
      (id) =>
        id === path.join(sdk, "index.js") ||
        id.startsWith(path.join(sdk, "automation")) ||
        id.startsWith(path.join(sdk, "runtime")) ||
        /node_modules[\\/](typescript|@npmcli[\\/]arborist|execa)[\\/]/.test(id),
    );
    expect(heavy).toEqual([]);
  });
});

describe("the package's script (bin/pulumi-resource-opsmanager)", () => {
  it("loads the plugin as one file: from disk only that file and the SDK's modules, none of the package's or its dependencies' files", () => {
    const loaded = loadedAtPort(path.join(ROOT, "bin", "pulumi-resource-opsmanager"));
    const bundle = path.join("dist", "provider", "plugin", "bundle.js");
    expect(loaded).toContain(bundle);
    const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    // What the SDK's folder resolves: its stubs, @grpc/grpc-js and google-protobuf, as sdk.ts loads them.
    const fromSdk = new Set(
      ["@grpc/grpc-js", "google-protobuf"].map((name) =>
        path.relative(ROOT, path.dirname(require.resolve(`${name}/package.json`, { paths: [sdkDir] }))),
      ),
    );
    fromSdk.add(path.relative(ROOT, sdkDir));
    const grpcDeps = path.join("node_modules", "@js-sdsl");
    const others = loaded.filter(
      (id) =>
        id !== bundle &&
        id !== path.join("bin", "pulumi-resource-opsmanager") &&
        // What the script requires first: it turns on Node's compile cache, or compiles the bundle
        // with its own code cache (Node 20), then runs the bundle.
        id !== path.join("dist", "provider", "plugin", "launch.js") &&
        id !== path.join("dist", "provider", "plugin", "code-cache.js") &&
        id !== path.join("dist", "provider", "plugin", "code-cache-flush.js") &&
        id !== "[eval]" &&
        ![...fromSdk].some((dir) => id.startsWith(dir + path.sep)) &&
        !id.startsWith(grpcDeps + path.sep),
    );
    expect(others).toEqual([]);
    // zod, undici, protobufjs and the package's own modules are all in the bundle.
    expect(loaded.some((id) => id.startsWith(path.join("dist", "provider", "resources")))).toBe(false);
  });
});

describe("the plugin's version", () => {
  it("GetPluginInfo answers package.json's version from the plugin's own build, with no package.json beside it", async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    // The built entry and the modules it loads, as a bundle has them: no package.json of the package's.
    const work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-plugin-version-"));
    try {
      await fsp.cp(path.join(ROOT, "dist", "provider"), path.join(work, "dist", "provider"), {
        recursive: true,
      });
      await fsp.symlink(path.join(ROOT, "node_modules"), path.join(work, "node_modules"), "dir");
      const plugin = await startPlugin(
        {},
        ["127.0.0.1:1"],
        [process.execPath, path.join(work, "dist", "provider", "plugin", "main.js")],
      );
      try {
        const info = await plugin.call<plugpbTypes.PluginInfo>("getPluginInfo", new Empty());
        expect(info.getVersion()).toBe(version);
      } finally {
        await plugin.close();
      }
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
  });
});

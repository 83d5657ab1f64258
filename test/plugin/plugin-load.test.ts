/**
 * What the provider plugin loads before it prints its port: the engine waits for that line, in every
 * `pulumi up` and `pulumi refresh`. The plugin takes the SDK's gRPC stubs, never the SDK's index (the
 * Automation API, the closure serializer and the TypeScript compiler it loads, npm's tree reader),
 * which a program needs and a provider does not.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

/** The modules loaded when the plugin writes its port, as paths relative to the repository. */
function loadedAtPort(): string[] {
  // The first write to stdout is the port: the script lists require's cache then, on stderr, and exits.
  const script = `
process.stdout.write = () => {
  process.stderr.write(JSON.stringify(Object.keys(require.cache)));
  process.exit(0);
};
require(${JSON.stringify(path.join(ROOT, "dist", "provider", "plugin", "main.js"))});
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

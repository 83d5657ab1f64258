/**
 * The provider plugin as a user gets it: `npm run plugin:pack`'s tarball, installed by the real
 * `pulumi plugin install resource opsmanager <version> --file <tarball>` into a fresh PULUMI_HOME; the
 * installed executable starts and prints its gRPC port, as the engine expects of a plugin, and serves
 * the committed schema. Before the plugin's entry is built (`dist/provider/plugin/launch.js`), a stand-in
 * that only prints a port takes its place, and the test says so.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { createRequire } from "node:module";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEngine } from "../engine/support/cli";
import { repoRoot } from "../support/program-dir";

const execFileAsync = promisify(execFile);
// The packing script is plain CommonJS, run by npm as a script.
const { pack, BUNDLE, ENTRY } = require("../../tools/plugin-pack.js") as {
  pack(options: { outDir: string; entryFile?: string }): string;
  BUNDLE: string;
  ENTRY: string;
};

const { version, dependencies = {} } = JSON.parse(
  readFileSync(path.join(repoRoot(), "package.json"), "utf8"),
) as { version: string; dependencies?: Record<string, string> };
const built = existsSync(path.join(repoRoot(), ENTRY));

const STAND_IN = `const server = require("node:net").createServer();
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

/** The first line `child` prints, within `ms`. */
function firstLine(child: ChildProcess, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`no line within ${ms} ms; stderr: ${err}`)), ms);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const end = out.indexOf("\n");
      if (end !== -1) {
        clearTimeout(timer);
        resolve(out.slice(0, end));
      }
    });
    child.on("exit", (code) =>
      reject(new Error(`exited with ${code} before printing a port; stderr: ${err}`)),
    );
  });
}

describeEngine("the provider plugin's tarball", (bin) => {
  let work: string;
  let tarball: string;
  let home: string;
  let plugin: ChildProcess | undefined;

  beforeAll(async () => {
    work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-plugin-pack-"));
    let entryFile: string | undefined;
    if (!built) {
      entryFile = path.join(work, "stand-in.js");
      await fsp.writeFile(entryFile, STAND_IN);
    }
    tarball = pack({ outDir: path.join(work, "out"), entryFile });
    home = path.join(work, "pulumi-home");
    const bytes = (await fsp.stat(tarball)).size;
    console.log(
      `${path.basename(tarball)}: ${(bytes / 1024 / 1024).toFixed(1)} MiB${built ? "" : " (stand-in entry)"}`,
    );
  }, 300_000);

  afterAll(async () => {
    plugin?.kill();
    if (work !== undefined) await fsp.rm(work, { recursive: true, force: true });
  });

  it("is named for the version and platform, and holds the launcher, the build, the schema and production modules only", async () => {
    expect(path.basename(tarball)).toMatch(
      new RegExp(
        `^pulumi-resource-opsmanager-v${version.replace(/\./g, "\\.")}-[a-z]+-[a-z0-9]+\\.tar\\.gz$`,
      ),
    );
    const { stdout } = await execFileAsync("tar", ["-tzf", tarball], { maxBuffer: 64 * 1024 * 1024 });
    const entries = new Set(stdout.split("\n").map((e) => e.replace(/^\.\//, "")));
    for (const needed of [
      "pulumi-resource-opsmanager",
      "package.json",
      "provider/plugin/schema.json",
      ENTRY,
      // The plugin as one file, which ENTRY requires (the stand-in requires nothing).
      ...(built ? [BUNDLE] : []),
      "dist/provider/index.js",
      // The package's own dependencies, as package.json lists them.
      ...Object.keys(dependencies).map((name) => `node_modules/${name}/package.json`),
      "node_modules/@pulumi/pulumi/proto/provider_grpc_pb.js",
      "node_modules/@grpc/grpc-js/package.json",
      "node_modules/google-protobuf/package.json",
    ]) {
      expect(entries.has(needed), needed).toBe(true);
    }
    for (const dev of ["vitest", "typescript", "@biomejs/biome", "digest-fetch", "urllib"]) {
      expect(entries.has(`node_modules/${dev}/package.json`), `${dev} is a dev dependency`).toBe(false);
    }
  });

  it(`installs with \`pulumi plugin install resource opsmanager ${version} --file\`, and its executable prints a port${built ? " and serves the schema" : " (a stand-in entry: the plugin is not built here)"}`, async () => {
    const env = { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" };
    await execFileAsync(
      path.join(bin, "pulumi"),
      ["plugin", "install", "resource", "opsmanager", version, "--file", tarball],
      { env, timeout: 300_000 },
    );
    const { stdout } = await execFileAsync(path.join(bin, "pulumi"), ["plugin", "ls", "--json"], { env });
    const listed = JSON.parse(stdout) as { name: string; kind: string; version: string }[];
    expect(listed.map((p) => `${p.kind} ${p.name} ${p.version}`)).toContain(`resource opsmanager ${version}`);

    const executable = path.join(
      home,
      "plugins",
      `resource-opsmanager-v${version}`,
      "pulumi-resource-opsmanager",
    );
    plugin = spawn(executable, ["127.0.0.1:1"], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    const line = await firstLine(plugin, 60_000);
    expect(line).toMatch(/^\d+$/);
    const port = Number(line);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve();
      });
      socket.on("error", reject);
    });

    if (built) {
      // GetSchema over the SDK's own stubs, as the engine asks it.
      const sdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));
      const grpc = sdk("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
      const services = sdk("./proto/provider_grpc_pb") as {
        ResourceProviderClient: new (
          address: string,
          credentials: unknown,
        ) => {
          getSchema(
            request: unknown,
            done: (error: Error | null, response: { getSchema(): string }) => void,
          ): void;
          close(): void;
        };
      };
      const messages = sdk("./proto/provider_pb") as { GetSchemaRequest: new () => unknown };
      const client = new services.ResourceProviderClient(
        `127.0.0.1:${port}`,
        grpc.credentials.createInsecure(),
      );
      try {
        const schema = await new Promise<string>((resolve, reject) =>
          client.getSchema(new messages.GetSchemaRequest(), (error, response) =>
            error ? reject(error) : resolve(response.getSchema()),
          ),
        );
        expect(JSON.parse(schema)).toEqual(
          JSON.parse(readFileSync(path.join(repoRoot(), "provider", "plugin", "schema.json"), "utf8")),
        );
      } finally {
        client.close();
      }
    }
  });
});

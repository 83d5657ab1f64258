/**
 * The release's plugin archives (tools/release/plugin-binaries.js), as `npm run release` wrote them:
 * each archive as the Pulumi CLI unpacks it (the executable, README.md, LICENSE and THIRD-PARTY-NOTICES at its root, their
 * modes and owner); and the linux-amd64 executable run as the
 * engine runs a plugin, on a machine with no Node (hidden in a mount namespace): its port, GetPluginInfo
 * and GetSchema answered from the binary itself, and a Configure, Check and a listing of the org's keys
 * through its own HTTP client. checksums.txt is checked in checksums.test.ts, each darwin executable's
 * signature in platforms.test.ts, and how a user installs the plugin through the CLI in install.test.ts.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { noNodeMissing, withoutNode } from "../support/no-node";
import { type Plugin, plain, provpb, secret, startPlugin, struct } from "../support/plugin";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { RELEASE_BUILD_TIMEOUT_MS, releaseDir } from "../support/release";

const { archiveEntries } = require("../../tools/release/archive") as {
  archiveEntries(
    file: string,
  ): Promise<{ name: string; mode: number; type: string; uid?: number; gid?: number; mtime: Date }[]>;
};

const { NODE_VERSION } = require("../../tools/release/node-binaries") as { NODE_VERSION: string };

const ROOT = repoRoot();
const { version: VERSION, dependencies = {} } = JSON.parse(
  readFileSync(path.join(ROOT, "package.json"), "utf8"),
) as { version: string; dependencies?: Record<string, string> };
const PLATFORMS = ["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm64", "windows-amd64"];
const archive = (platform: string) => `pulumi-resource-opsmanager-v${VERSION}-${platform}.tar.gz`;
const binary = (platform: string) =>
  platform === "windows-amd64" ? "pulumi-resource-opsmanager.exe" : "pulumi-resource-opsmanager";

let dir: string;
let scratch: string;

beforeAll(async () => {
  dir = await releaseDir();
  scratch = mkdtempSync(path.join(tmpdir(), "opsm-release-test-"));
}, RELEASE_BUILD_TIMEOUT_MS);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** `member` of `platform`'s archive, unpacked into a folder of its own; its path. */
function unpack(platform: string, member: string): string {
  const into = path.join(scratch, platform);
  execFileSync("mkdir", ["-p", into]);
  execFileSync("tar", ["-xzf", path.join(dir, archive(platform)), "-C", into, member]);
  return path.join(into, member);
}

describe("the plugin's release archives", () => {
  it.each(PLATFORMS)(
    "%s: the executable, README.md, LICENSE and THIRD-PARTY-NOTICES at the root, the executable 0755, no owner",
    async (platform) => {
      const entries = await archiveEntries(path.join(dir, archive(platform)));
      expect(entries.map((e) => [e.name, e.type, (e.mode & 0o7777).toString(8)])).toEqual([
        ["LICENSE", "File", "644"],
        ["README.md", "File", "644"],
        ["THIRD-PARTY-NOTICES", "File", "644"],
        [binary(platform), "File", "755"],
      ]);
      expect(new Set(entries.map((e) => `${e.uid}:${e.gid}:${e.mtime.getTime()}`)).size).toBe(1);
      expect(entries[0]!.uid ?? 0).toBe(0);
      expect(readFileSync(unpack(platform, "LICENSE"), "utf8")).toBe(
        readFileSync(path.join(ROOT, "LICENSE"), "utf8"),
      );
    },
  );

  it.each(PLATFORMS)(
    "%s: the executable names no folder of the machine that built it (the same bytes wherever the checkout is)",
    (platform) => {
      const exe = readFileSync(unpack(platform, binary(platform)));
      // The SEA config's main script, the build's work folder and the checkout itself.
      for (const built of ["/tools/release/sea-main.js", "opsm-plugin-binaries-", ROOT]) {
        expect(exe.indexOf(built), `${platform}'s executable holds ${built}`).toBe(-1);
      }
    },
  );

  it("THIRD-PARTY-NOTICES carries Node.js's licence and that of each npm package in the executable", async () => {
    const notices = readFileSync(unpack("linux-amd64", "THIRD-PARTY-NOTICES"), "utf8");
    expect(notices).toContain(`Node.js ${NODE_VERSION}`);
    // Node's own LICENSE opens with its copyright line and goes on with what its binary carries.
    expect(notices).toMatch(/Node\.js is licensed for use as follows:/);
    expect(notices).toMatch(/The externally maintained libraries used by Node\.js are:/);
    // What the executable runs of npm's packages: the gRPC server, the SDK's stubs, and our own dependencies.
    for (const name of ["@grpc/grpc-js", "google-protobuf", "@pulumi/pulumi", ...Object.keys(dependencies)]) {
      expect(notices, name).toMatch(
        new RegExp(`^${name.replace(/[.]/g, "\\.")} \\d+\\.\\d+\\.\\d+ \\(`, "m"),
      );
    }
    expect(notices).not.toContain("carries no licence file");
  });
});

describeNeeding("the linux-amd64 executable on a machine without Node", noNodeMissing(), () => {
  let sim: Simulator;
  let plugin: Plugin;
  let exe: string;

  beforeAll(async () => {
    exe = unpack("linux-amd64", binary("linux-amd64"));
    sim = await startSimulator({ seed: { keys: 2 } });
    // Started from a folder with no node_modules anywhere above it, the report of its code cache asked.
    plugin = await startPlugin(
      { OPSMANAGER_PLUGIN_CODE_CACHE_REPORT: "1" },
      ["127.0.0.1:1"],
      withoutNode([exe]),
    );
  }, 60_000);

  afterAll(async () => {
    await plugin?.close();
    await sim?.close();
  });

  it("no node runs where it runs", () => {
    const [command, ...args] = withoutNode(["node", "--version"]);
    expect(() => execFileSync(command, args, { stdio: "pipe" })).toThrow();
  });

  it("prints its port, and loads its bundle with the code cache made for it", () => {
    expect(plugin.port).toBeGreaterThan(0);
    expect(plugin.stderr).toContain("pulumi-resource-opsmanager: code cache accepted");
  });

  it("GetPluginInfo answers package.json's version", async () => {
    const { Empty } = require("google-protobuf/google/protobuf/empty_pb");
    const info = await plugin.call<{ getVersion(): string }>("getPluginInfo", new Empty());
    expect(info.getVersion()).toBe(VERSION);
  });

  it("GetSchema answers provider/plugin/schema.json as it was built", async () => {
    const res = await plugin.call<provpbTypes.GetSchemaResponse>("getSchema", new provpb.GetSchemaRequest());
    expect(res.getSchema()).toBe(readFileSync(path.join(ROOT, "provider", "plugin", "schema.json"), "utf8"));
  });

  it("Configure, Check, and a listing of the org's keys sent with its own HTTP client", async () => {
    const configure = new provpb.ConfigureRequest()
      .setArgs(struct({ baseUrl: sim.url, publicKey: sim.publicKey, privateKey: secret(sim.privateKey) }))
      .setAcceptsecrets(true);
    await plugin.call<provpbTypes.ConfigureResponse>("configure", configure);
    const check = new provpb.CheckRequest()
      .setUrn("urn:pulumi:dev::proj::opsmanager:index:OrgApiKey::ci")
      .setOlds(struct({}))
      .setNews(struct({ orgId: sim.orgId, desc: "ci", roles: ["ORG_MEMBER"] }));
    const checked = await plugin.call<provpbTypes.CheckResponse>("check", check);
    expect(checked.getFailuresList()).toEqual([]);
    expect(plain(checked.getInputs())).toMatchObject({ orgId: sim.orgId, desc: "ci", roles: ["ORG_MEMBER"] });

    sim.resetRequests();
    const invoke = new provpb.InvokeRequest()
      .setTok("opsmanager:index:getOrgApiKeys")
      .setArgs(struct({ orgId: sim.orgId }));
    const listed = plain((await plugin.call<provpbTypes.InvokeResponse>("invoke", invoke)).getReturn());
    expect((listed.keys as { id: string }[]).map((k) => k.id).sort()).toEqual(
      sim.state
        .apiKeys(sim.orgId)
        .map((k) => k.id)
        .sort(),
    );
    const authenticated = sim.requests.filter((r) => r.authenticated);
    expect(authenticated.length).toBeGreaterThan(0);
    expect(authenticated.map((r) => r.headers?.["user-agent"])).toEqual(
      authenticated.map(() => `pulumi-opsmanager/${VERSION}`),
    );
    expect(plugin.stderr).not.toContain(sim.privateKey);
  });
});

/**
 * pnpm, with this package as a transitive dependency: a program depends on a component package, which
 * depends on pulumi-opsmanager (the tarball `npm pack` makes). pnpm links only the program's own
 * dependencies into its node_modules, and Pulumi's dynamic-provider host resolves a serialized
 * provider's `require` from the program's directory, so the provider must reach the package another
 * way. A real pnpm install, then the host the program's SDK runs, as the engine starts it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Host, type HostCallError, KEY_TYPE, NO_ENV, startHost, urn } from "../support/host";
import { describeNeeding } from "../support/prerequisite";
import { makeProgramDir, type ProgramDir, packRepo, repoRoot } from "../support/program-dir";
import { registryUnreachable } from "../support/registry";

const execFileAsync = promisify(execFile);

// The pnpm this test installs (from the npm registry, as `npm i -g pnpm` would); pinned so that its
// defaults (hoisting, build scripts) do not move under the test.
const PNPM_VERSION = "12.21.0";
const KEY_URN = urn(KEY_TYPE, "key");
// npm installs pnpm, and pnpm the program, from the npm registry: without it, skip and say so (any
// other failure of either install fails the suite).
const offline = registryUnreachable(`pnpm@${PNPM_VERSION}`);

let dir: string;
let program: string;
let sim: Simulator;
let keyText: string;
const hosts: Host[] = [];
let noPackage: ProgramDir | undefined;

function sdkVersion(): string {
  const manifest = path.join(repoRoot(), "node_modules", "@pulumi", "pulumi", "package.json");
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function newHost(cwd: string): Promise<Host> {
  const host = await startHost({ cwd, env: { ...NO_ENV } });
  hosts.push(host);
  await host.configure({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": sim.privateKey,
  });
  return host;
}

beforeAll(async () => {
  if (offline) return;
  const tarball = await packRepo();
  sim = await startSimulator({ seed: { keys: 5 } });
  keyText = require("../../dist/provider/resources/shared/providers.js").ORG_API_KEY_PROVIDER;

  dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-pnpm-"));
  // Its own package.json, so that npm installs pnpm here and not into a project above.
  writeJson(path.join(dir, "package.json"), { name: "pnpm-tool", private: true });
  await execFileAsync(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", `pnpm@${PNPM_VERSION}`],
    { cwd: dir },
  );
  writeJson(path.join(dir, "component", "package.json"), {
    name: "om-component",
    version: "1.0.0",
    main: "index.js",
    dependencies: { "pulumi-opsmanager": `file:${tarball}` },
    peerDependencies: { "@pulumi/pulumi": "*" },
  });
  fs.writeFileSync(
    path.join(dir, "component", "index.js"),
    'const { OrgApiKey } = require("pulumi-opsmanager");\nexports.ciKey = (name, args) => new OrgApiKey(name, args);\n',
  );
  program = path.join(dir, "program");
  writeJson(path.join(program, "package.json"), {
    name: "pnpm-program",
    private: true,
    dependencies: { "om-component": "file:../component", "@pulumi/pulumi": sdkVersion() },
  });
  // npm's shim for pnpm's bin, whether that is a script or pnpm's native binary.
  const pnpm = path.join(dir, "node_modules", ".bin", "pnpm");
  // The SDK's dependencies have install scripts that a program needs not run here.
  await execFileAsync(pnpm, ["install", "--prefer-offline", "--config.strict-dep-builds=false"], {
    cwd: program,
    maxBuffer: 64 * 1024 * 1024,
  });
}, 300_000);

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await noPackage?.cleanup();
  await sim?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describeNeeding(
  "pnpm, with pulumi-opsmanager a dependency of a package the program depends on",
  offline && `the npm registry (${offline})`,
  () => {
    it("installs the package only inside pnpm's store, out of the program's node_modules", () => {
      expect(fs.existsSync(path.join(program, "node_modules", "pulumi-opsmanager"))).toBe(false);
      const store = fs.readdirSync(path.join(program, "node_modules", ".pnpm"));
      expect(store.some((name) => name.startsWith("pulumi-opsmanager@"))).toBe(true);
    });

    it("the provider host the program's SDK runs finds the package, and adopts, reads and releases a key", async () => {
      const host = await newHost(program);
      const target = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
      sim.resetRequests();
      const inputs = {
        orgId: sim.orgId,
        publicKey: target.publicKey,
        desc: "adopted through pnpm",
        __provider: keyText,
      };
      const checked = await host.check(KEY_URN, {}, inputs);
      expect(checked.failures).toEqual([]);
      const created = await host.create(KEY_URN, checked.inputs);
      expect(created.id).toBe(target.id);
      expect(sim.requests.filter((q) => q.method === "PATCH").map((q) => q.body)).toEqual([
        { desc: "adopted through pnpm" },
      ]);
      const read = await host.read(created.id, KEY_URN, created.properties);
      expect(read.properties).toMatchObject({ apiKeyId: target.id, desc: "adopted through pnpm" });
      await host.delete(created.id, KEY_URN, created.properties);
      expect(host.stderr).not.toContain("Cannot find module");
    });

    it("where the package cannot be found at all, the error names the program's directory and what to do", async () => {
      noPackage = await makeProgramDir({ packRepo: false });
      const host = await newHost(noPackage.dir);
      sim.resetRequests();
      const error = await host
        .check(KEY_URN, {}, { orgId: sim.orgId, publicKey: "abcdefgh", __provider: keyText })
        .then(() => undefined)
        .catch((e: HostCallError) => e);
      expect(error?.message).toContain(`the program's directory ${fs.realpathSync(noPackage.dir)}`);
      expect(error?.message).toContain("Cannot find module 'pulumi-opsmanager/host'");
      expect(error?.message).toContain("Add it to the dependencies of the program's own package.json");
      expect(sim.requests).toEqual([]);
    });
  },
);

/**
 * The package on the oldest `@pulumi/pulumi` its peer dependency allows: the program's SDK serializes
 * the provider and its dynamic-provider host runs it, as for a user pinned to that version. What is
 * pinned here is what a preview after `pulumi refresh` can show: `read` returns the inputs that make
 * drift appear as "server value → declared value", and only hosts from SDK 3.216 forward them
 * (pulumi/pulumi#21315).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Host, KEY_TYPE, NO_ENV, startHost, urn } from "../support/host";
import { describeNeeding } from "../support/prerequisite";
import { makeProgramDir, PACKAGE_NAME, type ProgramDir } from "../support/program-dir";
import { registryUnreachable } from "../support/registry";
import { installedSdk, sdkFloorVersion, sdkInstalled } from "../support/sdk-floor";

const execFileAsync = promisify(execFile);
const FLOOR = sdkFloorVersion();
const PRIVATE_KEY = "6f1d2c3b-flor-4e5f-a6b7-RECOGNIZABLE03";
const KEY_URN = urn(KEY_TYPE, "key");
// The first run installs the SDK from the npm registry: without the registry, skip and say so.
const offline = sdkInstalled(FLOOR) ? undefined : registryUnreachable(`@pulumi/pulumi@${FLOOR}`);

let sim: Simulator;
let program: ProgramDir;
let keyText: string;
const hosts: Host[] = [];

/** Serializes OrgApiKey's provider in the program directory, with the program's own SDK. */
async function serializeInProgram(dir: string): Promise<string> {
  const script = path.join(dir, "serialize-provider.js");
  await fsp.writeFile(
    script,
    [
      // The module OrgApiKey takes its provider text from, as installed (the exports map hides it by name).
      `const { ORG_API_KEY_PROVIDER } = require("./node_modules/${PACKAGE_NAME}/dist/provider/resources/shared/providers.js");`,
      "process.stdout.write(ORG_API_KEY_PROVIDER);",
      "",
    ].join("\n"),
  );
  const { stdout } = await execFileAsync(process.execPath, [script], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

async function newHost(): Promise<Host> {
  // A start is about a second; CI once saw this SDK's take over 30 s on a loaded machine.
  const host = await startHost({ cwd: program.dir, env: { ...NO_ENV }, startTimeoutMs: 120_000 });
  hosts.push(host);
  await host.configure({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });
  return host;
}

beforeAll(async () => {
  if (offline) return;
  // The first run downloads the SDK from the npm registry; later runs reuse it.
  const sdk = await installedSdk(FLOOR);
  program = await makeProgramDir({ linked: { "@pulumi/pulumi": sdk } });
  const linked = path.join(program.dir, "node_modules", "@pulumi", "pulumi", "package.json");
  const version = (JSON.parse(readFileSync(linked, "utf8")) as { version: string }).version;
  if (version !== FLOOR) throw new Error(`the program runs @pulumi/pulumi ${version}, not ${FLOOR}`);
  keyText = await serializeInProgram(program.dir);
  sim = await startSimulator({ seed: { keys: 5, privateKey: PRIVATE_KEY } });
}, 300_000);

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  for (const h of hosts) expect(h.stdout + h.stderr).not.toContain(PRIVATE_KEY);
  await program?.cleanup();
  await sim?.close();
});

describeNeeding(
  `on @pulumi/pulumi ${FLOOR}, the oldest SDK the package allows`,
  offline && `@pulumi/pulumi@${FLOOR} in .sdk-floor/, or the npm registry to install it (${offline})`,
  () => {
    it("a refresh hands the engine the inputs read returns, so the next preview shows drift back to the declared value", async () => {
      const k = sim.state.apiKeys().find((key) => key.publicKey !== sim.publicKey)!;
      const declared = { orgId: sim.orgId, apiKeyId: k.id, desc: "declared", roles: ["ORG_MEMBER"] };
      const created = await (await newHost()).create(KEY_URN, { ...declared, __provider: keyText });
      expect(created.properties).toMatchObject({ desc: "declared", roles: ["ORG_MEMBER"] });

      sim.state.updateApiKey(k.id, {
        desc: "changed by hand",
        roles: [{ orgId: sim.orgId, roleName: "ORG_OWNER" }],
      });
      // `pulumi refresh` runs in a new host process.
      const refresh = await newHost();
      const read = await refresh.read(k.id, KEY_URN, created.properties);
      expect(read.properties).toMatchObject({ desc: "changed by hand", roles: ["ORG_OWNER"] });
      expect(read.inputs).toEqual({
        __provider: keyText,
        orgId: sim.orgId,
        apiKeyId: k.id,
        desc: "changed by hand",
        roles: ["ORG_OWNER"],
      });

      // The engine keeps those inputs as the old ones: the preview's update goes from them to the program's.
      const diff = await refresh.diff(k.id, KEY_URN, read.properties, { ...declared, __provider: keyText });
      expect(diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
      // Two host starts, each allowed 120 s: the test's own limit is above both.
    }, 300_000);
  },
);

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { makeProgramDir, type ProgramDir } from "../support/program-dir";

// Needs the Pulumi CLI, which the Automation API drives. Without it these tests are skipped, and say so.
const hasPulumi = spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
if (!hasPulumi) {
  console.warn(
    "test/e2e/automation.test.ts: skipped, no `pulumi` on PATH (https://www.pulumi.com/docs/install/)",
  );
}

const req = createRequire(__filename);
const PRIVATE_KEY = "9c0ffee0-e2e0-4bad-8d00-RECOGNIZABLE02";

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const { OrgApiKey, LogCollectionJob } = require("pulumi-opsmanager");
const config = new pulumi.Config("e2e");
const key = new OrgApiKey("key", {
  orgId: config.require("orgId"),
  publicKey: config.require("publicKey"),
  desc: config.require("desc"),
  roles: ["ORG_READ_ONLY", "ORG_MEMBER"],
});
const job = new LogCollectionJob("job", {
  groupId: config.require("groupId"),
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 1000000,
  logTypes: ["DATABASE"],
  redacted: true,
});
exports.desc = key.desc;
exports.jobId = job.jobId;
`;

describe.skipIf(!hasPulumi)("Automation API end to end on a local file backend", () => {
  let sim: Simulator;
  let program: ProgramDir;
  let stateDir: string;
  // biome-ignore lint/suspicious/noExplicitAny: the automation types are loaded at run time
  let stack: any;

  beforeAll(async () => {
    sim = await startSimulator({ seed: { keys: 5, privateKey: PRIVATE_KEY } });
    program = await makeProgramDir();
    fs.writeFileSync(path.join(program.dir, "index.js"), PROGRAM);
    fs.writeFileSync(path.join(program.dir, "Pulumi.yaml"), "name: e2e\nruntime: nodejs\nmain: index.js\n");
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-e2e-state-"));
    const { LocalWorkspace } = req("@pulumi/pulumi/automation");
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "e2e", workDir: program.dir },
      {
        envVars: {
          PULUMI_BACKEND_URL: `file://${stateDir}`,
          PULUMI_CONFIG_PASSPHRASE: "",
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
      },
    );
    const target = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
    await stack.setAllConfig({
      "opsmanager:baseUrl": { value: sim.url },
      "opsmanager:publicKey": { value: sim.publicKey },
      "opsmanager:privateKey": { value: PRIVATE_KEY, secret: true },
      "e2e:orgId": { value: sim.orgId },
      "e2e:groupId": { value: sim.groupId },
      "e2e:publicKey": { value: target.publicKey },
      "e2e:desc": { value: "first" },
    });
  }, 300_000);

  afterAll(async () => {
    await sim?.close();
    await program?.cleanup();
    if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it("up creates both, a second preview shows no change, and no credential reaches state", async () => {
    const up = await stack.up();
    expect(up.outputs.desc.value).toBe("first");
    expect(up.outputs.jobId.value).toMatch(/^[0-9a-f]{24}$/);
    const preview = await stack.preview();
    expect(preview.changeSummary.update ?? 0).toBe(0);
    const state = JSON.stringify(await stack.exportStack());
    expect(state).not.toContain(PRIVATE_KEY);
  }, 300_000);

  it("a new desc previews as an update and applies with one PATCH", async () => {
    await stack.setConfig("e2e:desc", { value: "second" });
    const preview = await stack.preview();
    expect(preview.changeSummary.update).toBe(1);
    sim.resetRequests();
    await stack.up();
    expect(sim.requests.filter((r) => r.method === "PATCH" && r.status === 200).map((r) => r.body)).toEqual([
      { desc: "second" },
    ]);
  }, 300_000);

  it("refresh shows drift made outside Pulumi", async () => {
    const key = sim.state.apiKeys().find((k) => k.desc === "second")!;
    sim.state.updateApiKey(key.id, { desc: "changed by hand" });
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges?.update).toBe(1);
    const out = await stack.outputs();
    expect(out.desc.value).toBe("changed by hand");
  }, 300_000);

  it("destroy releases the key and the job from the stack", async () => {
    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    await stack.workspace.removeStack("e2e");
  }, 300_000);
});

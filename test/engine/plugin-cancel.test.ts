/**
 * The provider plugin under the real engine, while the server holds a key's create: one Ctrl-C (the
 * engine's Cancel) and a create's `customTimeouts` each end the command within a few seconds, the key
 * the held POST makes later is recorded as a pending create, and the next `up` leaves exactly one key.
 */
import { expect, it, type TestContext } from "vitest";
import type { Simulator } from "../../simulator/types";
import { describeEngine } from "./support/cli";
import { pluginProject } from "./support/plugin-project";
import type { EngineStack, RunResult } from "./support/stack";
import { openWorld } from "./support/world";

const DESC = "held by the server";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { OrgApiKey } from "./opsmanager";

const config = new pulumi.Config();
const timeout = config.get("createTimeout");
const key = new OrgApiKey(
  "held",
  { orgId: config.require("orgId"), desc: ${JSON.stringify(DESC)}, roles: ["ORG_MEMBER"] },
  timeout === undefined ? {} : { customTimeouts: { create: timeout } },
);
export const apiKeyId = key.apiKeyId;
`;

/** Seconds, to one decimal, for a message. */
const seconds = (ms: number) => (ms / 1000).toFixed(1);

describeEngine("test/engine/plugin-cancel: Cancel and customTimeouts through the plugin", (bin) => {
  /** A stack of PROGRAM whose key POSTs the simulator holds until `release` is called. */
  async function heldCreate(onTestFinished: TestContext["onTestFinished"]) {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: pluginProject(PROGRAM) });
    await stack.pulumi(["config", "set", "orgId", sim.orgId]);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    onTestFinished(() => release());
    sim.faults.add({ method: "POST", pathPrefix: `/orgs/${sim.orgId}/apiKeys`, holdUntil: held });
    return { stack, sim, release };
  }

  /** The keys this program made or may have made: its desc, with or without a create's mark. */
  const ours = (sim: Simulator) => sim.state.apiKeys().filter((k) => (k.desc ?? "").startsWith(DESC));

  /** `pulumi up`, timed from its start and from the moment the server received the key's POST. */
  async function timedUp(
    s: EngineStack,
    sim: Simulator,
    onPost?: (child: import("node:child_process").ChildProcess) => void,
  ): Promise<{ up: RunResult; fromStartMs: number; fromPostMs: number }> {
    const started = Date.now();
    let posted = 0;
    const up = await s.pulumi(["up", "--yes", "--skip-preview"], {
      allowFailure: true,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (!sim.requests.some((r) => r.method === "POST" && r.path.endsWith("/apiKeys"))) return;
          clearInterval(poll);
          posted = Date.now();
          onPost?.(child);
        }, 10);
        child.on("close", () => clearInterval(poll));
      },
    });
    const ended = Date.now();
    expect(posted, "the server received the key's POST").toBeGreaterThan(0);
    return { up, fromStartMs: ended - started, fromPostMs: ended - posted };
  }

  /** The held POST released, the key it makes is the pending create's: the next up leaves one key, destroy none. */
  async function settledByNextUp(s: EngineStack, sim: Simulator, release: () => void) {
    const state = await s.exportState();
    const recorded = state.deployment.resources?.find((r) => r.type === "opsmanager:index:OrgApiKey");
    expect(recorded?.id).toMatch(/^pending-create-[0-9a-f]{16}$/);
    expect(recorded?.outputs?.pendingCreate).toMatchObject({ desc: expect.stringContaining(DESC) });
    // The server acts on the POST it received (a fact awaited, not a delay).
    release();
    await expect.poll(() => ours(sim).length, { timeout: 20_000, interval: 50 }).toBe(1);
    expect(ours(sim)[0]?.desc).toMatch(/ \[pulumi create [0-9a-f]{16}\]$/);

    await s.pulumi(["up", "--yes", "--skip-preview"]);
    expect(ours(sim).map((k) => k.desc)).toEqual([DESC]);
    const made = (await s.pulumi(["stack", "output", "apiKeyId"])).stdout.trim();
    expect(ours(sim)[0]?.id).toBe(made);
    await s.pulumi(["preview", "--expect-no-changes"]);
    await s.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(ours(sim)).toEqual([]);
  }

  it("one Ctrl-C during a create the server holds ends the CLI within seconds; the create is recorded as pending, the next up leaves one key", async ({
    onTestFinished,
  }) => {
    const { stack: s, sim, release } = await heldCreate(onTestFinished);
    const { up, fromPostMs } = await timedUp(s, sim, (child) => process.kill(-child.pid!, "SIGINT"));
    console.log(`plugin-cancel: Ctrl-C to the CLI's end: ${seconds(fromPostMs)} s`);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain("^C received; cancelling");
    expect(up.stdout).toMatch(
      /POST \/orgs\/[0-9a-f]{24}\/apiKeys was abandoned before its answer came: the operation was cancelled \(Ctrl-C/,
    );
    expect(up.stdout).toContain("The stack records this create");
    expect(fromPostMs).toBeLessThan(15_000);
    await settledByNextUp(s, sim, release);
  });

  it('customTimeouts { create: "5s" } on a create the server holds fails within seconds, naming the timeout; the next up leaves one key', async ({
    onTestFinished,
  }) => {
    const { stack: s, sim, release } = await heldCreate(onTestFinished);
    await s.pulumi(["config", "set", "createTimeout", "5s"]);
    const { up, fromStartMs, fromPostMs } = await timedUp(s, sim);
    console.log(
      `plugin-cancel: customTimeouts create 5s: ${seconds(fromStartMs)} s from the start of up to its failure, ${seconds(fromPostMs)} s from the POST`,
    );
    expect(up.code).not.toBe(0);
    expect(up.stdout).toMatch(
      /POST \/orgs\/[0-9a-f]{24}\/apiKeys was abandoned before its answer came: the create's timeout of 5 s \(customTimeouts\.create\) passed/,
    );
    expect(up.stdout).toContain("The stack records this create");
    expect(fromPostMs).toBeLessThan(15_000);
    await settledByNextUp(s, sim, release);
  });
});

/**
 * An interrupted `pulumi up` (Ctrl-C while creates are in flight, sent to the whole process group as a
 * terminal sends it), under the real engine: what it leaves, and what the next commands do with it.
 * Both faces: examples/incident-logs on the dynamic types, and the same program on the generated
 * Node.js SDK through the plugin, whose Cancel lets a job's POST in flight finish.
 */
import { expect, it, type TestContext } from "vitest";
import type { Simulator } from "../../simulator/types";
import { describeNeeding } from "../support/prerequisite";
import { type CliBin, describeEngine } from "./support/cli";
import { installNodeSdk, nodeSdkMissing } from "./support/node-sdk";
import type { EngineStack, ProjectOptions, RunResult } from "./support/stack";
import { openWorld } from "./support/world";

const REPLICA_SETS = ["rs0", "rs1", "rs2", "rs3"];

/** How a face's stack is made, and the type its jobs are recorded under. */
interface Face {
  project: ProjectOptions;
  jobType: string;
  prepare(stack: EngineStack): Promise<void>;
}

const DYNAMIC: Face = {
  project: { example: "incident-logs" },
  jobType: "pulumi-nodejs:dynamic/opsmanager:LogCollectionJob",
  prepare: async () => {},
};

// examples/incident-logs on the SDK: its Pulumi.yaml's config, and the plugin from the package's bin.
const SDK_PROJECT_YAML = `name: incident-logs
runtime: nodejs
config:
  groupId:
    type: string
    default: 5f0000000000000000000002
  replicaSets:
    type: array
    items:
      type: string
    default: ["rs0"]
plugins:
  providers:
    - name: opsmanager
      path: ./node_modules/pulumi-opsmanager/bin
`;

const SDK_PROGRAM = `const pulumi = require("@pulumi/pulumi");
const opsmanager = require("@pulumi-opsmanager/sdk");

const config = new pulumi.Config();
const groupId = config.require("groupId");
exports.jobIds = config.requireObject("replicaSets").map(
  (name) =>
    new opsmanager.LogCollectionJob(\`logs-\${name}\`, {
      groupId,
      resourceType: "REPLICASET",
      resourceName: name,
      sizeRequestedPerFileBytes: 50000000,
      logTypes: ["MONGODB", "FTDC", "AUTOMATION_AGENT"],
      redacted: true,
    }).jobId,
);
`;

const PLUGIN: Face = {
  project: {
    files: {
      "Pulumi.yaml": SDK_PROJECT_YAML,
      "package.json": '{ "name": "incident-logs", "main": "index.js" }\n',
      "index.js": SDK_PROGRAM,
    },
  },
  jobType: "opsmanager:index:LogCollectionJob",
  prepare: (stack) => installNodeSdk(stack.dir),
};

describeEngine("test/engine/interrupt: Ctrl-C during pulumi up, dynamic face", (bin) => {
  interruptTests(bin, DYNAMIC);
});

describeEngine(
  "test/engine/interrupt: Ctrl-C during pulumi up, through the plugin and its Node.js SDK",
  (bin) => {
    describeNeeding("on the generated Node.js SDK", nodeSdkMissing(), () => interruptTests(bin, PLUGIN));
  },
);

function interruptTests(bin: CliBin, face: Face): void {
  const JOB_TYPE = face.jobType;
  /**
   * incident-logs with four jobs, whose POSTs the server holds for `hold` (a time in ms, or until a
   * promise settles) before it acts; with `firstAnswered`, the first POST is answered at once. A new
   * host sends the first job's POST alone (it learns which name of the database log the server takes),
   * and the other three once it is answered.
   */
  async function fourJobsHeld(
    onTestFinished: TestContext["onTestFinished"],
    hold: number | PromiseLike<unknown>,
    firstAnswered = false,
  ): Promise<{ stack: EngineStack; sim: Simulator }> {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: face.project });
    await face.prepare(stack);
    for (const [i, name] of REPLICA_SETS.entries()) {
      await stack.config(`incident-logs:replicaSets[${i}]`, name, { path: true });
    }
    const pathPrefix = `/groups/${sim.groupId}/logCollectionJobs`;
    if (firstAnswered) sim.faults.add({ method: "POST", pathPrefix, delayMs: 0, times: 1 });
    sim.faults.add({
      method: "POST",
      pathPrefix,
      ...(typeof hold === "number" ? { delayMs: hold } : { holdUntil: hold }),
      times: firstAnswered ? 3 : 4,
    });
    return { stack, sim };
  }

  /** `pulumi up`, with `presses` Ctrl-Cs to its process group once the server has received all four POSTs. */
  function upInterrupted(s: EngineStack, server: Simulator, presses: 1 | 2): Promise<RunResult> {
    const received = () => server.requests.filter((r) => r.method === "POST").length;
    return s.pulumi(["up", "--yes"], {
      allowFailure: true,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (received() < 4) return;
          clearInterval(poll);
          process.kill(-child.pid!, "SIGINT");
          // The second press once the CLI has said it is cancelling.
          if (presses === 2) {
            let seen = "";
            const onData = (chunk: Buffer) => {
              seen += String(chunk);
              if (!seen.includes("received; cancelling")) return;
              child.stdout?.off("data", onData);
              process.kill(-child.pid!, "SIGINT");
            };
            child.stdout?.on("data", onData);
          }
        }, 10);
        child.on("close", () => clearInterval(poll));
      },
    });
  }

  it("one Ctrl-C: the creates in flight finish and are recorded; the next up and refresh change nothing", async ({
    onTestFinished,
  }) => {
    const { stack: s, sim: server } = await fourJobsHeld(onTestFinished, 1500);
    const up = await upInterrupted(s, server, 1);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain("^C received; cancelling");
    expect(up.stdout).toMatch(/error: update canceled/);
    const recorded = (await s.exportState()).deployment.resources
      ?.filter((r) => r.type === JOB_TYPE)
      .map((r) => r.id);
    expect(recorded?.sort()).toEqual(
      server.state
        .jobs()
        .map((j) => j.id)
        .sort(),
    );
    expect(recorded).toHaveLength(4);
    server.resetRequests();
    await s.pulumi(["up", "--yes", "--expect-no-changes"]);
    await s.pulumi(["refresh", "--yes", "--expect-no-changes"]);
    expect(server.requests.filter((r) => r.method === "POST")).toEqual([]);
    expect(server.state.jobs()).toHaveLength(4);
  });

  it("two Ctrl-Cs: the creates in flight are left pending; checked and cleared as the README says, the next up makes each job once", async ({
    onTestFinished,
  }) => {
    // The first job is made and answered; the other three POSTs are held until the CLI has gone,
    // however long a loaded machine takes to get there.
    let cliGone: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => {
      cliGone = resolve;
    });
    const { stack: s, sim: server } = await fourJobsHeld(onTestFinished, gone, true);
    const up = await upInterrupted(s, server, 2).finally(cliGone);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain("^C received; terminating");
    // The CLI left before the server answered the three: the state names each of them as a pending
    // create. The first was answered: it is recorded, or, when the second press ended the CLI before
    // the engine wrote its end, pending too.
    const state = await s.exportState();
    const recorded = state.deployment.resources?.filter((r) => r.type === JOB_TYPE) ?? [];
    const first = server.state.jobs()[0];
    expect(recorded.map((r) => r.id)).toEqual(recorded.length === 0 ? [] : [first?.id]);
    const made = recorded.map((r) => String(r.outputs?.resourceName));
    const pending = state.deployment.pending_operations?.map(
      (op) => `${op.type} ${op.resource.inputs?.resourceName}`,
    );
    expect(pending?.sort()).toEqual(
      REPLICA_SETS.filter((name) => !made.includes(name)).map((name) => `creating ${name}`),
    );
    expect(pending).toHaveLength(4 - recorded.length);
    expect(pending?.length).toBeGreaterThanOrEqual(3);
    // The server acts on what it received: each held POST makes its job (a fact awaited, not a delay).
    await expect.poll(() => server.state.jobs().length, { timeout: 20_000, interval: 50 }).toBe(4);

    // The README's advice: the pending creates name what to look for; delete the jobs they made in
    // Ops Manager, clear them from the stack, then run up again.
    for (const job of server.state.jobs()) {
      expect(REPLICA_SETS).toContain(job.resourceName);
      if (!made.includes(job.resourceName)) server.state.removeJob(job.id);
    }
    await s.pulumi(["refresh", "--yes", "--clear-pending-creates"]);
    expect((await s.exportState()).deployment.pending_operations ?? []).toEqual([]);
    await s.pulumi(["up", "--yes"]);
    expect(
      server.state
        .jobs()
        .map((j) => j.resourceName)
        .sort(),
    ).toEqual(REPLICA_SETS);
    await s.pulumi(["refresh", "--yes", "--expect-no-changes"]);
  });
}

/**
 * Two stacks of one program, `prod` and `dev`, against one organization under the real pulumi, each
 * with its own credentials, both running `pulumi up` at once; `dev`'s key POST loses its answer. The
 * settling of `dev`'s create deletes only the key its own POST made (found by the mark that POST
 * carried): `prod`'s key, created alike a moment earlier, and the keys people made by hand, stay as they
 * were; the next `pulumi up` of `dev` ends with exactly one key for its resource. Every case runs
 * through each face: the dynamic types, and the plugin with its generated Node.js SDK.
 */
import { expect, it } from "vitest";
import { dynamicType } from "../../provider/resources/shared/providers";
import type { Fault, SimApiKey, Simulator } from "../../simulator/types";
import { describeNeeding } from "../support/prerequisite";
import { cli, ENGINE_TEST_LIMIT_MS } from "./support/cli";
import { installNodeSdk, nodeSdkMissing } from "./support/node-sdk";
import { pluginProjectYaml } from "./support/plugin-project";
import { type EngineStack, makeStack } from "./support/stack";
import { configureDefaultServer, openWorld, STEADY_JOBS } from "./support/world";

/** A face the program runs through: its project file, the module its types come from, its install. */
interface Face {
  name: string;
  project: string;
  module: string;
  /** The type token of its resource `type`, as the stack records it. */
  token: (type: string) => string;
  /** Why it cannot run here, or `undefined`. */
  missing: () => string | undefined;
  install(stack: EngineStack): Promise<void>;
}

const FACES: Face[] = [
  {
    name: "the dynamic types",
    project: `name: ci-stacks
runtime:
  name: nodejs
  options:
    typescript: true
`,
    module: "pulumi-opsmanager",
    token: dynamicType,
    missing: () => undefined,
    install: async () => {},
  },
  {
    name: "the plugin and its Node.js SDK",
    project: pluginProjectYaml("ci-stacks"),
    module: "@pulumi-opsmanager/sdk",
    token: (type) => `opsmanager:index:${type}`,
    missing: nodeSdkMissing,
    install: (stack) => installNodeSdk(stack.dir),
  },
];

/** The program both stacks run: a created key, assigned to the project, and a log collection job. */
const program = (
  face: Face,
  sim: Simulator,
) => `import { ApiKeyProjectAssignment, LogCollectionJob, OrgApiKey } from "${face.module}";
const key = new OrgApiKey("ci", { orgId: "${sim.orgId}", desc: "CI stacks", roles: ["ORG_MEMBER"] });
new ApiKeyProjectAssignment("ci-in-project", { apiKeyId: key.apiKeyId, groupId: "${sim.groupId}", roles: ["GROUP_READ_ONLY"] });
new LogCollectionJob("logs", {
  groupId: "${sim.groupId}",
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 1000,
  logTypes: ["MONGODB"],
  redacted: true,
});
export const apiKeyId = key.apiKeyId;
`;

/** What a stack holds on the server: its key (with desc and roles), and its job. */
async function holdings(stack: EngineStack) {
  const resources = (await stack.exportState()).deployment.resources ?? [];
  const of = (type: string) => resources.filter((r) => r.type.endsWith(`:${type}`));
  return { keys: of("OrgApiKey"), jobs: of("LogCollectionJob"), assignments: of("ApiKeyProjectAssignment") };
}

/** Every key as the server has it, for keys that must not change. */
const keyView = (key: SimApiKey | undefined) =>
  key && {
    id: key.id,
    desc: key.desc,
    roles: key.roles.map((r) => `${r.orgId ?? r.groupId}:${r.roleName}`).sort(),
  };

/** Resolves once the server has read a POST of `user` (its request log holds it). */
async function postArrived(sim: Simulator, user: string, path: string): Promise<void> {
  // Bounded as a command is: a dev that never posts fails the test on its own.
  for (const until = Date.now() + 180_000; Date.now() < until; ) {
    if (sim.requests.some((r) => r.method === "POST" && r.path.endsWith(path) && r.digest?.username === user))
      return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The two stacks and their keys: `prod` signs with the simulator's admin key, `dev` with an
 * organization owner key of its own, as two teams' pipelines do. `devFaults` are what `dev`'s requests
 * meet (a key POST's once `prod`'s key POST has made its key); `prod`'s key POST waits until `dev`'s
 * has arrived, so both keys are made in the same moment.
 */
async function twoStacks(
  face: Face,
  onTestFinished: Parameters<typeof openWorld>[0],
  bin: string,
  devFaults: (made: Promise<void>, sim: Simulator) => Fault[],
  devConfig: Record<string, string> = {},
) {
  const { stack: prod, sim } = await openWorld(onTestFinished, bin, {
    simulator: STEADY_JOBS,
    project: (sims) => ({
      stack: "prod",
      files: { "Pulumi.yaml": face.project, "index.ts": program(face, sims[0]!) },
    }),
  });
  await face.install(prod);
  const devKey = sim.state.addApiKey({
    desc: "dev pipeline",
    roles: [
      { orgId: sim.orgId, roleName: "ORG_OWNER" },
      { groupId: sim.groupId, roleName: "GROUP_OWNER" },
    ],
  });
  const dev = await makeStack(bin, {
    stack: "dev",
    files: { "Pulumi.yaml": face.project, "index.ts": program(face, sim) },
  });
  onTestFinished(() => dev.cleanup());
  await face.install(dev);
  await configureDefaultServer(dev, { ...sim, publicKey: devKey.publicKey, privateKey: devKey.privateKey });
  for (const [key, value] of Object.entries(devConfig)) await dev.config(key, value);
  // The keys people made by hand, the README's adopt examples among them: untouched throughout.
  const byHand = sim.state.apiKeys().map((k) => keyView(k));

  const keysPath = `/orgs/${sim.orgId}/apiKeys`;
  let prodMade = () => {};
  const made = new Promise<void>((r) => (prodMade = r));
  sim.faults.add(
    {
      method: "POST",
      pathPrefix: keysPath,
      user: sim.publicKey,
      holdUntil: postArrived(sim, devKey.publicKey, keysPath),
      whenAnswered: () => prodMade(),
    },
    ...devFaults(made, sim).map((fault) => ({ ...fault, user: devKey.publicKey })),
  );
  const [prodUp, devUp] = await Promise.all([
    prod.pulumi(["up", "--yes"], { allowFailure: true }),
    dev.pulumi(["up", "--yes"], { allowFailure: true }),
  ]);
  expect(prodUp.code, prodUp.stdout + prodUp.stderr).toBe(0);
  expect(devUp.code).not.toBe(0);
  const prodHoldings = await holdings(prod);
  expect(prodHoldings.keys.map((k) => k.type)).toEqual([face.token("OrgApiKey")]);
  const prodKey = sim.state.apiKey(prodHoldings.keys[0]!.id!);
  expect(prodKey?.desc).toBe("CI stacks");

  /** Checks that prod's key, assignment and job, and the keys made by hand, are as they were. */
  const prodUntouched = () => {
    expect(keyView(sim.state.apiKey(prodKey!.id))).toEqual(keyView(prodKey));
    expect(sim.state.job(prodHoldings.jobs[0]!.id!)).toBeDefined();
    for (const key of byHand) expect(keyView(sim.state.apiKey(key!.id))).toEqual(key);
    expect(sim.requests.filter((r) => r.method === "DELETE" && r.path.endsWith(prodKey!.id))).toEqual([]);
  };
  return { sim, prod, dev, devUp, devKey, prodKey: prodKey!, prodUntouched };
}

const keysPathOf = (sim: Simulator) => `/orgs/${sim.orgId}/apiKeys`;

/** The keys of the organization that a stack's `ci` resource may have made: desc CI stacks, marked or not. */
const ciKeys = (sim: Simulator) => sim.state.apiKeys().filter((k) => k.desc.startsWith("CI stacks"));

/** `dev`'s next `pulumi up` and `destroy`, then `prod`'s destroy: each ends as declared. */
async function settleDev(world: Awaited<ReturnType<typeof twoStacks>>) {
  const { sim, dev, prod, prodKey, prodUntouched } = world;
  await dev.pulumi(["up", "--yes"]);
  const devHoldings = await holdings(dev);
  expect(devHoldings.keys.map((k) => k.id)).toHaveLength(1);
  const devKeyId = devHoldings.keys[0]!.id!;
  expect(devKeyId).not.toBe(prodKey.id);
  // Exactly one key for each stack's resource, each with the declared desc.
  expect(
    ciKeys(sim)
      .map((k) => [k.id, k.desc])
      .sort(),
  ).toEqual(
    [
      [prodKey.id, "CI stacks"],
      [devKeyId, "CI stacks"],
    ].sort(),
  );
  prodUntouched();
  await dev.pulumi(["destroy", "--yes"]);
  expect(ciKeys(sim).map((k) => k.id)).toEqual([prodKey.id]);
  prodUntouched();
  await prod.pulumi(["destroy", "--yes"]);
  expect(ciKeys(sim)).toEqual([]);
}

for (const face of FACES) {
  const { bin = "", missing } = cli();
  describeNeeding(
    `test/engine/two-stacks (${face.name}): a create that lost its answer beside another stack's key`,
    missing ?? face.missing(),
    () => cases(face, bin),
    { timeout: ENGINE_TEST_LIMIT_MS },
  );
}

function cases(face: Face, bin: string) {
  it("dev's POST answered 500 by a proxy (the server made nothing): prod's key stays, dev's message proves none was left, the next up makes one", async ({
    onTestFinished,
  }) => {
    const world = await twoStacks(face, onTestFinished, bin, (made, sim) => [
      { method: "POST", pathPrefix: keysPathOf(sim), holdUntil: made, status: 500 },
    ]);
    const { sim, devUp, prodKey, prodUntouched } = world;
    const shown = devUp.stdout + devUp.stderr;
    expect(shown).toContain("The server made no key of this create");
    expect(shown).toContain("No key was left behind.");
    expect(shown).toContain(`it was left as it is: ${prodKey.id}`);
    expect(ciKeys(sim).map((k) => k.id)).toEqual([prodKey.id]);
    prodUntouched();
    await settleDev(world);
  });

  it("dev's POST answered with a garbled body after the server made the key: that key is deleted by its mark, prod's stays", async ({
    onTestFinished,
  }) => {
    const world = await twoStacks(face, onTestFinished, bin, (made, sim) => [
      {
        method: "POST",
        pathPrefix: keysPathOf(sim),
        holdUntil: made,
        actThenFail: true,
        raw: { status: 200, contentType: "text/html", body: "<html>proxy says OK</html>" },
      },
    ]);
    const { sim, devUp, prodKey, prodUntouched } = world;
    const shown = devUp.stdout + devUp.stderr;
    expect(shown).toContain("the key with this create's mark");
    expect(shown).toContain("it was deleted, and no key is left behind");
    expect(ciKeys(sim).map((k) => k.id)).toEqual([prodKey.id]);
    expect(sim.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    prodUntouched();
    await settleDev(world);
  });

  it("dev's job POST answered 500 after the server made the job, its assignment's PATCH cut once: prod's job and assignment untouched, dev's job POSTed once, and after the check the message asks for, one job", async ({
    onTestFinished,
  }) => {
    // Dev's key POST goes through; its job POST fails after the server made the job, and its
    // assignment's PATCH is cut off once.
    const world = await twoStacks(face, onTestFinished, bin, (_made, sim) => [
      {
        method: "POST",
        pathPrefix: `/groups/${sim.groupId}/logCollectionJobs`,
        status: 500,
        actThenFail: true,
      },
      { method: "PATCH", pathPrefix: `/groups/${sim.groupId}/apiKeys/`, drop: "mid" },
    ]);
    const { sim, dev, devUp, devKey, prodUntouched } = world;
    const shown = (devUp.stdout + devUp.stderr).replace(/\s+/g, " ");
    expect(shown).toContain("The server may have created the log collection job");
    expect(shown).toContain(
      "by the API key this stack signs with (opsmanager:publicKey) may be this attempt's, which is not in the stack; delete it, or `pulumi up` makes the job again. No other job was changed.",
    );
    const jobPosts = sim.requests.filter(
      (r) =>
        r.method === "POST" &&
        r.path.endsWith("/logCollectionJobs") &&
        r.digest?.username === devKey.publicKey,
    );
    expect(jobPosts).toHaveLength(1);
    prodUntouched();
    // The check the message asks for: the job of this attempt is the one dev's key made (userId).
    const made = sim.state.jobs().filter((j) => j.userId === devKey.id);
    expect(made).toHaveLength(1);
    sim.state.removeJob(made[0]!.id);
    await dev.pulumi(["up", "--yes"]);
    expect(sim.state.jobs().filter((j) => j.userId === devKey.id)).toHaveLength(1);
    // Dev's key is assigned (its PATCH, cut off once, was sent again: it sets the same roles).
    const devKeyId = (await holdings(dev)).keys[0]!.id!;
    expect(sim.state.apiKey(devKeyId)!.roles).toContainEqual({
      groupId: sim.groupId,
      roleName: "GROUP_READ_ONLY",
    });
    expect(sim.requests.filter((r) => r.fault === "drop-mid")).toHaveLength(1);
    prodUntouched();
    await dev.pulumi(["destroy", "--yes"]);
    expect(sim.state.jobs().filter((j) => j.userId === devKey.id)).toEqual([]);
    prodUntouched();
  });

  it("dev's POST times out and the server makes the key after the provider gave up: recorded, and the next up deletes exactly that key", async ({
    onTestFinished,
  }) => {
    let release = () => {};
    const late = new Promise<void>((r) => (release = r));
    let acted = () => {};
    const devMade = new Promise<void>((r) => (acted = r));
    const world = await twoStacks(
      face,
      onTestFinished,
      bin,
      (_made, sim) => [
        { method: "POST", pathPrefix: keysPathOf(sim), holdUntil: late, whenAnswered: () => acted() },
      ],
      { "opsmanager:timeoutSeconds": "2" },
    );
    const { sim, dev, devUp, prodUntouched } = world;
    const shown = devUp.stdout + devUp.stderr;
    expect(shown).toContain("the server never answered the POST, so it may still make that key");
    expect(shown).toContain("The stack records this create");
    expect(shown).not.toContain("No key was left behind");
    const recorded = (await holdings(dev)).keys;
    expect(recorded.map((k) => k.id)).toEqual([expect.stringMatching(/^pending-create-[0-9a-f]{16}$/)]);
    const mark = (recorded[0]!.outputs!.pendingCreate as { desc: string }).desc;
    // The server acts on the POST after all.
    release();
    await devMade;
    expect(
      ciKeys(sim)
        .map((k) => k.desc)
        .sort(),
    ).toEqual(["CI stacks", mark].sort());
    prodUntouched();
    const markedId = ciKeys(sim).find((k) => k.desc === mark)!.id;
    await settleDev(world);
    expect(sim.requests.filter((r) => r.method === "DELETE" && r.path.endsWith(markedId))).toHaveLength(1);
  });
}

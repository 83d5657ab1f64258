/**
 * A log collection job's POST that the server may have acted on is never sent again by the provider,
 * and the error the engine receives says so plainly, with what to check; an answer to the POST that
 * cannot be read is such a case. A POST that was never sent (only the request for the challenge before
 * it failed) is said to have created nothing. Through the real host.
 *
 * "Sent once" is a fact, not a wait: each case has a host of its own, and the requests are counted once
 * its call has returned, the host process has exited, and the simulator has no connection left open
 * (`sim.idle()`): nothing more can arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Fault, Simulator } from "../../simulator/types";
import { until } from "../support/fake-clock";
import type { Host, HostCallError } from "../support/host";
import { checkThenCreate, jobUrn, type ProviderFixture, providerFixture } from "./support";

const PRIVATE_KEY = "3a9d0b7e-post-4c2f-8e1d-FAULTSUITE02";

let sim: Simulator;
let fx: ProviderFixture;
let n = 0;

const job = () => {
  n += 1;
  return fx.withJob({
    groupId: sim.groupId,
    resourceType: "CLUSTER",
    resourceName: `c-${n}`,
    sizeRequestedPerFileBytes: 5_000,
    logTypes: ["FTDC"],
    redacted: false,
  });
};

const posts = () => sim.requests.filter((q) => q.method === "POST").length;
const jobPath = () => `/groups/${sim.groupId}/logCollectionJobs`;
const config = (server: Simulator = sim, timeoutSeconds?: number) => ({
  "opsmanager:baseUrl": server.url,
  "opsmanager:publicKey": server.publicKey,
  "opsmanager:privateKey": PRIVATE_KEY,
  ...(timeoutSeconds === undefined ? {} : { "opsmanager:timeoutSeconds": String(timeoutSeconds) }),
});

/** A host of its own whose digest session has its first challenge already (one job created). */
async function warmHost(timeoutSeconds?: number): Promise<Host> {
  const host = await fx.newHost(config(sim, timeoutSeconds));
  await checkThenCreate(host, jobUrn(`warm-${n + 1}`), job());
  return host;
}

/** The host's process has exited and the server holds no connection of its: its request log is final. */
async function finished(host: Host, server: Simulator = sim): Promise<void> {
  await host.close();
  await server.idle();
}

/**
 * A POST held by the server until the client has given up on it, then let through: answered too late.
 * `lateActed` is set once the server has acted on it (its answer goes to a connection already gone).
 */
let releaseLate = () => {};
const late = new Promise<void>((resolve) => {
  releaseLate = resolve;
});
let lateActed = false;
/** The host's default `maxResponseBytes` (32 MiB), passed by one byte. */
const OVERSIZED = "x".repeat(32 * 1024 * 1024 + 1);

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 3, privateKey: PRIVATE_KEY } });
  fx = await providerFixture();
});

afterAll(async () => {
  await fx?.close();
  await sim?.close();
});

describe("a create the server may have acted on", () => {
  const cases: Array<[string, Fault, boolean]> = [
    ["answered 500 without acting", { method: "POST", status: 500 }, false],
    ["answered 500 after creating the job", { method: "POST", status: 500, actThenFail: true }, true],
    ["answered 502 by a proxy", { method: "POST", status: 502 }, false],
    ["cut off after the server acted, before any answer", { method: "POST", drop: "after" }, true],
    ["cut off in the middle of the answer", { method: "POST", drop: "mid" }, true],
    [
      "answered too late (after the 1 s timeout)",
      {
        method: "POST",
        holdUntil: late,
        whenAnswered: () => {
          lateActed = true;
        },
      },
      true,
    ],
    ...(
      [
        ["an HTML page", "text/html", "<html><body>Created</body></html>"],
        ["JSON without an id", "application/json", '{"status":"IN_PROGRESS"}'],
        ["JSON cut short", "application/json", '{"id":"5f00000000000'],
        ["a body past the size limit", "application/json", OVERSIZED],
      ] as const
    ).map(([what, contentType, body]): [string, Fault, boolean] => [
      `answered 201 after creating the job, with ${what}`,
      { method: "POST", actThenFail: true, raw: { status: 201, contentType, body } },
      true,
    ]),
  ];

  it.each(cases)(
    "%s: fails saying the job may exist and how to check, and is POSTed once",
    async (_name, fault, acts) => {
      // The 1 s timeout only where it is the case: a busy machine never makes another call late.
      const host = await warmHost(fault.holdUntil === undefined ? undefined : 1);
      sim.resetRequests();
      const jobsBefore = sim.state.jobs().length;
      sim.faults.add(fault);
      const props = job();
      const error = (await checkThenCreate(host, jobUrn(`job-${n}`), props).catch((e) => e)) as HostCallError;
      expect(error).toBeInstanceOf(Error);
      const path = `/groups/${sim.groupId}/logCollectionJobs`;
      expect(error.message).toContain(`LogCollectionJob (project ${sim.groupId}): POST ${path} `);
      expect(error.message).toContain("The server may have created the log collection job");
      expect(error.message).toContain("it was not sent again, so that no second log collection job starts");
      expect(error.message).toContain(
        `Before running \`pulumi up\` again, check the project's log collection jobs in Ops Manager (project ${sim.groupId}): a ${props.resourceType} ${props.resourceName} job made around `,
      );
      expect(error.message).toContain(
        "(this machine's clock) by the API key this stack signs with (opsmanager:publicKey) may be this attempt's, which is not in the stack; delete it, or `pulumi up` makes the job again. No other job was changed.",
      );
      // The call is named once, at the start; the POST the message names is the one the server saw.
      expect(sim.requests.filter((q) => q.method === "POST").map((q) => q.path)).toContain(
        `/api/public/v1.0${path}`,
      );
      expect(error.message).not.toContain(PRIVATE_KEY);
      // Nothing is recorded: the engine gets no id, so no resource enters the stack.
      expect(error.partial).toBeUndefined();
      if (fault.holdUntil !== undefined) {
        // The client gave up; the server now acts on the POST it held (its connection open until then),
        // and answers no one.
        releaseLate();
        await until(() => lateActed);
      }
      await finished(host);
      expect(posts()).toBe(1);
      expect(sim.state.jobs().length - jobsBefore).toBe(acts ? 1 : 0);
    },
  );

  it("answered 503 (not acted on): sent again, and one job is created", async () => {
    const host = await warmHost();
    sim.resetRequests();
    const jobsBefore = sim.state.jobs().length;
    sim.faults.add({ method: "POST", status: 503, times: 2 });
    const created = await checkThenCreate(host, jobUrn("after-503"), job());
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    await finished(host);
    expect(sim.requests.filter((q) => q.method === "POST").map((q) => q.status)).toEqual([503, 503, 201]);
    expect(sim.state.jobs().length - jobsBefore).toBe(1);
    expect(sim.state.jobs().at(-1)?.id).toBe(created.id);
  });
});

describe("a create whose challenge request fails (a new host: its first request fetches the challenge)", () => {
  it("answered 500: fails naming that GET, says no job was created, and sends no POST", async () => {
    const fresh = await fx.newHost(config());
    sim.resetRequests();
    const jobsBefore = sim.state.jobs().length;
    sim.faults.add({ method: "GET", pathPrefix: "/groups/", status: 500, beforeAuth: true });
    const error = (await checkThenCreate(fresh, jobUrn("challenge-500"), job()).catch(
      (e) => e,
    )) as HostCallError;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(
      `LogCollectionJob (project ${sim.groupId}): GET ${jobPath()} (the bodyless request that fetches the authentication challenge, sent before the POST) failed: 500 UNEXPECTED_ERROR`,
    );
    expect(error.message).toContain("the POST itself was not sent, so the server did not act on it");
    expect(sim.requests.some((q) => q.method === "GET" && q.path === `/api/public/v1.0${jobPath()}`)).toBe(
      true,
    );
    expect(error.message).toContain("No log collection job was created");
    expect(error.message).not.toContain("may have created");
    expect(error.message).not.toContain("Before running `pulumi up` again");
    expect(error.partial).toBeUndefined();
    // A GET answered 500 is not retried; the POST never crossed the wire.
    expect(sim.requests.map((q) => [q.method, q.authenticated, q.status])).toEqual([["GET", false, 500]]);
    expect(sim.state.jobs().length).toBe(jobsBefore);

    // Running again is safe: the job is created once.
    const created = await checkThenCreate(fresh, jobUrn("challenge-500"), job());
    // Once the host is gone, the whole log: the failed GET was never retried, the POST crossed once.
    await finished(fresh);
    expect(sim.requests.map((q) => [q.method, q.authenticated, q.status])).toEqual([
      ["GET", false, 500],
      ["GET", false, 401],
      ["POST", true, 201],
    ]);
    expect(posts()).toBe(1);
    expect(sim.state.jobs().length - jobsBefore).toBe(1);
    expect(sim.state.jobs().at(-1)?.id).toBe(created.id);
  });

  it("answered 502: retried as a GET would be, and the job is created once", async () => {
    const fresh = await fx.newHost(config());
    sim.resetRequests();
    const jobsBefore = sim.state.jobs().length;
    sim.faults.add({ method: "GET", pathPrefix: "/groups/", status: 502, beforeAuth: true });
    const created = await checkThenCreate(fresh, jobUrn("challenge-502"), job());
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    await finished(fresh);
    expect(sim.requests.map((q) => [q.method, q.authenticated, q.status])).toEqual([
      ["GET", false, 502],
      ["GET", false, 401],
      ["POST", true, 201],
    ]);
    expect(sim.state.jobs().length - jobsBefore).toBe(1);
  });
});
describe.each(["deployed", "spec"] as const)(
  "a create naming the database log, against the %s server",
  (profile) => {
    let server: Simulator;
    beforeAll(async () => {
      server = await startSimulator({ profile, seed: { keys: 1, privateKey: PRIVATE_KEY } });
    });
    afterAll(() => server?.close());

    it("cut off after the server acted while the name is learned: reported uncertain, and never POSTed again", async () => {
      // The POST that names the database log as this server takes it is cut off: the declared DATABASE
      // is the spec's, so its first; the deployed server refuses it and takes the second, MONGODB.
      const learner = await fx.newHost(config(server));
      if (profile === "deployed") server.faults.add({ method: "POST", delayMs: 0 });
      server.faults.add({ method: "POST", drop: "after" });
      const error = (await checkThenCreate(
        learner,
        jobUrn("db-cut"),
        fx.withJob({
          groupId: server.groupId,
          resourceType: "REPLICASET",
          resourceName: "rs-cut",
          sizeRequestedPerFileBytes: 5_000,
          logTypes: ["DATABASE", "FTDC"],
          redacted: false,
        }),
      ).catch((e) => e)) as HostCallError;
      expect(error.message).toContain("The server may have created the log collection job");
      await finished(learner, server);
      const sent = server.requests.filter((q) => q.method === "POST" && q.authenticated);
      expect(sent.map((q) => [q.status, (q.body as { logTypes: string[] }).logTypes[0]])).toEqual(
        profile === "deployed"
          ? [
              [400, "DATABASE"],
              [0, "MONGODB"],
            ]
          : [[0, "DATABASE"]],
      );
      expect(server.state.jobs()).toHaveLength(1);
    });
  },
);

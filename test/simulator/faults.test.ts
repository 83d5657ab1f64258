/**
 * Fault injection (simulator/faults.ts and what a fault does to a request): statuses, raw answers,
 * delays, hangs, dropped connections before, after and in the middle of an answer, faults in front of
 * authentication, `whenAnswered`, seeded chaos.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { until } from "../support/fake-clock";
import {
  CHALLENGE_RE,
  DigestClient,
  type ErrorBody,
  exchange,
  json,
  type ListBody,
  validJobFor,
} from "./support";

const validJob = () => validJobFor();

describe("fault injection", () => {
  let sim: Simulator;
  let client: DigestClient;
  const jobPath = () => `/groups/${sim.groupId}/logCollectionJobs`;
  beforeAll(async () => {
    sim = await startSimulator();
    client = new DigestClient(sim);
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    sim.faults.clear();
    sim.resetRequests();
    client.nonce = undefined;
  });

  it("a status fault answers after authentication with the error shape and does not act", async () => {
    sim.faults.add({ method: "POST", status: 503 });
    const before = sim.state.jobs().length;
    const reply = await client.call("POST", jobPath(), validJob());
    expect(reply.status).toBe(503);
    expect(json<ErrorBody>(reply)).toMatchObject({
      error: 503,
      errorCode: "SERVICE_UNAVAILABLE",
      reason: "Service Unavailable",
    });
    expect(sim.state.jobs()).toHaveLength(before);
    expect(sim.requests.map((r) => [r.authenticated, r.status, r.fault])).toEqual([
      [false, 401, undefined],
      [true, 503, "status-503"],
    ]);
    expect((await client.call("POST", jobPath(), validJob())).status).toBe(201);
  });

  it("a 429 fault carries RATE_LIMITED and Retry-After", async () => {
    sim.faults.add({ status: 429, retryAfterSeconds: 7 });
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(reply.status).toBe(429);
    expect(reply.headers["retry-after"]).toBe("7");
    expect(json<ErrorBody>(reply).errorCode).toBe("RATE_LIMITED");
  });

  it("faults match by method and path prefix, in order, as many times as asked", async () => {
    sim.faults.add({ method: "PATCH", status: 500 }, { pathPrefix: "/orgs/", status: 502, times: 2 });
    const list = `/orgs/${sim.orgId}/apiKeys`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.call("GET", list)).status);
    expect(statuses).toEqual([502, 502, 200]);
    const key = sim.state.addApiKey({});
    expect((await client.call("PATCH", `${list}/${key.id}`, { desc: "z" })).status).toBe(500);
    expect((await client.call("PATCH", `${list}/${key.id}`, { desc: "z" })).status).toBe(200);
  });

  it("a fault with a user matches only requests that user signed, as two teams' pipelines on one server", async () => {
    const other = sim.state.addApiKey({ roles: [{ orgId: sim.orgId, roleName: "ORG_OWNER" }] });
    const otherClient = new DigestClient(sim, other.publicKey, other.privateKey);
    sim.faults.add({ method: "GET", user: other.publicKey, status: 500 });
    const list = `/orgs/${sim.orgId}/apiKeys`;
    expect((await client.call("GET", list)).status).toBe(200);
    expect((await otherClient.call("GET", list)).status).toBe(500);
    expect((await otherClient.call("GET", list)).status).toBe(200);
    expect(() => sim.faults.add({ user: other.publicKey, beforeAuth: true })).toThrow(
      "a beforeAuth fault cannot match a user: no credentials are read before it",
    );
  });

  it("whenAnswered runs after the server acted and before it answers: the next request sees the change, this one does not", async () => {
    const list = `/orgs/${sim.orgId}/apiKeys?itemsPerPage=500`;
    const count = () => sim.state.apiKeys(sim.orgId).length;
    const before = count();
    const seen: string[] = [];
    sim.faults.add({
      method: "GET",
      pathPrefix: "/orgs/",
      times: 2,
      whenAnswered: (request) => {
        seen.push(`${request.method} ${request.query.itemsPerPage} ${request.status}`);
        sim.state.addApiKey({});
      },
    });
    const totals = [];
    for (let i = 0; i < 3; i++) totals.push(json<ListBody>(await client.call("GET", list)).totalCount);
    expect(totals).toEqual([before, before + 1, before + 2]);
    expect(count()).toBe(before + 2);
    expect(seen).toEqual(["GET 500 0", "GET 500 0"]);
    expect(sim.requests.filter((r) => r.authenticated).map((r) => r.fault)).toEqual([
      "when-answered",
      "when-answered",
      undefined,
    ]);
  });

  it("whenAnswered runs for a fault's answer too, and must be a function", async () => {
    let calls = 0;
    sim.faults.add({ status: 503, whenAnswered: () => calls++ });
    expect((await client.call("GET", `/orgs/${sim.orgId}/apiKeys`)).status).toBe(503);
    expect(calls).toBe(1);
    expect(() => sim.faults.add({ whenAnswered: "x" as unknown as () => void })).toThrow(
      /whenAnswered must be a function/,
    );
  });

  it("a delay fault answers normally after the delay", async () => {
    sim.faults.add({ delayMs: 150 });
    const started = Date.now();
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("a holdUntil fault holds the request until its promise settles, then answers normally", async () => {
    let release = () => {};
    sim.faults.add({ holdUntil: new Promise<void>((r) => (release = r)) });
    let answered = false;
    const reply = client.call("GET", `/orgs/${sim.orgId}/apiKeys`).finally(() => (answered = true));
    // The request has arrived and is held: recorded, unanswered.
    await until(() => sim.requests.some((r) => r.fault === "held"));
    expect(sim.requests.at(-1)).toMatchObject({ fault: "held", status: 0 });
    expect(answered).toBe(false);
    release();
    expect((await reply).status).toBe(200);
    expect(sim.requests.at(-1)).toMatchObject({ fault: "held", status: 200 });
    expect(() => sim.faults.add({ holdUntil: 1 as unknown as Promise<void> })).toThrow(
      /holdUntil must be a promise/,
    );
  });

  it("drop before closes the connection without creating the job", async () => {
    await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=1`);
    sim.faults.add({ method: "POST", drop: "before" });
    const before = sim.state.jobs().length;
    await expect(client.call("POST", jobPath(), validJob())).rejects.toThrow();
    expect(sim.state.jobs()).toHaveLength(before);
    expect(sim.requests.at(-1)).toMatchObject({ status: 0, fault: "drop-before", authenticated: true });
  });

  it("drop after creates the job and closes the connection before any response", async () => {
    await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=1`);
    sim.faults.add({ method: "POST", drop: "after" });
    const before = sim.state.jobs().length;
    await expect(client.call("POST", jobPath(), validJob())).rejects.toThrow();
    expect(sim.state.jobs()).toHaveLength(before + 1);
    expect(sim.requests.at(-1)).toMatchObject({ status: 0, fault: "drop-after" });
  });

  it("drop mid acts, sends the headers and part of the body, then closes", async () => {
    await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=1`);
    sim.faults.add({ method: "POST", drop: "mid" });
    const before = sim.state.jobs().length;
    await expect(client.call("POST", jobPath(), validJob())).rejects.toThrow(
      /aborted|incomplete|hang up|ECONNRESET/,
    );
    expect(sim.state.jobs()).toHaveLength(before + 1);
    expect(sim.requests.at(-1)).toMatchObject({ status: 201, fault: "drop-mid" });
  });

  it("actThenFail creates the job and still answers the error", async () => {
    sim.faults.add({ method: "POST", status: 500, actThenFail: true });
    const before = sim.state.jobs().length;
    const reply = await client.call("POST", jobPath(), validJob());
    expect(reply.status).toBe(500);
    expect(sim.state.jobs()).toHaveLength(before + 1);
  });

  it("a beforeAuth fault answers a request without credentials, as a proxy in front of the server would", async () => {
    sim.faults.add({ method: "GET", pathPrefix: "/groups/", status: 500, beforeAuth: true });
    const reply = await exchange(`${sim.apiRoot}${jobPath()}`);
    expect(reply.status).toBe(500);
    expect(json<ErrorBody>(reply)).toMatchObject({ error: 500, reason: "Internal Server Error" });
    // Used once: the next request without credentials gets the challenge, and a signed one passes.
    expect((await exchange(`${sim.apiRoot}${jobPath()}`)).status).toBe(401);
    expect(sim.requests.map((r) => [r.method, r.authenticated, r.status, r.fault])).toEqual([
      ["GET", false, 500, "before-auth+status-500"],
      ["GET", false, 401, undefined],
    ]);
    // A fault in front of the server cannot act on the request.
    expect(() => sim.faults.add({ beforeAuth: true, status: 500, actThenFail: true })).toThrow(RangeError);
    expect(() => sim.faults.add({ beforeAuth: true, drop: "after" })).toThrow(RangeError);
  });

  it("actThenFail with a raw 201 creates the job and answers a body that cannot be read", async () => {
    sim.faults.add({
      method: "POST",
      actThenFail: true,
      raw: { status: 201, contentType: "application/json", body: '{"id":' },
    });
    const before = sim.state.jobs().length;
    const reply = await client.call("POST", jobPath(), validJob());
    expect([reply.status, reply.text]).toEqual([201, '{"id":']);
    expect(sim.state.jobs()).toHaveLength(before + 1);
    expect(sim.requests.at(-1)).toMatchObject({ status: 201, fault: "act-then-fail+raw-201" });
  });

  it("a raw fault answers its own status, content type and body", async () => {
    sim.faults.add({ raw: { status: 200, contentType: "text/html", body: "<html>login</html>" } });
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/html");
    expect(reply.text).toBe("<html>login</html>");
  });

  it("a hang fault never answers", async () => {
    sim.faults.add({ hang: true });
    await expect(
      client.call("GET", `/orgs/${sim.orgId}/apiKeys`, undefined, { timeoutMs: 200 }),
    ).rejects.toThrow("client timeout");
    expect(sim.requests.at(-1)).toMatchObject({ status: 0, fault: "hang" });
  });

  it("a 401 fault answers a fresh challenge after good credentials", async () => {
    sim.faults.add({ status: 401 });
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toMatch(CHALLENGE_RE);
    expect(json<ErrorBody>(reply).errorCode).toBeUndefined();
    expect((await client.call("GET", `/orgs/${sim.orgId}/apiKeys`)).status).toBe(200);
    expect(sim.requests.map((r) => [r.authenticated, r.status])).toEqual([
      [false, 401],
      [true, 401],
      [true, 200],
    ]);
  });

  it("chaos with a seed injects the same faults on every run", async () => {
    const run = async () => {
      sim.faults.chaos({ rate503: 0.2, rate429: 0.2, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++)
        statuses.push((await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=1`)).status);
      sim.faults.chaos(undefined);
      return statuses;
    };
    const first = await run();
    expect(first).toEqual(await run());
    expect(first).toContain(503);
    expect(first).toContain(429);
    expect(first).toContain(200);
  });

  it("chaos drop-mid acts and cuts the response", async () => {
    sim.faults.chaos({ rateDropMid: 1 });
    const before = sim.state.jobs().length;
    await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=1`).catch(() => undefined);
    await expect(client.call("POST", jobPath(), validJob())).rejects.toThrow();
    expect(sim.state.jobs()).toHaveLength(before + 1);
    expect(sim.requests.at(-1)?.fault).toBe("chaos-drop-mid");
  });

  it("clear removes queued faults and chaos", async () => {
    sim.faults.add({ status: 500, times: 5 });
    sim.faults.chaos({ rate503: 1 });
    sim.faults.clear();
    expect((await client.call("GET", `/orgs/${sim.orgId}/apiKeys`)).status).toBe(200);
  });
});

/**
 * The simulator's request log (simulator/request-log.ts): what it records, that it never holds a private
 * key, and how it is emptied or kept empty.
 */
import * as http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { turns, watched } from "../support/fake-clock";
import { API_PATH, DigestClient, exchange } from "./support";

describe("request log", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ seed: { keys: 3 } });
  });
  afterAll(() => sim.close());

  it("idle() waits for every client connection to close: then the log holds all its requests", async () => {
    await sim.idle();
    const agent = new http.Agent({ keepAlive: true });
    await exchange(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`, { agent });
    // The answer is read, and the kept-alive connection is still open: the client could send more.
    const idle = watched(sim.idle());
    await turns();
    expect(idle.settled()).toBe(false);
    const before = sim.requests.length;
    agent.destroy();
    await idle.promise;
    expect(sim.requests).toHaveLength(before);
  });

  it("records challenged and authenticated requests with digest fields and parsed bodies", async () => {
    const client = new DigestClient(sim);
    const key = sim.state.addApiKey({});
    await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}?pretty=true`, { desc: "logged" });
    const [challenged, ok] = sim.requests.slice(-2);
    expect(challenged).toMatchObject({ authenticated: false, status: 401, method: "GET" });
    expect(ok).toMatchObject({
      method: "PATCH",
      path: `${API_PATH}/orgs/${sim.orgId}/apiKeys/${key.id}`,
      query: { pretty: "true" },
      rawBody: '{"desc":"logged"}',
      body: { desc: "logged" },
      authenticated: true,
      status: 200,
    });
    expect(ok?.digest).toMatchObject({
      username: sim.publicKey,
      nc: "00000001",
      qop: "auth",
      realm: "MMS Public API",
    });
    expect(ok?.headers?.authorization).toBeUndefined();
    expect(ok?.seq).toBe((challenged?.seq ?? 0) + 1);
  });

  it("never holds a private key, even one a client sends in a body or query", async () => {
    const client = new DigestClient(sim);
    const other = sim.state.apiKeys(sim.orgId)[1];
    const key = sim.state.addApiKey({});
    await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}?note=${sim.privateKey}`, {
      desc: `leak ${sim.privateKey} ${other?.privateKey}`,
    });
    await new DigestClient(sim, sim.publicKey, "wrong").call("GET", `/orgs/${sim.orgId}/apiKeys`);
    const log = JSON.stringify(sim.requests);
    expect(log).not.toContain(sim.privateKey);
    expect(log).not.toContain(String(other?.privateKey));
    expect(log).toContain("[REDACTED]");
  });

  it("resetRequests empties the log and record:false keeps it empty", async () => {
    sim.resetRequests();
    expect(sim.requests).toHaveLength(0);
    const quiet = await startSimulator({ record: false });
    try {
      await new DigestClient(quiet).call("GET", `/orgs/${quiet.orgId}/apiKeys`);
      expect(quiet.requests).toHaveLength(0);
    } finally {
      await quiet.close();
    }
  });
});

/**
 * How the simulator's answers are routed and framed (simulator/api.ts, simulator/framing.ts) in both
 * profiles: `pretty`, `envelope`, the server's error shape, an unknown route and a wrong method.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import {
  BOTH,
  DigestClient,
  type ErrorBody,
  json,
  type KeyBody,
  type ListBody,
  validJobFor,
} from "./support";

describe.each(BOTH)("routes, error shape and framing (%s profile)", (profile) => {
  let sim: Simulator;
  let client: DigestClient;
  beforeAll(async () => {
    sim = await startSimulator({ profile });
    client = new DigestClient(sim);
  });
  const validJob = () => validJobFor(profile);
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());

  it("pretty=true pretty-prints the body and the self link keeps pretty", async () => {
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys?pretty=true&itemsPerPage=2`);
    expect(reply.text).toContain('\n  "links": [');
    const body = json<ListBody>(reply);
    expect(body.links[0]?.href).toBe(
      `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys?pageNum=1&itemsPerPage=2&pretty=true`,
    );
    const compact = await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=2`);
    expect(compact.text).not.toContain("\n");
  });

  it("envelope=true on the list adds a status field and answers HTTP 200", async () => {
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys?envelope=true&itemsPerPage=1`);
    expect(reply.status).toBe(200);
    const body = json<ListBody>(reply);
    expect(body.status).toBe(200);
    expect(body.results).toHaveLength(1);
  });

  it("envelope=true on a single result wraps it with status and envelope", async () => {
    const key = sim.state.addApiKey({});
    const patch = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}?envelope=true`, {
      desc: "wrapped",
    });
    expect(patch.status).toBe(200);
    expect(json<{ status: number; envelope: KeyBody }>(patch)).toMatchObject({
      status: 200,
      envelope: { desc: "wrapped" },
    });
    const post = await client.call(
      "POST",
      `/groups/${sim.groupId}/logCollectionJobs?envelope=true`,
      validJob(),
    );
    expect(post.status).toBe(200);
    expect(json<{ status: number; envelope: { id: string } }>(post)).toEqual({
      status: 201,
      envelope: { id: expect.stringMatching(/^[0-9a-f]{24}$/) },
    });
    const missing = await client.call("GET", `/orgs/5f00000000000000000000ff/apiKeys?envelope=true`);
    expect(missing.status).toBe(200);
    expect(json<{ status: number; envelope: ErrorBody }>(missing)).toMatchObject({
      status: 404,
      envelope: { errorCode: "ORG_NOT_FOUND" },
    });
  });

  it("an unknown org is 404 ORG_NOT_FOUND in the server's error shape", async () => {
    const reply = await client.call("GET", `/orgs/5f00000000000000000000ff/apiKeys`);
    expect(reply.status).toBe(404);
    const body = json<ErrorBody>(reply);
    expect(Object.keys(body)).toEqual(["detail", "error", "errorCode", "parameters", "reason"]);
    expect(body).toMatchObject({ error: 404, errorCode: "ORG_NOT_FOUND", reason: "Not Found" });
  });

  it("an unknown route is 404 RESOURCE_NOT_FOUND and a wrong method is 405", async () => {
    const route = await client.call("GET", `/orgs/${sim.orgId}/widgets`);
    expect(route.status).toBe(404);
    expect(json<ErrorBody>(route).errorCode).toBe("RESOURCE_NOT_FOUND");
    const method = await client.call("DELETE", `/orgs/${sim.orgId}/apiKeys`);
    expect(method.status).toBe(405);
    expect(json<ErrorBody>(method).error).toBe(405);
  });
});

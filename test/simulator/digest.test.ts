/**
 * The simulator's digest authentication (simulator/digest.ts) in both profiles: the exact challenge and
 * headers, nonces and their counts, replays, expiry, reuse refused, the signed uri, keep-alive.
 */
import * as http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import {
  API_PATH,
  authorization,
  BOTH,
  CHALLENGE_RE,
  DigestClient,
  type ErrorBody,
  exchange,
  json,
  nonceOf,
  type Reply,
} from "./support";

describe.each(BOTH)("digest authentication (%s profile)", (profile) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ profile });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());

  it("an unauthenticated request gets the exact challenge and the 401 headers", async () => {
    const reply = await exchange(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`, {
      headers: { Accept: "application/json" },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toMatch(CHALLENGE_RE);
    expect(String(reply.headers["www-authenticate"])).toMatch(/stale=false$/);
    expect(reply.headers["content-type"]).toBe("application/json;charset=ISO-8859-1");
    expect(reply.headers.date).toBeTruthy();
    expect(reply.headers["content-length"]).toBe(String(Buffer.byteLength(reply.text)));
    expect(reply.headers.connection).toBe("keep-alive");
    expect(reply.text).toBe(
      '{"detail":"You are not authorized for this resource.","error":401,"parameters":[],"reason":"Unauthorized"}',
    );
  });

  it("each challenge carries a new nonce", async () => {
    const url = `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`;
    expect(nonceOf(await exchange(url))).not.toBe(nonceOf(await exchange(url)));
  });

  it("a correct digest response gets 200 with the vendor success headers", async () => {
    const reply = await new DigestClient(sim).call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(reply.status).toBe(200);
    expect(reply.headers["x-vendor-service-version"]).toMatch(
      /^gitHash=[0-9a-f]{40}; versionString=\d+\.\d+\.\d+\.\S+$/,
    );
    expect(reply.headers.vary).toBe("Accept-Encoding");
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(reply.headers["strict-transport-security"]).toBe("max-age=300");
    expect(reply.headers.date).toBeTruthy();
    expect(reply.headers.connection).toBe("keep-alive");
    expect(reply.headers["content-length"]).toBe(String(Buffer.byteLength(reply.text)));
  });

  it("a wrong private key gets 401 without an errorCode", async () => {
    const reply = await new DigestClient(sim, sim.publicKey, "not-the-key").call(
      "GET",
      `/orgs/${sim.orgId}/apiKeys`,
    );
    expect(reply.status).toBe(401);
    expect(json<ErrorBody>(reply).errorCode).toBeUndefined();
    expect(String(reply.headers["www-authenticate"])).toMatch(/stale=false$/);
  });

  it("an unknown public key gets 401", async () => {
    const reply = await new DigestClient(sim, "nobody", sim.privateKey).call(
      "GET",
      `/orgs/${sim.orgId}/apiKeys`,
    );
    expect(reply.status).toBe(401);
  });

  it("any key of the simulator authenticates with its own private key", async () => {
    const key = sim.state.addApiKey({ desc: "other user" });
    const reply = await new DigestClient(sim, key.publicKey, key.privateKey).call(
      "GET",
      `/orgs/${sim.orgId}/apiKeys`,
    );
    expect(reply.status).toBe(200);
  });

  it("one nonce serves many requests while nc increases", async () => {
    const client = new DigestClient(sim);
    for (let i = 0; i < 5; i++)
      expect((await client.call("GET", `/orgs/${sim.orgId}/apiKeys`)).status).toBe(200);
    expect(client.nc).toBe(5);
  });

  it("a replayed nc for the same nonce is refused with a fresh challenge, stale=false", async () => {
    const nonce = nonceOf(await exchange(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`));
    const uri = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const header = authorization(sim.publicKey, sim.privateKey, "GET", uri, nonce, 1);
    const first = await exchange(`${sim.url}${uri}`, { headers: { Authorization: header } });
    expect(first.status).toBe(200);
    const replay = await exchange(`${sim.url}${uri}`, { headers: { Authorization: header } });
    expect(replay.status).toBe(401);
    expect(String(replay.headers["www-authenticate"])).toMatch(/stale=false$/);
    expect(nonceOf(replay)).not.toBe(nonce);
  });

  it("an unknown nonce is refused with stale=false", async () => {
    const uri = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const header = authorization(sim.publicKey, sim.privateKey, "GET", uri, "bm90LWlzc3VlZA==", 1);
    const reply = await exchange(`${sim.url}${uri}`, { headers: { Authorization: header } });
    expect(reply.status).toBe(401);
    expect(String(reply.headers["www-authenticate"])).toMatch(/stale=false$/);
  });

  it("an expired nonce with right credentials gets a new nonce, stale=true in the spec and stale=false as deployed servers answer", async () => {
    sim.faults.nonceLifetime(30);
    const nonce = nonceOf(await exchange(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`));
    await new Promise((r) => setTimeout(r, 80));
    const uri = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const reply = await exchange(`${sim.url}${uri}`, {
      headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", uri, nonce, 1) },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toMatch(CHALLENGE_RE);
    expect(String(reply.headers["www-authenticate"])).toMatch(
      profile === "spec" ? /stale=true$/ : /stale=false$/,
    );
    expect(nonceOf(reply)).not.toBe(nonce);
  });

  it("expireNonces expires every nonce issued so far, answered as an expired nonce, and not the ones issued after", async () => {
    const uri = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const nonce = nonceOf(await exchange(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`));
    sim.faults.expireNonces();
    const reply = await exchange(`${sim.url}${uri}`, {
      headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", uri, nonce, 1) },
    });
    expect(reply.status).toBe(401);
    expect(String(reply.headers["www-authenticate"])).toMatch(
      profile === "spec" ? /stale=true$/ : /stale=false$/,
    );
    const fresh = nonceOf(reply);
    expect(fresh).not.toBe(nonce);
    const ok = await exchange(`${sim.url}${uri}`, {
      headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", uri, fresh, 1) },
    });
    expect(ok.status).toBe(200);
  });

  it("nonceLifetimeRequests expires a nonce once the server has checked that many more requests", async () => {
    sim.faults.nonceLifetimeRequests(2);
    const uri = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const nonce = nonceOf(await exchange(`${sim.url}${uri}`));
    const signed = (nc: number) =>
      exchange(`${sim.url}${uri}`, {
        headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", uri, nonce, nc) },
      });
    expect((await signed(1)).status).toBe(200);
    expect((await signed(2)).status).toBe(200);
    const third = await signed(3);
    expect(third.status).toBe(401);
    expect(String(third.headers["www-authenticate"])).toMatch(
      profile === "spec" ? /stale=true$/ : /stale=false$/,
    );
    expect(() => sim.faults.nonceLifetimeRequests(0)).toThrow(/positive integer/);
  });

  it("an expired nonce with wrong credentials gets stale=false", async () => {
    sim.faults.nonceLifetime(30);
    const nonce = nonceOf(await exchange(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`));
    await new Promise((r) => setTimeout(r, 80));
    const uri = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const reply = await exchange(`${sim.url}${uri}`, {
      headers: { Authorization: authorization(sim.publicKey, "wrong", "GET", uri, nonce, 1) },
    });
    expect(String(reply.headers["www-authenticate"])).toMatch(/stale=false$/);
  });

  it("refusing nonce reuse accepts nc 00000001 once per nonce and answers reuse with stale=false", async () => {
    sim.faults.refuseNonceReuse(true);
    const client = new DigestClient(sim);
    const uri = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const nonce = nonceOf(await exchange(`${sim.url}${uri}`));
    const ok = await exchange(`${sim.url}${uri}`, {
      headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", uri, nonce, 1) },
    });
    expect(ok.status).toBe(200);
    const second = await exchange(`${sim.url}${uri}`, {
      headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", uri, nonce, 2) },
    });
    expect(second.status).toBe(401);
    expect(String(second.headers["www-authenticate"])).toMatch(/stale=false$/);
    const fresh = nonceOf(second);
    const skipped = await exchange(`${sim.url}${uri}`, {
      headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", uri, fresh, 2) },
    });
    expect(skipped.status).toBe(401);
    sim.faults.refuseNonceReuse(false);
    expect((await client.call("GET", `/orgs/${sim.orgId}/apiKeys`)).status).toBe(200);
  });

  it("a uri that differs from the request target is refused", async () => {
    const nonce = nonceOf(await exchange(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`));
    const signed = `${API_PATH}/orgs/${sim.orgId}/apiKeys`;
    const reply = await exchange(`${sim.url}${signed}?pageNum=2`, {
      headers: { Authorization: authorization(sim.publicKey, sim.privateKey, "GET", signed, nonce, 1) },
    });
    expect(reply.status).toBe(401);
  });

  it("the uri includes the query string as sent", async () => {
    const reply = await new DigestClient(sim).call(
      "GET",
      `/orgs/${sim.orgId}/apiKeys?itemsPerPage=2&pageNum=1`,
    );
    expect(reply.status).toBe(200);
  });

  it("many requests share one keep-alive socket", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const client = new DigestClient(sim, sim.publicKey, sim.privateKey, agent);
      const replies: Reply[] = [];
      for (let i = 0; i < 10; i++)
        replies.push(await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=1`));
      expect(replies.every((r) => r.status === 200)).toBe(true);
      expect(replies.slice(1).every((r) => r.reusedSocket)).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});

import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator, SimulatorProfile } from "../../simulator/types";

/** Both servers the simulator plays, for the behaviour that differs between them. */
const BOTH: SimulatorProfile[] = ["deployed", "spec"];
/** The database log's name in each profile: deployed servers call it MONGODB, the spec DATABASE. */
const DB_LOG: Record<SimulatorProfile, string> = { deployed: "MONGODB", spec: "DATABASE" };

const API_PATH = "/api/public/v1.0";
const CHALLENGE_RE =
  /^Digest realm="MMS Public API", domain="", nonce="([A-Za-z0-9+/=]+)", algorithm=MD5, qop="auth", stale=(true|false)$/;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  reusedSocket: boolean;
}

interface Link {
  href: string;
  rel: string;
}
interface KeyBody {
  id: string;
  desc: string;
  privateKey: string;
  publicKey: string;
  roles: { orgId?: string; groupId?: string; roleName: string }[];
  links: Link[];
}
interface ListBody {
  links: Link[];
  results: KeyBody[];
  totalCount: number;
  status?: number;
}
interface ErrorBody {
  detail: string;
  error: number;
  errorCode?: string;
  parameters: unknown[];
  reason: string;
}

function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

/** One HTTP exchange; rejects when the connection fails. */
function exchange(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    agent?: http.Agent;
    timeoutMs?: number;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? "GET",
      headers: options.headers,
      agent: options.agent,
    });
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(new Error("client timeout")));
    }
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("aborted", () => reject(new Error("response aborted")));
      res.on("end", () => {
        if (!res.complete) {
          reject(new Error("response incomplete"));
          return;
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
          reusedSocket: req.reusedSocket,
        });
      });
    });
    req.end(options.body);
  });
}

function authorization(
  user: string,
  password: string,
  method: string,
  uri: string,
  nonce: string,
  nc: number,
): string {
  const ncText = nc.toString(16).padStart(8, "0");
  const cnonce = randomBytes(8).toString("hex");
  const ha1 = md5(`${user}:MMS Public API:${password}`);
  const ha2 = md5(`${method}:${uri}`);
  const response = md5(`${ha1}:${nonce}:${ncText}:${cnonce}:auth:${ha2}`);
  return `Digest username="${user}", realm="MMS Public API", nonce="${nonce}", uri="${uri}", algorithm=MD5, qop=auth, nc=${ncText}, cnonce="${cnonce}", response="${response}"`;
}

function nonceOf(reply: Reply): string {
  const match = CHALLENGE_RE.exec(String(reply.headers["www-authenticate"]));
  if (!match?.[1]) throw new Error(`no challenge in ${reply.status} reply`);
  return match[1];
}

/** A minimal digest client that keeps its nonce and counts nc, as a careful client does. */
class DigestClient {
  nonce: string | undefined;
  nc = 0;
  constructor(
    private readonly sim: Simulator,
    private readonly user = sim.publicKey,
    private readonly password = sim.privateKey,
    private readonly agent?: http.Agent,
  ) {}

  async call(
    method: string,
    relPath: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; rawBody?: string; timeoutMs?: number } = {},
  ): Promise<Reply> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.nonce === undefined) {
        this.nonce = nonceOf(
          await exchange(`${this.sim.apiRoot}/orgs/${this.sim.orgId}/apiKeys`, { agent: this.agent }),
        );
        this.nc = 0;
      }
      const headers: Record<string, string> = {
        Accept: "application/json",
        Authorization: authorization(
          this.user,
          this.password,
          method,
          `${API_PATH}${relPath}`,
          this.nonce,
          ++this.nc,
        ),
        ...extra.headers,
      };
      const text = extra.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
      if (text !== undefined && !extra.headers?.["Content-Type"])
        headers["Content-Type"] = "application/json";
      const reply = await exchange(`${this.sim.apiRoot}${relPath}`, {
        method,
        headers,
        body: text,
        agent: this.agent,
        timeoutMs: extra.timeoutMs,
      });
      if (reply.status !== 401 || !reply.headers["www-authenticate"]) return reply;
      this.nonce = nonceOf(reply);
      this.nc = 0;
      if (!String(reply.headers["www-authenticate"]).endsWith("stale=true")) return reply;
    }
    throw new Error("stale nonce loop");
  }
}

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function json<T>(reply: Reply): T {
  return JSON.parse(reply.text) as T;
}

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

describe.each(BOTH)("the three operations (%s profile)", (profile) => {
  let sim: Simulator;
  let client: DigestClient;
  beforeAll(async () => {
    sim = await startSimulator({ profile });
    client = new DigestClient(sim);
  });
  const validJob = () => validJobFor(profile);
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());

  it("the default seed is an admin key (ORG_OWNER, and GROUP_OWNER of the project) plus five generated keys in creation order", () => {
    const keys = sim.state.apiKeys(sim.orgId);
    expect(sim.orgId).toBe("5f0000000000000000000001");
    expect(sim.groupId).toBe("5f0000000000000000000002");
    expect(sim.publicKey).toBe("simadmin");
    expect(keys).toHaveLength(6);
    expect(keys[0]?.publicKey).toBe("simadmin");
    expect(keys[0]?.roles).toEqual([
      { orgId: sim.orgId, roleName: "ORG_OWNER" },
      { groupId: sim.groupId, roleName: "GROUP_OWNER" },
    ]);
    for (const key of keys.slice(1)) {
      expect(key.id).toMatch(/^[0-9a-f]{24}$/);
      expect(key.publicKey).toMatch(/^[a-z]{8}$/);
      expect(key.privateKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(key.desc).toMatch(/^generated key \d+$/);
      expect(key.roles.filter((r) => r.orgId === sim.orgId).length).toBeGreaterThanOrEqual(1);
    }
  });

  it("a key in the list carries a redacted private key, its roles and an absolute self link", async () => {
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    const body = json<ListBody>(reply);
    const admin = body.results[0];
    expect(admin).toEqual({
      id: "5f0000000000000000000003",
      desc: "simulator admin key",
      privateKey: `********-****-****-${sim.privateKey.slice(-12)}`,
      publicKey: "simadmin",
      roles: [
        { orgId: sim.orgId, roleName: "ORG_OWNER" },
        { groupId: sim.groupId, roleName: "GROUP_OWNER" },
      ],
      links: [{ href: `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys/5f0000000000000000000003`, rel: "self" }],
    });
    expect(reply.text).not.toContain(sim.privateKey);
  });

  it("the default page holds 100 items and its self link carries pageNum=1 and itemsPerPage=100", async () => {
    const body = json<ListBody>(await client.call("GET", `/orgs/${sim.orgId}/apiKeys`));
    expect(body.links).toEqual([
      { href: `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys?pageNum=1&itemsPerPage=100`, rel: "self" },
    ]);
    expect(body.totalCount).toBe(body.results.length);
  });

  it("1,234 keys at 500 per page are three pages with totalCount, next and previous links", async () => {
    const orgId = "5f00000000000000000000aa";
    sim.state.addOrg(orgId);
    sim.state.addApiKeys(1234, orgId);
    const base = `${sim.apiRoot}/orgs/${orgId}/apiKeys`;
    const pages: ListBody[] = [];
    for (const n of [1, 2, 3]) {
      const reply = await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=${n}&itemsPerPage=500`);
      expect(reply.status).toBe(200);
      pages.push(json<ListBody>(reply));
    }
    expect(pages.map((p) => p.results.length)).toEqual([500, 500, 234]);
    expect(pages.map((p) => p.totalCount)).toEqual([1234, 1234, 1234]);
    expect(pages[0]?.links).toEqual([
      { href: `${base}?pageNum=1&itemsPerPage=500`, rel: "self" },
      { href: `${base}?pageNum=2&itemsPerPage=500`, rel: "next" },
    ]);
    expect(pages[1]?.links).toEqual([
      { href: `${base}?pageNum=2&itemsPerPage=500`, rel: "self" },
      { href: `${base}?pageNum=1&itemsPerPage=500`, rel: "previous" },
      { href: `${base}?pageNum=3&itemsPerPage=500`, rel: "next" },
    ]);
    expect(pages[2]?.links.map((l) => l.rel)).toEqual(["self", "previous"]);
    const ids = pages.flatMap((p) => p.results.map((k) => k.id));
    expect(ids).toEqual(sim.state.apiKeys(orgId).map((k) => k.id));
    const beyond = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=4&itemsPerPage=500`),
    );
    expect(beyond.results).toEqual([]);
    expect(beyond.totalCount).toBe(1234);
  });

  it("a 5,000-key organization lists any page", async () => {
    const orgId = "5f00000000000000000000bb";
    sim.state.addApiKeys(5000, orgId);
    const body = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=10&itemsPerPage=500`),
    );
    expect(body.totalCount).toBe(5000);
    expect(body.results).toHaveLength(500);
    expect(body.links.map((l) => l.rel)).toEqual(["self", "previous"]);
  });

  it("a page cap serves at most that many keys a page whatever itemsPerPage asks, and the links say so", async () => {
    const orgId = "5f00000000000000000000c1";
    sim.state.addApiKeys(250, orgId);
    sim.faults.maxItemsPerPage(100);
    const base = `${sim.apiRoot}/orgs/${orgId}/apiKeys`;
    const first = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=1&itemsPerPage=500`),
    );
    expect(first.results).toHaveLength(100);
    expect(first.totalCount).toBe(250);
    expect(first.links).toEqual([
      { href: `${base}?pageNum=1&itemsPerPage=100`, rel: "self" },
      { href: `${base}?pageNum=2&itemsPerPage=100`, rel: "next" },
    ]);
    const third = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=3&itemsPerPage=100`),
    );
    expect(third.results.map((k) => k.id)).toEqual(
      sim.state
        .apiKeys(orgId)
        .slice(200)
        .map((k) => k.id),
    );
    // A smaller page than the cap is served as asked; clear() lifts the cap.
    const small = json<ListBody>(await client.call("GET", `/orgs/${orgId}/apiKeys?itemsPerPage=30`));
    expect(small.results).toHaveLength(30);
    sim.faults.clear();
    const whole = json<ListBody>(await client.call("GET", `/orgs/${orgId}/apiKeys?itemsPerPage=500`));
    expect(whole.results).toHaveLength(250);
  });

  it("a page cap given at start survives clear(), and one outside 1 to 500 is refused", async () => {
    await expect(startSimulator({ maxItemsPerPage: 0 })).rejects.toThrow(
      /maxItemsPerPage must be an integer from 1 to 500, got 0/,
    );
    expect(() => sim.faults.maxItemsPerPage(501)).toThrow(/from 1 to 500, got 501/);
    const capped = await startSimulator({ maxItemsPerPage: 2 });
    try {
      capped.faults.clear();
      const body = json<ListBody>(
        await new DigestClient(capped).call("GET", `/orgs/${capped.orgId}/apiKeys`),
      );
      expect(body.results).toHaveLength(2);
      expect(body.totalCount).toBe(6);
    } finally {
      await capped.close();
    }
  });

  it("itemsPerPage outside 1 to 500 or a pageNum that is not a positive integer is 400 INVALID_QUERY_PARAMETER", async () => {
    for (const query of [
      "itemsPerPage=501",
      "itemsPerPage=0",
      "pageNum=0",
      "pageNum=1.5",
      "pageNum=abc",
      "itemsPerPage=-1",
    ]) {
      const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys?${query}`);
      expect(reply.status, query).toBe(400);
      expect(json<ErrorBody>(reply)).toMatchObject({
        error: 400,
        errorCode: "INVALID_QUERY_PARAMETER",
        reason: "Bad Request",
      });
    }
    expect((await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=500`)).status).toBe(200);
  });

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

  it("a PATCH with only desc changes desc and keeps the roles", async () => {
    const key = sim.state.addApiKey({
      roles: [
        { orgId: sim.orgId, roleName: "ORG_MEMBER" },
        { groupId: sim.groupId, roleName: "GROUP_OWNER" },
      ],
    });
    const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, { desc: "new words" });
    expect(reply.status).toBe(200);
    expect(json<KeyBody>(reply)).toMatchObject({
      id: key.id,
      desc: "new words",
      publicKey: key.publicKey,
      privateKey: `********-****-****-${key.privateKey.slice(-12)}`,
      roles: key.roles,
      links: [{ href: `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys/${key.id}`, rel: "self" }],
    });
    expect(sim.state.apiKey(key.id)?.desc).toBe("new words");
  });

  it("a PATCH with roles replaces the org roles, collapses duplicates and keeps project roles", async () => {
    const key = sim.state.addApiKey({
      desc: "kept",
      roles: [
        { orgId: sim.orgId, roleName: "ORG_OWNER" },
        { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
      ],
    });
    const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, {
      roles: ["ORG_READ_ONLY", "ORG_MEMBER", "ORG_READ_ONLY"],
    });
    expect(reply.status).toBe(200);
    const body = json<KeyBody>(reply);
    expect(body.desc).toBe("kept");
    expect(body.roles).toEqual([
      { orgId: sim.orgId, roleName: "ORG_READ_ONLY" },
      { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
    ]);
    expect(sim.state.apiKey(key.id)?.roles).toEqual(body.roles);
  });

  it("a PATCH with neither desc nor roles is 400 MISSING_ATTRIBUTE and changes nothing", async () => {
    const key = sim.state.addApiKey({ desc: "same" });
    const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, {});
    expect(reply.status).toBe(400);
    expect(json<ErrorBody>(reply).errorCode).toBe("MISSING_ATTRIBUTE");
    expect(sim.state.apiKey(key.id)).toEqual(key);
  });

  it("a PATCH with invalid values is 400 naming the attribute", async () => {
    const key = sim.state.addApiKey({});
    const cases: [unknown, string, string][] = [
      [{ desc: "" }, "INVALID_ATTRIBUTE", "desc"],
      [{ desc: "x".repeat(251) }, "INVALID_ATTRIBUTE", "desc"],
      [{ desc: 7 }, "INVALID_ATTRIBUTE", "desc"],
      [{ roles: [] }, "INVALID_ATTRIBUTE", "roles"],
      [{ roles: "ORG_OWNER" }, "INVALID_ATTRIBUTE", "roles"],
      [{ roles: ["GROUP_OWNER"] }, "INVALID_ATTRIBUTE", "roles"],
      [{ roles: ["ORG_KING"] }, "INVALID_ENUM_VALUE", "ORG_KING"],
      [{ desc: "ok", publicKey: "abc" }, "INVALID_ATTRIBUTE", "publicKey"],
    ];
    for (const [body, errorCode, named] of cases) {
      const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      const error = json<ErrorBody>(reply);
      expect(error.errorCode).toBe(errorCode);
      expect(error.detail).toContain(named);
    }
    expect(
      (await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, { desc: "y".repeat(250) })).status,
    ).toBe(200);
  });

  it("a PATCH of an unknown key is API_KEY_NOT_FOUND (400 as the error table says, 404 in the spec profile), bad JSON is 400 INVALID_JSON, no JSON type is 415", async () => {
    const missing = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/5f00000000000000000000ee`, {
      desc: "x",
    });
    expect(missing.status).toBe(profile === "deployed" ? 400 : 404);
    expect(json<ErrorBody>(missing).errorCode).toBe("API_KEY_NOT_FOUND");
    const key = sim.state.addApiKey({});
    const bad = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, undefined, {
      rawBody: "{desc:",
    });
    expect(bad.status).toBe(400);
    expect(json<ErrorBody>(bad).errorCode).toBe("INVALID_JSON");
    const typeless = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, undefined, {
      rawBody: '{"desc":"x"}',
      headers: { "Content-Type": "text/plain" },
    });
    expect(typeless.status).toBe(415);
    expect(json<ErrorBody>(typeless).error).toBe(415);
  });

  it("a valid log collection job is created with 201 and a 24-hex id, and stored", async () => {
    const before = sim.state.jobs(sim.groupId).length;
    const reply = await client.call("POST", `/groups/${sim.groupId}/logCollectionJobs`, validJob());
    expect(reply.status).toBe(201);
    const { id } = json<{ id: string }>(reply);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(Object.keys(json<object>(reply))).toEqual(["id"]);
    const jobs = sim.state.jobs(sim.groupId);
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.at(-1)).toMatchObject({ id, groupId: sim.groupId, ...validJob() });
  });

  it("every log collection job field is required and validated", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ resourceType: undefined }, "MISSING_ATTRIBUTE"],
      [{ resourceType: "SHARD" }, "INVALID_ENUM_VALUE"],
      [{ resourceName: "" }, "INVALID_ATTRIBUTE"],
      [{ resourceName: 5 }, "INVALID_ATTRIBUTE"],
      [{ sizeRequestedPerFileBytes: 0 }, "INVALID_ATTRIBUTE"],
      [{ sizeRequestedPerFileBytes: 1.5 }, "INVALID_ATTRIBUTE"],
      [{ sizeRequestedPerFileBytes: "10" }, "INVALID_ATTRIBUTE"],
      [{ logTypes: [] }, "INVALID_ATTRIBUTE"],
      [{ logTypes: [DB_LOG[profile], "KERNEL"] }, "INVALID_ENUM_VALUE"],
      [{ redacted: "yes" }, "INVALID_ATTRIBUTE"],
      [{ redacted: undefined }, "MISSING_ATTRIBUTE"],
      [{ extra: 1 }, "INVALID_ATTRIBUTE"],
    ];
    const before = sim.state.jobs().length;
    for (const [change, errorCode] of cases) {
      const body = { ...validJob(), ...change };
      const reply = await client.call("POST", `/groups/${sim.groupId}/logCollectionJobs`, body);
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(json<ErrorBody>(reply).errorCode, JSON.stringify(change)).toBe(errorCode);
    }
    expect(sim.state.jobs()).toHaveLength(before);
  });

  it("a malformed group id is 400 INVALID_GROUP_ID and an unknown one 404 GROUP_NOT_FOUND", async () => {
    const malformed = await client.call("POST", "/groups/not-a-group/logCollectionJobs", validJob());
    expect(malformed.status).toBe(400);
    expect(json<ErrorBody>(malformed).errorCode).toBe("INVALID_GROUP_ID");
    const unknown = await client.call(
      "POST",
      "/groups/5f00000000000000000000dd/logCollectionJobs",
      validJob(),
    );
    expect(unknown.status).toBe(404);
    expect(json<ErrorBody>(unknown).errorCode).toBe("GROUP_NOT_FOUND");
    sim.state.addGroup("5f00000000000000000000dd");
    const seeded = await client.call(
      "POST",
      "/groups/5f00000000000000000000dd/logCollectionJobs",
      validJob(),
    );
    expect(seeded.status).toBe(201);
  });

  it("a key changed outside the API shows the change in the next list", async () => {
    const key = sim.state.addApiKey({ orgId: "5f00000000000000000000cc" });
    sim.state.updateApiKey(key.id, { desc: "changed by hand" });
    const body = json<ListBody>(await client.call("GET", "/orgs/5f00000000000000000000cc/apiKeys"));
    expect(body.results.map((k) => k.desc)).toEqual(["changed by hand"]);
    sim.state.removeApiKey(key.id);
    expect(
      json<ListBody>(await client.call("GET", "/orgs/5f00000000000000000000cc/apiKeys")).totalCount,
    ).toBe(0);
  });
});

/** A job body the profile's server accepts (the default profile's unless told). */
function validJobFor(profile: SimulatorProfile = "deployed") {
  return {
    resourceType: "REPLICASET",
    resourceName: "rs0",
    sizeRequestedPerFileBytes: 10_000_000,
    logTypes: [DB_LOG[profile], "FTDC"],
    redacted: true,
  };
}
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

describe.each(BOTH)("where the deployed server and the spec differ (%s profile)", (profile) => {
  let sim: Simulator;
  let client: DigestClient;
  const deployed = profile === "deployed";
  const jobPath = () => `/groups/${sim.groupId}/logCollectionJobs`;
  beforeAll(async () => {
    sim = await startSimulator({ profile });
    client = new DigestClient(sim);
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());

  /** A key with these roles, and a digest client that signs as it. */
  function caller(roles: { orgId?: string; groupId?: string; roleName: string }[]) {
    const key = sim.state.addApiKey({ roles });
    return { key, client: new DigestClient(sim, key.publicKey, key.privateKey) };
  }

  it("names the database log MONGODB as deployed servers do and refuses the other name with 400 INVALID_ENUM_VALUE", async () => {
    const before = sim.state.jobs().length;
    const taken = await client.call("POST", jobPath(), {
      ...validJobFor(profile),
      logTypes: [DB_LOG[profile]],
    });
    expect(taken.status).toBe(201);
    const other = deployed ? "DATABASE" : "MONGODB";
    const refused = await client.call("POST", jobPath(), { ...validJobFor(profile), logTypes: [other] });
    expect(refused.status).toBe(400);
    expect(json<ErrorBody>(refused)).toMatchObject({
      errorCode: "INVALID_ENUM_VALUE",
      parameters: [other, "logTypes"],
    });
    expect(json<ErrorBody>(refused).detail).toContain(other);
    expect(sim.state.jobs()).toHaveLength(before + 1);
    expect(sim.state.jobs().at(-1)?.logTypes).toEqual([DB_LOG[profile]]);
  });

  it("takes a lower-case resourceType and stores it as sent when deployed; the spec profile refuses it", async () => {
    const before = sim.state.jobs().length;
    const reply = await client.call("POST", jobPath(), {
      ...validJobFor(profile),
      resourceType: "replicaset",
    });
    if (deployed) {
      expect(reply.status).toBe(201);
      expect(sim.state.jobs().at(-1)?.resourceType).toBe("replicaset");
    } else {
      expect(reply.status).toBe(400);
      expect(json<ErrorBody>(reply).errorCode).toBe("INVALID_ENUM_VALUE");
      expect(sim.state.jobs()).toHaveLength(before);
    }
  });

  it("takes the optional time window in ms since the epoch when deployed; the spec profile refuses it as an unknown attribute", async () => {
    const window = { logCollectionFromDate: 1_700_000_000_000, logCollectionToDate: 1_700_086_400_000 };
    const reply = await client.call("POST", jobPath(), { ...validJobFor(profile), ...window });
    if (deployed) {
      expect(reply.status).toBe(201);
      expect(sim.state.jobs().at(-1)).toMatchObject(window);
      for (const bad of [{ logCollectionToDate: 1.5 }, { logCollectionFromDate: "2026-01-01" }]) {
        const refused = await client.call("POST", jobPath(), { ...validJobFor(profile), ...bad });
        expect(refused.status, JSON.stringify(bad)).toBe(400);
        expect(json<ErrorBody>(refused).errorCode).toBe("INVALID_ATTRIBUTE");
      }
      const reversed = await client.call("POST", jobPath(), {
        ...validJobFor(profile),
        logCollectionFromDate: window.logCollectionToDate,
        logCollectionToDate: window.logCollectionFromDate,
      });
      expect(json<ErrorBody>(reversed)).toMatchObject({ error: 400, errorCode: "INVALID_ATTRIBUTE" });
    } else {
      expect(reply.status).toBe(400);
      expect(json<ErrorBody>(reply)).toMatchObject({ errorCode: "INVALID_ATTRIBUTE" });
      expect(json<ErrorBody>(reply).detail).toContain("logCollectionFromDate");
    }
  });

  it("answers a 429 without Retry-After when deployed unless the fault gives one, and with Retry-After: 1 in the spec profile", async () => {
    sim.faults.add({ status: 429 }, { status: 429, retryAfterSeconds: 3 });
    const plain = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(plain.status).toBe(429);
    expect(json<ErrorBody>(plain).errorCode).toBe("RATE_LIMITED");
    expect(plain.headers["retry-after"]).toBe(deployed ? undefined : "1");
    const told = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(told.headers["retry-after"]).toBe("3");
  });

  it("a key with ORG_READ_ONLY lists the org's keys, and its PATCH is 401 USER_UNAUTHORIZED without a challenge when deployed", async () => {
    const reader = caller([{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }]);
    expect((await reader.client.call("GET", `/orgs/${sim.orgId}/apiKeys`)).status).toBe(200);
    const target = sim.state.addApiKey({ desc: "before" });
    const reply = await reader.client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${target.id}`, {
      desc: "after",
    });
    if (deployed) {
      expect(reply.status).toBe(401);
      expect(reply.headers["www-authenticate"]).toBeUndefined();
      expect(json<ErrorBody>(reply)).toMatchObject({
        error: 401,
        errorCode: "USER_UNAUTHORIZED",
        reason: "Unauthorized",
      });
      expect(sim.state.apiKey(target.id)?.desc).toBe("before");
    } else {
      expect(reply.status).toBe(200);
    }
  });

  it("a key with no role in the org gets 401 USER_UNAUTHORIZED for its keys when deployed", async () => {
    const stranger = caller([{ orgId: "5f00000000000000000000a1", roleName: "ORG_OWNER" }]);
    const reply = await stranger.client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(reply.status).toBe(deployed ? 401 : 200);
    if (deployed) expect(json<ErrorBody>(reply).errorCode).toBe("USER_UNAUTHORIZED");
  });

  it("log collection takes a project role that allows it, or the org's owner; others get 401 NOT_IN_GROUP or USER_UNAUTHORIZED when deployed", async () => {
    const cases: [string, { orgId?: string; groupId?: string; roleName: string }[], number, string?][] = [
      ["no role in the project", [{ orgId: sim.orgId, roleName: "ORG_MEMBER" }], 401, "NOT_IN_GROUP"],
      [
        "Project Read Only",
        [{ groupId: sim.groupId, roleName: "GROUP_READ_ONLY" }],
        401,
        "USER_UNAUTHORIZED",
      ],
      ["Project Automation Admin", [{ groupId: sim.groupId, roleName: "GROUP_AUTOMATION_ADMIN" }], 201],
      ["Project Monitoring Admin", [{ groupId: sim.groupId, roleName: "GROUP_MONITORING_ADMIN" }], 201],
      ["Organization Owner", [{ orgId: sim.orgId, roleName: "ORG_OWNER" }], 201],
    ];
    for (const [name, roles, status, errorCode] of cases) {
      const before = sim.state.jobs().length;
      const reply = await caller(roles).client.call("POST", jobPath(), validJobFor(profile));
      expect(reply.status, name).toBe(deployed ? status : 201);
      if (deployed && errorCode !== undefined) {
        expect(json<ErrorBody>(reply).errorCode, name).toBe(errorCode);
        expect(sim.state.jobs(), name).toHaveLength(before);
      }
    }
  });
});

describe("challengeOnRoleRefusal", () => {
  it("a role refusal also carries a new Digest challenge, stale=false; bad credentials are answered as before", async () => {
    const sim = await startSimulator({ challengeOnRoleRefusal: true });
    try {
      const key = sim.state.addApiKey({ roles: [{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }] });
      const reader = new DigestClient(sim, key.publicKey, key.privateKey);
      const target = sim.state.addApiKey({ desc: "before" });
      const reply = await reader.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${target.id}`, { desc: "after" });
      expect(reply.status).toBe(401);
      expect(json<ErrorBody>(reply).errorCode).toBe("USER_UNAUTHORIZED");
      const challenge = CHALLENGE_RE.exec(String(reply.headers["www-authenticate"]));
      expect(challenge?.[2]).toBe("false");
      expect(challenge?.[1]).not.toBe(sim.requests.at(-1)?.digest?.nonce);
      expect(sim.state.apiKey(target.id)?.desc).toBe("before");
      const wrong = await new DigestClient(sim, key.publicKey, "not-the-key").call(
        "GET",
        `/orgs/${sim.orgId}/apiKeys`,
      );
      expect(wrong.status).toBe(401);
      expect(json<ErrorBody>(wrong).errorCode).toBeUndefined();
      expect(wrong.headers["www-authenticate"]).toMatch(CHALLENGE_RE);
    } finally {
      await sim.close();
    }
  });
});

describe("the simulator's command line", () => {
  it("takes --profile deployed or spec, and refuses any other", async () => {
    const { parseArgs } = await import("../../simulator/cli");
    expect(parseArgs(["--profile", "spec"]).profile).toBe("spec");
    expect(parseArgs(["--profile", "deployed", "--port", "0"])).toMatchObject({
      profile: "deployed",
      port: 0,
    });
    expect(parseArgs([]).profile).toBeUndefined();
    expect(() => parseArgs(["--profile", "atlas"])).toThrow(/--profile needs deployed or spec, got atlas/);
  });

  it("plays the deployed server when no profile is given", async () => {
    const sim = await startSimulator();
    try {
      expect(sim.profile).toBe("deployed");
    } finally {
      await sim.close();
    }
  });
});

describe("request log", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ seed: { keys: 3 } });
  });
  afterAll(() => sim.close());

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

describe("state", () => {
  it("the same seed gives the same keys and a different seed different ones", async () => {
    const a = await startSimulator({ seed: { keys: 4 } });
    const b = await startSimulator({ seed: { keys: 4 } });
    const c = await startSimulator({ seed: { keys: 4, randomSeed: 9 } });
    try {
      expect(a.state.apiKeys()).toEqual(b.state.apiKeys());
      expect(a.state.apiKeys()).not.toEqual(c.state.apiKeys());
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it("a state file written by one simulator is loaded by the next", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const first = await startSimulator({
        stateFile,
        seed: { keys: 2, publicKey: "filekey", privateKey: "11111111-2222-4333-8444-555555555555" },
      });
      const client = new DigestClient(first);
      const key = first.state.apiKeys(first.orgId)[1];
      if (!key) throw new Error("no generated key");
      expect(
        (await client.call("PATCH", `/orgs/${first.orgId}/apiKeys/${key.id}`, { roles: ["ORG_MEMBER"] }))
          .status,
      ).toBe(200);
      const job = json<{ id: string }>(
        await client.call("POST", `/groups/${first.groupId}/logCollectionJobs`, validJob()),
      );
      await first.close();
      const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { apiKeys: unknown[] };
      expect(saved.apiKeys).toHaveLength(3);
      expect(fs.readdirSync(dir)).toEqual(["state.json"]);

      const second = await startSimulator({ stateFile });
      try {
        expect(second.publicKey).toBe("filekey");
        expect(second.privateKey).toBe("11111111-2222-4333-8444-555555555555");
        expect(second.state.apiKey(key.id)?.roles.filter((r) => r.orgId)).toEqual([
          { orgId: first.orgId, roleName: "ORG_MEMBER" },
        ]);
        expect(second.state.jobs().map((j) => j.id)).toEqual([job.id]);
        const added = second.state.addApiKey({});
        expect(first.state.apiKeys().map((k) => k.id)).not.toContain(added.id);
        expect((await new DigestClient(second).call("GET", `/orgs/${second.orgId}/apiKeys`)).status).toBe(
          200,
        );
      } finally {
        await second.close();
      }
      const third = await startSimulator({ stateFile });
      expect(third.state.apiKeys()).toHaveLength(4);
      await third.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasOpenssl())("with tls it serves HTTPS and builds https links", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-tls-"));
    try {
      const keyFile = path.join(dir, "key.pem");
      const certFile = path.join(dir, "cert.pem");
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-keyout",
          keyFile,
          "-out",
          certFile,
          "-days",
          "1",
          "-subj",
          "/CN=127.0.0.1",
        ],
        { stdio: "ignore" },
      );
      const sim = await startSimulator({
        tls: { key: fs.readFileSync(keyFile, "utf8"), cert: fs.readFileSync(certFile, "utf8") },
      });
      try {
        expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        const reply = await new Promise<{ status: number; challenge: string }>((resolve, reject) => {
          https
            .get(
              `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`,
              { ca: fs.readFileSync(certFile), rejectUnauthorized: false },
              (res) => {
                res.resume();
                res.on("end", () =>
                  resolve({
                    status: res.statusCode ?? 0,
                    challenge: String(res.headers["www-authenticate"]),
                  }),
                );
              },
            )
            .on("error", reject);
        });
        expect(reply.status).toBe(401);
        expect(reply.challenge).toMatch(CHALLENGE_RE);
      } finally {
        await sim.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("close returns promptly with idle keep-alive sockets open", async () => {
    const sim = await startSimulator();
    const agent = new http.Agent({ keepAlive: true });
    await new DigestClient(sim, sim.publicKey, sim.privateKey, agent).call(
      "GET",
      `/orgs/${sim.orgId}/apiKeys`,
    );
    const started = Date.now();
    await sim.close();
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });
});

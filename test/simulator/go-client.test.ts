/**
 * The simulator as MongoDB's Go client for Ops Manager (`go.mongodb.org/ops-manager` v0.61.0) finds it:
 * every method of its services for organization API keys, their access lists, project API keys and log
 * collection jobs, each request as that client sends it (./go-client), in the profile that has it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type GoLogCollectionJob, GoOpsManagerClient } from "./go-client";

interface Key {
  id: string;
  desc: string;
  privateKey: string;
  publicKey: string;
  roles: { orgId?: string; groupId?: string; roleName: string }[];
}
interface Entry {
  cidrBlock: string;
  count: number;
  created: string;
  ipAddress?: string;
  lastUsed?: string;
  lastUsedAddress?: string;
}
interface Page<T> {
  links: { href: string; rel: string }[];
  results: T[];
  totalCount: number;
}
interface Job {
  id: string;
  status: string;
  logCollectionFromDate?: number;
  logCollectionToDate?: number;
  childJobs?: unknown[];
}

const HOUR_MS = 3600_000;

/** A job as mongocli's users send it through the client: lower-case type, the database log, a time window. */
function windowedJob(now: number): GoLogCollectionJob {
  return {
    resourceType: "replicaset",
    resourceName: "rs0",
    redacted: true,
    logCollectionFromDate: now - 2 * HOUR_MS,
    logCollectionToDate: now - HOUR_MS,
    logTypes: ["MONGODB", "FTDC"],
    sizeRequestedPerFileBytes: 10_000_000,
  };
}

/** A time in ISO 8601 with whole seconds, as the client's callers write `expirationDate`. */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

describe("the Go client against the deployed profile", () => {
  let sim: Simulator;
  let go: GoOpsManagerClient;

  beforeEach(async () => {
    sim = await startSimulator({ seed: { keys: 2 } });
    go = new GoOpsManagerClient(sim);
  });
  afterEach(async () => {
    go.close();
    await sim.close();
  });

  it("every method of the four services succeeds, each request as the client sends it", async () => {
    const { orgId, groupId } = sim;
    // Organization API keys.
    const created = await go.orgApiKeys.create(orgId, "made by the Go client", ["ORG_MEMBER"]);
    expect(created.ok).toBe(true);
    const key = created.body as Key;
    expect(key.privateKey).toBe(sim.state.apiKey(key.id)?.privateKey);
    const got = await go.orgApiKeys.get(orgId, key.id);
    expect(got.ok).toBe(true);
    expect((got.body as Key).privateKey).toMatch(/^\*{8}-\*{4}-\*{4}-[0-9a-f]{12}$/);
    const listed = await go.orgApiKeys.list(orgId, { pageNum: 1, itemsPerPage: 100 });
    expect((listed.body as Page<Key>).results.map((k) => k.id)).toContain(key.id);
    const updated = await go.orgApiKeys.update(orgId, key.id, "renamed", ["ORG_READ_ONLY"]);
    expect(updated.ok).toBe(true);
    expect(sim.state.apiKey(key.id)).toMatchObject({
      desc: "renamed",
      roles: [{ orgId, roleName: "ORG_READ_ONLY" }],
    });

    // Its access list.
    const added = await go.accessListApiKeys.create(orgId, key.id, [
      { ipAddress: "192.0.2.7" },
      { cidrBlock: "198.51.100.0/24" },
    ]);
    expect(added.ok).toBe(true);
    expect((added.body as Page<Entry>).totalCount).toBe(2);
    expect(((await go.accessListApiKeys.list(orgId, key.id)).body as Page<Entry>).totalCount).toBe(2);
    const entry = await go.accessListApiKeys.get(orgId, key.id, "192.0.2.7");
    expect(entry.body).toMatchObject({ ipAddress: "192.0.2.7", cidrBlock: "192.0.2.7/32", count: 0 });
    // The client puts the entry in the path as given, so its caller escapes a block's "/".
    expect((await go.accessListApiKeys.delete(orgId, key.id, "198.51.100.0%2F24")).ok).toBe(true);
    expect(sim.state.accessList(key.id).map((e) => e.cidrBlock)).toEqual(["192.0.2.7/32"]);

    // Project API keys.
    expect((await go.projectApiKeys.assign(groupId, key.id, ["GROUP_READ_ONLY"])).ok).toBe(true);
    const inProject = await go.projectApiKeys.list(groupId);
    expect((inProject.body as Page<Key>).results.map((k) => k.id)).toContain(key.id);
    const projectKey = await go.projectApiKeys.create(groupId, "made in the project", ["GROUP_OWNER"]);
    expect(projectKey.status).toBe(200);
    expect((await go.projectApiKeys.unassign(groupId, key.id)).ok).toBe(true);
    expect(sim.state.apiKey(key.id)?.roles).toEqual([{ orgId, roleName: "ORG_READ_ONLY" }]);

    // Log collection jobs.
    const job = await go.logCollections.create(groupId, windowedJob(Date.now()));
    expect(job.status).toBe(201);
    const jobId = (job.body as Job).id;
    const verbose = await go.logCollections.get(groupId, jobId, { verbose: true });
    expect((verbose.body as Job).childJobs).toHaveLength(2);
    expect((await go.logCollections.list(groupId, { pending: true })).ok).toBe(true);
    expect((await go.logCollections.list(groupId, { pending: false })).ok).toBe(true);
    const extended = await go.logCollections.extend(
      groupId,
      jobId,
      isoSeconds(Date.now() + 60 * 24 * HOUR_MS),
    );
    expect(extended.ok).toBe(true);
    sim.state.updateJob(jobId, { status: "FAILURE" });
    expect((await go.logCollections.retry(groupId, jobId)).ok).toBe(true);
    expect(sim.state.job(jobId)?.status).toBe("IN_PROGRESS");
    expect((await go.logCollections.delete(groupId, jobId)).ok).toBe(true);
    expect(sim.state.job(jobId)).toBeUndefined();

    // And the key goes.
    expect((await go.orgApiKeys.delete(orgId, key.id)).ok).toBe(true);
    const gone = await go.orgApiKeys.get(orgId, key.id);
    expect(gone).toMatchObject({ status: 400, body: { errorCode: "API_KEY_NOT_FOUND" } });

    // What crossed the wire: each call once for the challenge, once signed, with the client's headers
    // and bodies (json.Encoder's, ending in a newline).
    go.close();
    await sim.idle();
    const signed = sim.requests.filter((r) => r.authenticated);
    expect(signed).toHaveLength(sim.requests.length / 2);
    for (const request of signed) {
      expect(request.headers?.["user-agent"]).toBe("go-ops-manager");
      expect(request.headers?.accept).toBe("application/json");
      if (request.rawBody !== "")
        expect(request.rawBody.endsWith("}\n") || request.rawBody.endsWith("]\n")).toBe(true);
    }
    expect(signed.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{24}/g, "{id}")}`)).toContain(
      "POST /api/public/v1.0/groups/{id}/apiKeys",
    );
    expect(signed.find((r) => r.query.pending === "true")?.path).toBe(
      `/api/public/v1.0/groups/${groupId}/logCollectionJobs`,
    );
  });

  it("creates a key in a project with project roles in one call, an org key holding ORG_MEMBER", async () => {
    const answer = await go.projectApiKeys.create(sim.groupId, "automation in one project", [
      "GROUP_AUTOMATION_ADMIN",
      "GROUP_READ_ONLY",
    ]);
    expect(answer.status).toBe(200);
    const key = answer.body as Key;
    expect(key).toMatchObject({
      desc: "automation in one project",
      roles: [
        { groupId: sim.groupId, roleName: "GROUP_AUTOMATION_ADMIN" },
        { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
        { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      ],
    });
    // The only answer with the whole private key; the key is one of the organization's.
    expect(key.privateKey).toBe(sim.state.apiKey(key.id)?.privateKey);
    expect(sim.state.apiKey(key.id)?.orgId).toBe(sim.orgId);
    const orgKeys = (await go.orgApiKeys.list(sim.orgId)).body as Page<Key>;
    expect(orgKeys.results.find((k) => k.id === key.id)?.privateKey).toMatch(/^\*{8}/);
    const projectKeys = (await go.projectApiKeys.list(sim.groupId)).body as Page<Key>;
    expect(projectKeys.results.map((k) => k.id)).toContain(key.id);

    // The key authenticates, and its project role lets it collect logs there.
    const asKey = new GoOpsManagerClient(sim, key.publicKey, key.privateKey);
    expect((await asKey.logCollections.create(sim.groupId, windowedJob(Date.now()))).status).toBe(201);
    asKey.close();
  });

  it("refuses a project key's create with organization roles, without desc, or by a key without the role", async () => {
    const orgRole = await go.projectApiKeys.create(sim.groupId, "wrong roles", ["ORG_OWNER"]);
    expect(orgRole).toMatchObject({ status: 400, body: { errorCode: "INVALID_ATTRIBUTE" } });
    const noDesc = await go.call(
      "POST",
      `api/public/v1.0/groups/${sim.groupId}/apiKeys`,
      '{"roles":["GROUP_OWNER"]}\n',
    );
    expect(noDesc).toMatchObject({ status: 400, body: { errorCode: "MISSING_ATTRIBUTE" } });
    const reader = sim.state.addApiKey({ roles: [{ groupId: sim.groupId, roleName: "GROUP_READ_ONLY" }] });
    const asReader = new GoOpsManagerClient(sim, reader.publicKey, reader.privateKey);
    const refused = await asReader.projectApiKeys.create(sim.groupId, "not mine to make", ["GROUP_OWNER"]);
    expect(refused).toMatchObject({ status: 401, body: { errorCode: "USER_UNAUTHORIZED" } });
    asReader.close();
    expect(sim.state.apiKeys().map((k) => k.desc)).not.toContain("not mine to make");
  });

  it("returns a job's time window in its record and in the listing, as the create sent it", async () => {
    const sent = windowedJob(Date.now());
    const jobId = ((await go.logCollections.create(sim.groupId, sent)).body as Job).id;
    const window = {
      logCollectionFromDate: sent.logCollectionFromDate,
      logCollectionToDate: sent.logCollectionToDate,
    };
    // Numbers: the client reads both into int64 fields, which a date string would fail.
    expect((await go.logCollections.get(sim.groupId, jobId, { verbose: true })).body).toMatchObject(window);
    expect((await go.logCollections.get(sim.groupId, jobId)).body).toMatchObject(window);
    const listed = (await go.logCollections.list(sim.groupId)).body as Page<Job>;
    expect(listed.results.find((j) => j.id === jobId)).toMatchObject(window);

    // A job created without one has none.
    const { logCollectionFromDate: _from, logCollectionToDate: _to, ...plain } = sent;
    const plainId = ((await go.logCollections.create(sim.groupId, plain)).body as Job).id;
    const plainRecord = (await go.logCollections.get(sim.groupId, plainId)).body as Job;
    expect(plainRecord).not.toHaveProperty("logCollectionFromDate");
    expect(plainRecord).not.toHaveProperty("logCollectionToDate");
  });

  it("lists only the jobs still running with pending=true, and every job with pending=false or without it", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(((await go.logCollections.create(sim.groupId, windowedJob(Date.now()))).body as Job).id);
    }
    const [done, failed, running] = ids as [string, string, string];
    sim.state.updateJob(done, { status: "SUCCESS" });
    sim.state.updateJob(failed, { status: "FAILURE" });
    const pending = (await go.logCollections.list(sim.groupId, { pending: true })).body as Page<Job>;
    expect(pending.results.map((j) => j.id)).toEqual([running]);
    expect(pending.totalCount).toBe(1);
    expect(pending.links[0]?.href).toMatch(/\?pageNum=1&itemsPerPage=100&pending=true$/);
    const all = [done, failed, running];
    const notPending = await go.call(
      "GET",
      `api/public/v1.0/groups/${sim.groupId}/logCollectionJobs?pending=false`,
    );
    expect((notPending.body as Page<Job>).results.map((j) => j.id)).toEqual(all);
    expect(((await go.logCollections.list(sim.groupId)).body as Page<Job>).results.map((j) => j.id)).toEqual(
      all,
    );
  });

  it("records each request a key authenticates from an address inside an entry of its access list", async () => {
    const key = (await go.orgApiKeys.create(sim.orgId, "used from loopback", ["ORG_MEMBER"])).body as Key;
    await go.accessListApiKeys.create(sim.orgId, key.id, [
      { ipAddress: "127.0.0.1" },
      { cidrBlock: "127.0.0.0/8" },
      { cidrBlock: "10.0.0.0/8" },
    ]);
    const before = Math.floor(Date.now() / 1000) * 1000;
    const asKey = new GoOpsManagerClient(sim, key.publicKey, key.privateKey);
    for (let i = 0; i < 3; i++) expect((await asKey.orgApiKeys.list(sim.orgId)).ok).toBe(true);
    const after = Date.now();

    // Read by the admin key: its own requests are not uses of this key's list.
    const list = (await go.accessListApiKeys.list(sim.orgId, key.id)).body as Page<Entry>;
    const [address, loopback, other] = list.results as [Entry, Entry, Entry];
    for (const used of [address, loopback]) {
      expect(used).toMatchObject({ count: 3, lastUsedAddress: "127.0.0.1" });
      const at = Date.parse(String(used.lastUsed));
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
      expect(used.lastUsed).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(other).toMatchObject({ cidrBlock: "10.0.0.0/8", count: 0 });
    expect(other).not.toHaveProperty("lastUsed");
    expect(other).not.toHaveProperty("lastUsedAddress");
    expect((await go.accessListApiKeys.get(sim.orgId, key.id, "127.0.0.1")).body).toMatchObject({ count: 3 });

    // A request the key sends for its own access list is a use too.
    const own = (await asKey.accessListApiKeys.get(sim.orgId, key.id, "127.0.0.1")).body as Entry;
    expect(own.count).toBe(4);
    asKey.close();
    expect(sim.state.accessList(key.id)[0]).toMatchObject({ count: 4, lastUsedAddress: "127.0.0.1" });
  });
});

describe("the Go client against the spec profile", () => {
  let sim: Simulator;
  let go: GoOpsManagerClient;

  beforeEach(async () => {
    sim = await startSimulator({ profile: "spec", seed: { keys: 2 } });
    go = new GoOpsManagerClient(sim);
  });
  afterEach(async () => {
    go.close();
    await sim.close();
  });

  it("answers the spec's three operations, and has no create of a key in a project", async () => {
    const listed = await go.orgApiKeys.list(sim.orgId, { pageNum: 1, itemsPerPage: 100 });
    expect(listed.ok).toBe(true);
    const keyId = (listed.body as Page<Key>).results[1]?.id as string;
    expect((await go.orgApiKeys.update(sim.orgId, keyId, "renamed", undefined)).ok).toBe(true);
    const { logCollectionFromDate: _from, logCollectionToDate: _to, ...job } = windowedJob(Date.now());
    const created = await go.logCollections.create(sim.groupId, {
      ...job,
      resourceType: "REPLICASET",
      logTypes: ["DATABASE", "FTDC"],
    });
    expect(created.status).toBe(201);

    const projectKey = await go.projectApiKeys.create(sim.groupId, "not in the spec", ["GROUP_OWNER"]);
    expect(projectKey.ok).toBe(false);
    expect(projectKey.status).toBe(404);
    expect(sim.state.apiKeys().map((k) => k.desc)).not.toContain("not in the spec");
  });
});

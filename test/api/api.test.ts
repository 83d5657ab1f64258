import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  findOrgApiKey,
  listAllOrgApiKeys,
  listOrgApiKeysByPage,
  listOrgApiKeysPage,
  listOrgApiKeysPageCheckedOnUse,
  patchOrgApiKey,
} from "../../provider/api/api-keys";
import { InputError } from "../../provider/api/input-error";
import { createLogCollectionJob } from "../../provider/api/log-collection-jobs";
import { UncertainCreateError } from "../../provider/api/uncertain-create-error";
import { HttpClient } from "../../provider/client";
import { ApiError, ResponseShapeError } from "../../provider/client/errors";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";

let sim: Simulator;
let client: HttpClient;

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 0 } });
  sim.state.addApiKeys(1_233);
  client = new HttpClient({
    baseUrl: sim.url,
    username: sim.publicKey,
    password: sim.privateKey,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
});
afterAll(async () => {
  await client?.close();
  await sim?.close();
});
beforeEach(() => {
  sim.faults.clear();
  sim.resetRequests();
});

const served = () => sim.requests.filter((r) => r.status !== 401);
const job = {
  resourceType: "REPLICASET" as const,
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 5_000_000,
  logTypes: ["DATABASE" as const],
  redacted: false,
};

describe("listing an organization's keys", () => {
  it("reads one page with the requested size", async () => {
    const page = await listOrgApiKeysPage(client, sim.orgId, { pageNum: 2, itemsPerPage: 100 });
    expect(page.totalCount).toBe(1_234);
    expect(page.results).toHaveLength(100);
    expect(served()[0]!.query).toMatchObject({ pageNum: "2", itemsPerPage: "100" });
  });

  it("pages through 1,234 keys in three requests of 500 and returns each key once", async () => {
    const keys = await listAllOrgApiKeys(client, sim.orgId);
    expect(keys).toHaveLength(1_234);
    expect(new Set(keys.map((k) => k.id)).size).toBe(1_234);
    expect(
      served()
        .map((r) => `${r.query.pageNum}/${r.query.itemsPerPage}`)
        .sort(),
    ).toEqual(["1/500", "2/500", "3/500"]);
  });

  it("finds a key by id and by public key, and says undefined for neither", async () => {
    const k = sim.state.apiKeys()[700]!;
    expect((await findOrgApiKey(client, sim.orgId, { id: k.id }))?.publicKey).toBe(k.publicKey);
    expect((await findOrgApiKey(client, sim.orgId, { publicKey: k.publicKey }))?.id).toBe(k.id);
    expect(await findOrgApiKey(client, sim.orgId, { publicKey: "nobody00" })).toBeUndefined();
  });

  it("masks a private key that a server sent in full, at the wire", async () => {
    const whole = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    const key = { id: "5f00000000000000000000aa", publicKey: "abcdefgh", privateKey: whole, roles: [] };
    sim.faults.add({
      raw: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ results: [key], totalCount: 1 }),
      },
    });
    const page = await listOrgApiKeysPage(client, sim.orgId);
    expect(page.results[0]!.privateKey).toBe("********-****-****-****-********e1f0");
    expect(JSON.stringify(page)).not.toContain(whole.slice(0, 20));
  });

  it("refuses an itemsPerPage over 500 before sending", async () => {
    await expect(listOrgApiKeysPage(client, sim.orgId, { itemsPerPage: 501 })).rejects.toThrow(
      /itemsPerPage must be a whole number from 1 to 500/,
    );
    expect(sim.requests).toHaveLength(0);
  });

  it("an unknown org is an ApiError naming the call", async () => {
    const err = await listOrgApiKeysPage(client, "5f00000000000000000000ee").catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toMatch(/GET \/orgs\/5f00000000000000000000ee\/apiKeys failed: 404 ORG_NOT_FOUND/);
  });

  it("a body that does not match the schema names the field", async () => {
    sim.faults.add({
      raw: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ results: [{ id: 5 }], totalCount: 1 }),
      },
    });
    const err = await listOrgApiKeysPage(client, sim.orgId).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/results\[0\]\.id/);
  });
});

describe("listing an organization's keys, each checked when used", () => {
  const rawPage = (results: unknown[]) => ({
    raw: { status: 200, contentType: "application/json", body: JSON.stringify({ results, totalCount: 3 }) },
  });
  const good = (n: number, extra: Record<string, unknown> = {}) => ({
    id: `5f00000000000000000000a${n}`,
    publicKey: `abcdefg${n}`,
    desc: `key ${n}`,
    roles: [{ orgId: sim.orgId, roleName: "ORG_MEMBER" }],
    ...extra,
  });

  it("reads every page once, page by page, with each key's id and public key", async () => {
    const pages: string[][] = [];
    await listOrgApiKeysByPage(client, sim.orgId, (keys) => pages.push(keys.map((k) => k.id)));
    expect(pages.map((p) => p.length).sort()).toEqual([234, 500, 500]);
    expect(new Set(pages.flat()).size).toBe(1_234);
    expect(served()).toHaveLength(3);
  });

  it("a key whose record breaks the schema fails only when used, naming its place in the page", async () => {
    sim.faults.add(rawPage([good(1), good(2, { roles: [{ roleName: 7 }] }), good(3)]));
    const page = await listOrgApiKeysPageCheckedOnUse(client, sim.orgId);
    expect(page.results.map((k) => k.publicKey)).toEqual(["abcdefg1", "abcdefg2", "abcdefg3"]);
    expect(page.results[0]!.key().desc).toBe("key 1");
    expect(page.results[2]!.key().roles).toEqual([{ orgId: sim.orgId, roleName: "ORG_MEMBER" }]);
    const err = (() => {
      try {
        page.results[1]!.key();
      } catch (error) {
        return error as Error;
      }
    })();
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err!.message).toMatch(
      /^GET \/orgs\/[0-9a-f]{24}\/apiKeys answered 200, but the body does not match/,
    );
    expect(err!.message).toMatch(/results\[1\]\.roles\[0\]\.roleName/);
  });

  it("masks a private key sent in full when the key is used", async () => {
    const whole = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    sim.faults.add(rawPage([good(1, { privateKey: whole })]));
    const page = await listOrgApiKeysPageCheckedOnUse(client, sim.orgId);
    expect(page.results[0]!.key().privateKey).toBe("********-****-****-****-********e1f0");
  });

  it("a key with no id or public key fails the whole page, as the full schema says", async () => {
    sim.faults.add(rawPage([good(1), { publicKey: "abcdefg2", roles: [] }]));
    const err = await listOrgApiKeysPageCheckedOnUse(client, sim.orgId).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/results\[1\]\.id/);
  });

  it("a page that is not a page fails at once", async () => {
    sim.faults.add({
      raw: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ results: {}, totalCount: -1 }),
      },
    });
    const err = await listOrgApiKeysPageCheckedOnUse(client, sim.orgId).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/results: .*totalCount: /);
  });
});

describe("patching a key", () => {
  it("sends only the given fields", async () => {
    const k = sim.state.apiKeys()[3]!;
    const out = await patchOrgApiKey(client, sim.orgId, k.id, { desc: "only desc" });
    expect(out.desc).toBe("only desc");
    expect(served()[0]!.body).toEqual({ desc: "only desc" });
  });

  it("refuses a change with neither desc nor roles before sending", async () => {
    await expect(patchOrgApiKey(client, sim.orgId, "5f0000000000000000000003", {})).rejects.toBeInstanceOf(
      InputError,
    );
    expect(sim.requests).toHaveLength(0);
  });

  it("percent-encodes nothing it would have to: ids with '/', '?', '%' or spaces are refused", async () => {
    for (const bad of ["a/b", "a?b", "a%2Fb", "a b", ""]) {
      await expect(patchOrgApiKey(client, sim.orgId, bad, { desc: "x" })).rejects.toThrow(/apiKeyId must/);
    }
    expect(sim.requests).toHaveLength(0);
  });
});

describe("creating a log collection job", () => {
  it("POSTs the body once, the database log under the deployed server's name, and returns the 24-hex id", async () => {
    const { id } = await createLogCollectionJob(client, sim.groupId, job);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(served().map((r) => [r.method, r.body])).toEqual([["POST", { ...job, logTypes: ["MONGODB"] }]]);
  });

  it("refuses a group id that is not 24 hex digits before sending", async () => {
    await expect(createLogCollectionJob(client, "5f00", job)).rejects.toThrow(
      /groupId must be 24 hexadecimal digits/,
    );
    expect(sim.requests).toHaveLength(0);
  });

  it("a 500 after the server acted is not sent again and says the job may exist", async () => {
    sim.faults.add({ method: "POST", status: 500, actThenFail: true });
    const before = sim.state.jobs().length;
    const err = await createLogCollectionJob(client, sim.groupId, job).catch((e) => e);
    expect(err).toBeInstanceOf(UncertainCreateError);
    expect(err.message).toMatch(/POST \/groups\/.*\/logCollectionJobs failed: 500/);
    expect(err.message).toMatch(/may have created the log collection job/);
    expect(sim.requests.filter((r) => r.method === "POST" && r.status !== 401)).toHaveLength(1);
    expect(sim.state.jobs().length).toBe(before + 1);
  });

  it("a 503 is retried because the server did not act on it", async () => {
    sim.faults.add({ method: "POST", status: 503 });
    const { id } = await createLogCollectionJob(client, sim.groupId, job);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(
      served()
        .filter((r) => r.method === "POST")
        .map((r) => r.status),
    ).toEqual([503, 201]);
  });
});

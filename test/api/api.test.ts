import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { orgApiKeyListing, patchOrgApiKey } from "../../provider/api/api-keys";
import { InconsistentListingError } from "../../provider/api/inconsistent-listing-error";
import { InputError } from "../../provider/api/input-error";
import { readListingByPage, readListingPage } from "../../provider/api/listing-pages";
import { createLogCollectionJob } from "../../provider/api/log-collection-jobs";
import { MalformedCreateAnswerError } from "../../provider/api/malformed-create-answer-error";
import { UncertainCreateError } from "../../provider/api/uncertain-create-error";
import { HttpClient } from "../../provider/client";
import { ApiError, ResponseShapeError } from "../../provider/client/errors";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { allOrgKeys, orgKeysPage } from "../support/listing";

let sim: Simulator;
let client: HttpClient;

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 0 } });
  sim.state.addApiKeys(1_233);
  client = new HttpClient({
    baseUrl: sim.apiRoot,
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
    const page = await orgKeysPage(client, sim.orgId, { pageNum: 2, itemsPerPage: 100 });
    expect(page.totalCount).toBe(1_234);
    expect(page.results).toHaveLength(100);
    expect(served()[0]!.query).toMatchObject({ pageNum: "2", itemsPerPage: "100" });
  });

  it("pages through 1,234 keys in three requests of 500 a read, reads the org twice, and returns each key once", async () => {
    const keys = await allOrgKeys(client, sim.orgId);
    expect(keys).toHaveLength(1_234);
    expect(new Set(keys.map((k) => k.id)).size).toBe(1_234);
    const asked = served().map((r) => `${r.query.pageNum}/${r.query.itemsPerPage}`);
    // One read after the other: the second starts once the first is in.
    expect([asked[0], asked[3]]).toEqual(["1/500", "1/500"]);
    expect(asked.slice(0, 3).sort()).toEqual(["1/500", "2/500", "3/500"]);
    expect(asked.slice(3).sort()).toEqual(["1/500", "2/500", "3/500"]);
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
    const page = await orgKeysPage(client, sim.orgId);
    expect(page.results[0]!.privateKey).toBe("********-****-****-****-********e1f0");
    expect(JSON.stringify(page)).not.toContain(whole.slice(0, 20));
  });

  it("refuses an itemsPerPage over 500 before sending", async () => {
    await expect(orgKeysPage(client, sim.orgId, { itemsPerPage: 501 })).rejects.toThrow(
      /itemsPerPage must be a whole number from 1 to 500/,
    );
    expect(sim.requests).toHaveLength(0);
  });

  it("an unknown org is an ApiError naming the call", async () => {
    const err = await orgKeysPage(client, "5f00000000000000000000ee").catch((e) => e);
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
    const err = await orgKeysPage(client, sim.orgId).catch((e) => e);
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
    await readListingByPage(client, orgApiKeyListing(sim.orgId), (keys) => pages.push(keys.map((k) => k.id)));
    expect(pages.map((p) => p.length).sort()).toEqual([234, 500, 500]);
    expect(new Set(pages.flat()).size).toBe(1_234);
    expect(served()).toHaveLength(3);
  });

  it("a key whose record breaks the schema fails only when used, naming its place in the page", async () => {
    sim.faults.add(rawPage([good(1), good(2, { roles: [{ roleName: 7 }] }), good(3)]));
    const page = await readListingPage(client, orgApiKeyListing(sim.orgId));
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
    const page = await readListingPage(client, orgApiKeyListing(sim.orgId));
    expect(page.results[0]!.key().privateKey).toBe("********-****-****-****-********e1f0");
  });

  it("a key with no id or public key fails the whole page, as the full schema says", async () => {
    sim.faults.add(rawPage([good(1), { publicKey: "abcdefg2", roles: [] }]));
    const err = await readListingPage(client, orgApiKeyListing(sim.orgId)).catch((e) => e);
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
    const err = await readListingPage(client, orgApiKeyListing(sim.orgId)).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/results: .*totalCount: /);
  });
});

describe("a listing whose pages disagree", () => {
  const listPath = () => `/orgs/${sim.orgId}/apiKeys`;
  const pagesAsked = () => served().map((r) => `${r.query.pageNum}/${r.query.itemsPerPage}`);
  const key = (n: number) => ({
    id: `5f00000000000000000000b${n}`,
    publicKey: `abcdefg${n}`,
    desc: `key ${n}`,
    roles: [{ orgId: sim.orgId, roleName: "ORG_MEMBER" }],
  });
  /** A page the server answers as it is, whatever is asked. */
  const rawPage = (results: unknown[], totalCount: number) => ({
    method: "GET",
    raw: { status: 200, contentType: "application/json", body: JSON.stringify({ results, totalCount }) },
  });

  it("is read again when a key of page 1 is deleted between pages, and then returns every key once", async () => {
    const victim = sim.state.apiKeys(sim.orgId)[10]!;
    sim.faults.add({
      method: "GET",
      pathPrefix: listPath(),
      whenAnswered: () => sim.state.removeApiKey(victim.id),
    });
    try {
      const keys = await allOrgKeys(client, sim.orgId);
      const ids = keys.map((k) => k.id);
      expect(ids).toEqual(sim.state.apiKeys(sim.orgId).map((k) => k.id));
      expect(ids).toHaveLength(1_233);
      expect(ids).not.toContain(victim.id);
      // The read whose pages disagreed, then two reads whose pages agree and list the same keys.
      const asked = pagesAsked();
      expect(asked).toHaveLength(9);
      expect([asked[0], asked[3], asked[6]]).toEqual(["1/500", "1/500", "1/500"]);
      expect(asked.slice(3, 6).sort()).toEqual(["1/500", "2/500", "3/500"]);
      expect(asked.slice(6).sort()).toEqual(["1/500", "2/500", "3/500"]);
    } finally {
      // The other tests of this file count 1,234 keys.
      sim.state.addApiKey({});
    }
  });

  it("is read again when a key is on two pages, and returns the read whose pages agree", async () => {
    const [a, b, c, d] = [key(1), key(2), key(3), key(4)];
    sim.faults.add(
      rawPage([a, b], 4),
      rawPage([b, c], 4),
      // The second and third reads: every key once, the same keys twice.
      rawPage([a, b], 4),
      rawPage([c, d], 4),
      rawPage([a, b], 4),
      rawPage([c, d], 4),
    );
    const keys = await allOrgKeys(client, sim.orgId, { itemsPerPage: 2 });
    expect(keys.map((k) => k.publicKey)).toEqual(["abcdefg1", "abcdefg2", "abcdefg3", "abcdefg4"]);
    expect(pagesAsked()).toEqual(["1/2", "2/2", "1/2", "2/2", "1/2", "2/2"]);
  });

  it("that never agree is reported after three reads, saying how they disagreed and what to do", async () => {
    const [a, b, c] = [key(1), key(2), key(3)];
    // Page 2 of 3 is short on every read, as if a key were deleted each time between pages 1 and 2;
    // page 3, asked with it, holds the one key the last page should.
    for (let read = 0; read < 3; read++) sim.faults.add(rawPage([a, b], 5), rawPage([c], 5), rawPage([c], 5));
    const err = await allOrgKeys(client, sim.orgId, { itemsPerPage: 2 }).catch((error) => error);
    expect(err).toBeInstanceOf(InconsistentListingError);
    expect(err.code).toBe("OM_ERR_INCONSISTENT_LISTING");
    expect(err.reads).toBe(3);
    expect(err.message).toBe(
      `GET ${listPath()}: the organization's key listing kept changing while it was read (read 3 times, ` +
        "without two reads in a row whose pages agreed and listed the same keys; last: page 2 of 3 held 1 " +
        "keys, not the 2 that 5 keys in pages of 2 " +
        "leave it). Keys were being added or deleted meanwhile, so a key could have been on no page or on " +
        "two, and the listing was not used. Run the command again once those changes have stopped",
    );
    expect(err.url).toBe(`${sim.apiRoot}${listPath()}`);
    const asked = pagesAsked();
    expect(asked).toHaveLength(9);
    for (const read of [asked.slice(0, 3), asked.slice(3, 6), asked.slice(6)]) {
      expect(read[0]).toBe("1/2");
      expect(read.slice(1).sort()).toEqual(["2/2", "3/2"]);
    }
  });

  it("asks no page after one that disagreed: the pages already on the wire finish, no other starts", async () => {
    const [a, b, c] = [key(1), key(2), key(3)];
    // Ten pages of 2: page 1, then the eight asked at once (pages 2 to 9), every one of them short.
    for (let read = 0; read < 3; read++) {
      sim.faults.add(rawPage([a, b], 20), ...Array.from({ length: 8 }, () => rawPage([c], 20)));
    }
    const err = await allOrgKeys(client, sim.orgId, { itemsPerPage: 2 }).catch((error) => error);
    expect(err).toBeInstanceOf(InconsistentListingError);
    expect(err.message).toMatch(
      /last: page \d of 10 held 1 keys, not the 2 that 20 keys in pages of 2 leave it/,
    );
    const asked = pagesAsked();
    expect(asked).toHaveLength(27);
    for (const read of [asked.slice(0, 9), asked.slice(9, 18), asked.slice(18)]) {
      expect(read[0]).toBe("1/2");
      expect(read.slice(1).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `${i + 2}/2`));
    }
    // Page 10 is never asked.
    expect(asked).not.toContain("10/2");
  });

  it("refuses maxReads under 2 before sending: two reads in a row must list the same keys", async () => {
    const err = await allOrgKeys(client, sim.orgId, { maxReads: 1 }).catch((error) => error);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(/maxReads must be a whole number from 2 \(got 1\)/);
    expect(sim.requests).toHaveLength(0);
  });

  it("from a server that serves fewer keys a page than asked, asks the other pages with the size served", async () => {
    sim.faults.maxItemsPerPage(100);
    const keys = await allOrgKeys(client, sim.orgId);
    expect(keys.map((k) => k.id)).toEqual(sim.state.apiKeys(sim.orgId).map((k) => k.id));
    const asked = pagesAsked();
    const byPage = (pages: string[]) => pages.sort((x, y) => Number.parseInt(x, 10) - Number.parseInt(y, 10));
    // Each of the two reads: page 1 asked for 500, then 12 pages of the 100 served.
    expect(asked).toHaveLength(26);
    expect([asked[0], asked[13]]).toEqual(["1/500", "1/500"]);
    for (const read of [asked.slice(1, 13), asked.slice(14)]) {
      expect(byPage(read)).toEqual(Array.from({ length: 12 }, (_, i) => `${i + 2}/100`));
    }
  });

  it("page by page, hands over the pages of every read, and resolves once a read agrees", async () => {
    const victim = sim.state.apiKeys(sim.orgId)[10]!;
    sim.faults.add({
      method: "GET",
      pathPrefix: listPath(),
      whenAnswered: () => sim.state.removeApiKey(victim.id),
    });
    try {
      const handed: string[] = [];
      await readListingByPage(client, orgApiKeyListing(sim.orgId), (keys) =>
        handed.push(...keys.map((k) => k.id)),
      );
      // Each read handed over 1,233 keys: the first lost the key that slid onto its page 1, but still
      // had the deleted one, which was really listed (a caller may use it). Together: every key.
      expect(handed).toHaveLength(1_233 + 1_233);
      expect(new Set(handed)).toEqual(new Set([victim.id, ...sim.state.apiKeys(sim.orgId).map((k) => k.id)]));
    } finally {
      sim.state.addApiKey({});
    }
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

describe("a 404 names the id the server did not know", () => {
  const ghost = "5f00000000000000000000ee";

  it("an unknown org in a listing: check orgId, with its value", async () => {
    const err = await orgKeysPage(client, ghost).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, errorCode: "ORG_NOT_FOUND", code: "OM_ERR_API" });
    expect(err.message).toContain(`(check orgId "${ghost}": the server has no organization with that id`);
    expect(err.message).not.toContain("check the id");
    expect(err.message).toMatch(/^GET \/orgs\/5f0+ee\/apiKeys failed: /);
    expect(err.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1\.0\/orgs\/5f0+ee\/apiKeys\?/);
    expect(served().map((r) => [r.method, r.status])).toEqual([["GET", 404]]);
  });

  it("an unknown key in a PATCH (400, as the deployed server's error table lists it): check apiKeyId, in which organization", async () => {
    const err = await patchOrgApiKey(client, sim.orgId, ghost, { desc: "x" }).catch((e) => e);
    expect(err).toMatchObject({ status: 400, errorCode: "API_KEY_NOT_FOUND" });
    expect(err.message).toContain(
      `(check apiKeyId "${ghost}": the server has no API key with that id in organization ${sim.orgId}`,
    );
    expect(served().map((r) => [r.method, r.status])).toEqual([["PATCH", 400]]);
  });

  it("API_KEY_NOT_FOUND answered as 404 names apiKeyId too", async () => {
    sim.faults.add({ method: "PATCH", status: 404, errorCode: "API_KEY_NOT_FOUND" });
    const k = sim.state.apiKeys()[2]!;
    const err = await patchOrgApiKey(client, sim.orgId, k.id, { desc: "x" }).catch((e) => e);
    expect(err).toMatchObject({ status: 404, errorCode: "API_KEY_NOT_FOUND" });
    expect(err.message).toContain(`(check apiKeyId "${k.id}"`);
  });

  it("an unknown project in a create: check groupId, and the job is not in doubt", async () => {
    const err = await createLogCollectionJob(client, ghost, job).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, errorCode: "GROUP_NOT_FOUND" });
    expect(err.message).toContain(`(check groupId "${ghost}": the server has no project with that id`);
    expect(served().map((r) => [r.method, r.status])).toEqual([["POST", 404]]);
  });

  it("a 404 that names no id (a base URL with a wrong path) names every id sent and the base URL", async () => {
    const wrongRoot = new HttpClient({
      baseUrl: `${sim.url}/api/public/v2.0`,
      username: sim.publicKey,
      password: sim.privateKey,
    });
    try {
      const err = await patchOrgApiKey(wrongRoot, sim.orgId, ghost, { desc: "x" }).catch((e) => e);
      expect(err).toMatchObject({ status: 404, errorCode: "RESOURCE_NOT_FOUND" });
      expect(err.message).toContain(`(check orgId "${sim.orgId}" and apiKeyId "${ghost}"; if they are right`);
      expect(err.message).toContain("base URL");
    } finally {
      await wrongRoot.close();
    }
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
    // What to check is Ops Manager's to say; when to check it (before `pulumi up`) is the resource's.
    expect(err.message).not.toMatch(/pulumi|stack/i);
    expect(err.check).toBe(`check the project's log collection jobs in Ops Manager (project ${sim.groupId})`);
    expect(sim.requests.filter((r) => r.method === "POST" && r.status !== 401)).toHaveLength(1);
    expect(sim.state.jobs().length).toBe(before + 1);
  });

  it("a 201 whose body cannot be read, or holds no id, says the job may exist, its cause the shape error", async () => {
    for (const body of ["<html>Created</html>", '{"status":"IN_PROGRESS"}']) {
      sim.resetRequests();
      sim.faults.add({
        method: "POST",
        actThenFail: true,
        raw: { status: 201, contentType: "application/json", body },
      });
      const before = sim.state.jobs().length;
      const err = await createLogCollectionJob(client, sim.groupId, job).catch((e) => e);
      expect(err).toBeInstanceOf(UncertainCreateError);
      expect(err.cause).toBeInstanceOf(ResponseShapeError);
      expect(err.message).toMatch(/^POST \/groups\/.*\/logCollectionJobs answered 201, but /);
      expect(err.message).toMatch(/may have created the log collection job/);
      expect(served().filter((r) => r.method === "POST")).toHaveLength(1);
      expect(sim.state.jobs().length).toBe(before + 1);
    }
  });

  it("a 201 whose id is malformed hands the id on to be recorded, not as an uncertain create", async () => {
    sim.faults.add({
      method: "POST",
      actThenFail: true,
      raw: { status: 201, contentType: "application/json", body: '{"id":"job-17"}' },
    });
    const err = await createLogCollectionJob(client, sim.groupId, job).catch((e) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).not.toBeInstanceOf(UncertainCreateError);
    expect(err).toBeInstanceOf(MalformedCreateAnswerError);
    expect(err.createdId).toBe("job-17");
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

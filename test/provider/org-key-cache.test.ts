import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InconsistentListingError } from "../../provider/api/inconsistent-listing-error";
import type { Transport } from "../../provider/api/transport";
import { HttpClient } from "../../provider/client";
import type { JsonResponse, RequestOptions } from "../../provider/client/types";
import { findKey, rememberKey } from "../../provider/resources/org-api-key/org-key-cache";
import { resetServerMemoryForTests } from "../../provider/resources/shared/server-memory";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { until, watched } from "../support/fake-clock";

const PAGE = 500;

let sim: Simulator;
let client: HttpClient;

beforeAll(async () => {
  // 1,500 keys: three pages of 500.
  sim = await startSimulator({ seed: { keys: 3 * PAGE - 1 } });
  client = new HttpClient({ baseUrl: sim.apiRoot, username: sim.publicKey, password: sim.privateKey });
});

afterAll(async () => {
  await client.close();
  await sim.close();
});

beforeEach(() => {
  resetServerMemoryForTests();
  sim.faults.clear();
  sim.resetRequests();
});

/** A promise the test resolves, to release requests a `holdUntil` fault holds. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const answeredPages = () => sim.requests.filter((r) => r.status === 200).length;

describe("the shared org listing", () => {
  it("answers for a key on the first page while the later pages are still on the wire", async () => {
    const keys = sim.state.apiKeys();
    const onFirst = keys[10]!;
    const onLast = keys[2 * PAGE + 10]!;
    // Page 1 as usual; pages 2 and 3 held by the server until the test opens the gate, so "while the
    // later pages are on the wire" is an order the server enforces, not a race against a delay.
    const held = gate();
    sim.faults.add(
      { method: "GET", pathPrefix: "/orgs/", times: 1 },
      { method: "GET", pathPrefix: "/orgs/", holdUntil: held.promise, times: 2 },
    );
    const last = watched(findKey(client, sim.orgId, { publicKey: onLast.publicKey }));
    const first = await findKey(client, sim.orgId, { id: onFirst.id });
    expect(first?.id).toBe(onFirst.id);
    // Answered from page 1 alone: the later pages not answered, the key of page 3 not yet found.
    expect(answeredPages()).toBe(1);
    expect(last.settled()).toBe(false);
    held.open();
    expect((await last.promise)?.id).toBe(onLast.id);
    // One listing for both: a challenge and the three pages.
    expect(sim.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      "GET 401",
      "GET 200",
      "GET 200",
      "GET 200",
    ]);
  });

  it("answers that a key is missing only once every page of two listings is in", async () => {
    const held = gate();
    sim.faults.add(
      { method: "GET", pathPrefix: "/orgs/", times: 1 },
      { method: "GET", pathPrefix: "/orgs/", holdUntil: held.promise, times: 2 },
    );
    const missing = watched(findKey(client, sim.orgId, { id: "5f00000000000000000fffff" }));
    // Both later pages of the first listing at the server, held: no answer yet.
    await until(() => sim.requests.filter((r) => r.fault === "held").length === 2);
    expect(missing.settled()).toBe(false);
    held.open();
    expect(await missing.promise).toBeUndefined();
    // Pages that agree can still hide a key (one deleted and one added between them): a second
    // listing, started after the first, confirms the key is gone.
    expect(sim.requests.filter((r) => r.status === 200).map((r) => r.query.pageNum)).toEqual([
      "1",
      expect.any(String),
      expect.any(String),
      "1",
      expect.any(String),
      expect.any(String),
    ]);
  });
});

describe("a listing read while the org's keys move", () => {
  const pageOnes = () => sim.requests.filter((r) => r.status === 200 && r.query.pageNum === "1").length;

  it("answers every waiting lookup once, from whichever read has its key, and says missing only after agreeing listings", async () => {
    const keys = sim.state.apiKeys();
    const [victim, onPage1, shifted, onPage3] = [keys[10]!, keys[20]!, keys[PAGE]!, keys[2 * PAGE + 200]!];
    // After page 1 is answered, a key of page 1 is deleted: the key that opened page 2 slides onto page 1.
    sim.faults.add({
      method: "GET",
      pathPrefix: `/orgs/${sim.orgId}/apiKeys`,
      whenAnswered: () => sim.state.removeApiKey(victim.id),
    });
    try {
      const lookups = [
        findKey(client, sim.orgId, { id: shifted.id }),
        findKey(client, sim.orgId, { publicKey: onPage1.publicKey }),
        findKey(client, sim.orgId, { id: onPage3.id }),
        findKey(client, sim.orgId, { id: "5f00000000000000000fffff" }),
      ];
      const [s, p1, p3, missing] = await Promise.all(lookups);
      expect([s?.id, p1?.id, p3?.id, missing]).toEqual([shifted.id, onPage1.id, onPage3.id, undefined]);
      // The first read, its re-read, and one more listing to confirm the missing key.
      expect(pageOnes()).toBe(3);
      expect(sim.requests.filter((r) => r.status === 200)).toHaveLength(9);
    } finally {
      sim.state.addApiKey({});
    }
  });

  it("that never agrees answers the keys it listed, fails the lookups still waiting, and is not kept", async () => {
    const before = sim.state.apiKeys().length;
    const onPage1 = sim.state.apiKeys()[20]!;
    sim.faults.add({
      method: "GET",
      pathPrefix: `/orgs/${sim.orgId}/apiKeys`,
      times: 1_000,
      whenAnswered: () => sim.state.addApiKey({}),
    });
    try {
      const [found, missing] = await Promise.allSettled([
        findKey(client, sim.orgId, { id: onPage1.id }),
        findKey(client, sim.orgId, { id: "5f00000000000000000fffff" }),
      ]);
      expect(found).toMatchObject({ status: "fulfilled", value: { id: onPage1.id } });
      expect(missing.status).toBe("rejected");
      const error = (missing as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(InconsistentListingError);
      expect(error).toMatchObject({ code: "OM_ERR_INCONSISTENT_LISTING", reads: 3 });
      expect(pageOnes()).toBe(3);
      // Once the org is still, the next lookup lists it afresh and may say the key is missing.
      sim.faults.clear();
      expect(await findKey(client, sim.orgId, { id: "5f00000000000000000fffff" })).toBeUndefined();
      expect(pageOnes()).toBe(5);
    } finally {
      for (const extra of sim.state.apiKeys().slice(before)) sim.state.removeApiKey(extra.id);
    }
  });
});

describe("a key the server describes wrongly", () => {
  it("fails only the lookups of that key, naming the field; the org's other keys are found", async () => {
    const good = { id: "5f00000000000000000000a1", publicKey: "abcdefg1", desc: "fine", roles: [] };
    const bad = { id: "5f00000000000000000000a2", publicKey: "abcdefg2", roles: [{ roleName: ["x"] }] };
    sim.faults.add({
      raw: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ results: [good, bad], totalCount: 2 }),
      },
    });
    expect((await findKey(client, sim.orgId, { id: good.id }))?.desc).toBe("fine");
    await expect(findKey(client, sim.orgId, { publicKey: bad.publicKey })).rejects.toThrow(
      /answered 200, but the body does not match the expected schema \(results\[1\]\.roles\[0\]\.roleName/,
    );
    // One listing served both lookups.
    expect(sim.requests.filter((r) => r.status === 200)).toHaveLength(1);
  });
});

/** A transport whose pages are released by the test, to order a PATCH answer before a page. */
function heldPages(pages: Record<number, unknown[]>, totalCount: number) {
  const releases = new Map<number, () => void>();
  const transport: Transport = {
    async request(options: RequestOptions): Promise<JsonResponse> {
      const pageNum = Number(options.query?.pageNum);
      if (pageNum > 1) await new Promise<void>((resolve) => releases.set(pageNum, resolve));
      return {
        status: 200,
        headers: {},
        body: { results: pages[pageNum] ?? [], totalCount },
        url: `http://om.test/api/public/v1.0${options.path}`,
      };
    },
  };
  const release = async (pageNum: number): Promise<void> => {
    while (!releases.has(pageNum)) await new Promise((r) => setImmediate(r));
    releases.get(pageNum)!();
  };
  return { transport, release };
}

describe("keys answered while the listing is read", () => {
  const orgId = "5f0000000000000000000001";
  const key = (id: string, publicKey: string, desc: string) => ({
    id,
    publicKey,
    desc,
    roles: [{ orgId, roleName: "ORG_MEMBER" }],
  });

  it("are not undone by a later page that still holds the key as it was", async () => {
    const a = key("5f00000000000000000000a1", "pubkeyaa", "as listed");
    const b = key("5f00000000000000000000b1", "pubkeybb", "b");
    // The key moved between pages while they were read: page 2 has it again, as it was before the PATCH.
    const { transport, release } = heldPages({ 1: [a], 2: [b, a] }, 2 * PAGE);
    expect((await findKey(transport, orgId, { id: a.id }))?.desc).toBe("as listed");
    rememberKey(transport, orgId, { ...a, desc: "as patched" });
    const waitingForB = findKey(transport, orgId, { publicKey: b.publicKey });
    await release(2);
    expect((await waitingForB)?.id).toBe(b.id);
    expect((await findKey(transport, orgId, { id: a.id }))?.desc).toBe("as patched");
    expect((await findKey(transport, orgId, { publicKey: a.publicKey }))?.desc).toBe("as patched");
  });
});

// Last: the tests above count the digest challenge of the file's first request.
describe("looking a key up", () => {
  it("finds a key by id and by public key, and says undefined for neither", async () => {
    const k = sim.state.apiKeys()[700]!;
    expect((await findKey(client, sim.orgId, { id: k.id }))?.publicKey).toBe(k.publicKey);
    expect((await findKey(client, sim.orgId, { publicKey: k.publicKey }))?.id).toBe(k.id);
    expect(await findKey(client, sim.orgId, { publicKey: "nobody00" })).toBeUndefined();
  });
});

/**
 * An organization's key listing that moves while it is read, and a server that serves smaller pages
 * than asked, through Pulumi's real dynamic-provider host. The simulator changes its state between
 * the pages of one listing (a fault's `whenAnswered`), so each race happens on every run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startSimulator } from "../../simulator";
import type { SimApiKey, Simulator } from "../../simulator/types";
import { type Host, type HostCallError, KEY_TYPE, type Props, urn } from "../support/host";
import { checkThenCreate, type ProviderFixture, providerFixture } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-shft-4e5f-a6b7-RECOGNIZABLE02";
const KEY_URN = urn(KEY_TYPE, "key");
/** The org's size: the admin key and 1,199 others, three pages of 500. */
const ORG_SIZE = 1_200;

let sim: Simulator;
let fixture: ProviderFixture;

function newHost(): Promise<Host> {
  return fixture.newHost({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });
}

/** The org's keys in the server's order. */
const orgKeys = (): SimApiKey[] => sim.state.apiKeys(sim.orgId);

/** Each listing request the server answered, as `pageNum/itemsPerPage`, in the order they came. */
const pagesAsked = (): string[] =>
  sim.requests
    .filter((r) => r.method === "GET" && r.authenticated)
    .map((r) => `${r.query.pageNum}/${r.query.itemsPerPage}`);

/**
 * The org's three pages of 500, then page 1 again, which answered the read, and the rest of that
 * second read, which the host goes on with once the read is answered (waited for here, so that no
 * request of this test lands in the next one's log).
 */
async function expectListingThenPage1Again(): Promise<void> {
  await vi.waitFor(() => expect(pagesAsked()).toHaveLength(6), { timeout: 10_000 });
  const asked = pagesAsked();
  expect([asked[0], asked[3]]).toEqual(["1/500", "1/500"]);
  expect(asked.slice(0, 3).sort()).toEqual(["1/500", "2/500", "3/500"]);
  expect(asked.slice(3).sort()).toEqual(["1/500", "2/500", "3/500"]);
}

/** Runs `change` once the server has answered the next page of the org's listing. */
function afterNextPage(change: () => void): void {
  sim.faults.add({ method: "GET", pathPrefix: `/orgs/${sim.orgId}/apiKeys`, whenAnswered: change });
}

/** What `pulumi up` stored for an adopted key: adopted in a host of its own, nothing moving. */
async function adopted(key: SimApiKey): Promise<Props> {
  const host = await newHost();
  const created = await host.create(
    KEY_URN,
    fixture.withKey({ orgId: sim.orgId, apiKeyId: key.id, desc: "managed" }),
  );
  await host.close();
  sim.resetRequests();
  return created.properties;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: ORG_SIZE - 1, privateKey: PRIVATE_KEY } });
  fixture = await providerFixture();
});

afterAll(async () => {
  await fixture?.close(PRIVATE_KEY);
  await sim?.close();
});

beforeEach(() => {
  sim.faults.clear();
  // Every test starts from an org of exactly ORG_SIZE keys, whatever the one before removed or added.
  const keys = orgKeys();
  for (const extra of keys.slice(ORG_SIZE)) sim.state.removeApiKey(extra.id);
  if (keys.length < ORG_SIZE) sim.state.addApiKeys(ORG_SIZE - keys.length);
  sim.resetRequests();
});

describe("a refresh while the org's keys move", () => {
  it("re-reads a listing whose pages disagree, and keeps a key that a delete on page 1 pushed off page 2", async () => {
    const keys = orgKeys();
    const target = keys[500]!;
    const state = await adopted(target);
    // After page 1 is answered, a key on page 1 is deleted: page 2 now starts one key later.
    afterNextPage(() => sim.state.removeApiKey(keys[10]!.id));
    const refresh = await newHost();
    const r = await refresh.read(target.id, KEY_URN, state);
    expect(r.id).toBe(target.id);
    expect(r.properties).toMatchObject({ apiKeyId: target.id, desc: "managed", adopted: state.adopted });
    // The first read (its pages 2 and 3 said 1,199 keys where page 1 said 1,200), then the re-read,
    // whose page 1 now holds the key: the read is answered from it, while its other pages may still be
    // on the wire.
    await expectListingThenPage1Again();
  });

  it("keeps a key that a rotation on page 1 (one key deleted, one added: the count unchanged) pushed off page 2", async () => {
    const keys = orgKeys();
    const target = keys[500]!;
    const state = await adopted(target);
    afterNextPage(() => {
      sim.state.removeApiKey(keys[10]!.id);
      sim.state.addApiKey({ desc: "rotated in" });
    });
    const refresh = await newHost();
    const r = await refresh.read(target.id, KEY_URN, state);
    expect(r.id).toBe(target.id);
    // The pages agreed, so the first listing looked whole; a key missing from it is gone only if a
    // second listing lacks it too, and that listing's page 1 has it.
    await expectListingThenPage1Again();
  });

  it("reports a key really deleted as gone, on the word of consistent listings only", async () => {
    const keys = orgKeys();
    const target = keys[500]!;
    const state = await adopted(target);
    sim.state.removeApiKey(target.id);
    afterNextPage(() => sim.state.removeApiKey(keys[10]!.id));
    const refresh = await newHost();
    const r = await refresh.read(target.id, KEY_URN, state);
    expect(r.id).toBe("");
    // The listing whose pages disagreed, its re-read, and a second listing to confirm the key is gone.
    const asked = pagesAsked();
    expect(asked.filter((p) => p === "1/500")).toHaveLength(3);
    expect(asked).toHaveLength(9);
  });

  it("fails a refresh whose listing never settles, after three reads, instead of dropping the key", async () => {
    const keys = orgKeys();
    const target = keys[500]!;
    const state = await adopted(target);
    sim.state.removeApiKey(target.id);
    // Someone adds a key after every page the server answers.
    sim.faults.add({
      method: "GET",
      pathPrefix: `/orgs/${sim.orgId}/apiKeys`,
      times: 1_000,
      whenAnswered: () => sim.state.addApiKey({}),
    });
    const refresh = await newHost();
    const err = (await refresh.read(target.id, KEY_URN, state).catch((e) => e)) as HostCallError;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(
      new RegExp(`^OrgApiKey \\(API key id ${target.id} in organization ${sim.orgId}\\): `),
    );
    expect(err.message).toMatch(
      new RegExp(
        `GET /orgs/${sim.orgId}/apiKeys: the organization's key listing kept changing while it was read`,
      ),
    );
    expect(err.message).toMatch(/read 3 times/);
    expect(err.message).toMatch(/Run the command again once those changes have stopped/);
    // The call is named once, at the start of the provider's message; it is the listing the server saw.
    expect(err.message).toMatch(
      new RegExp(`^OrgApiKey \\([^)]*\\): GET /orgs/${sim.orgId}/apiKeys: the organization's key listing`),
    );
    expect(err.message).toMatch(/Run the command again once those changes have stopped$/);
    expect(sim.requests.some((q) => q.path === `/api/public/v1.0/orgs/${sim.orgId}/apiKeys`)).toBe(true);
    expect(err.message).not.toContain(PRIVATE_KEY);
    expect(pagesAsked().filter((p) => p === "1/500")).toHaveLength(3);
  });
});

describe("a server that serves fewer keys a page than asked", () => {
  it("adopting key #1,100 of 1,200 from a server capped at 100 a page finds it, asking pages of the size served", async () => {
    sim.faults.maxItemsPerPage(100);
    const target = orgKeys()[1_100]!;
    const host = await newHost();
    const r = await checkThenCreate(
      host,
      KEY_URN,
      fixture.withKey({ orgId: sim.orgId, apiKeyId: target.id, desc: "adopted from a capped server" }),
    );
    expect(r.id).toBe(target.id);
    expect(sim.state.apiKey(target.id)!.desc).toBe("adopted from a capped server");
    const asked = pagesAsked();
    expect(asked[0]).toBe("1/500");
    expect(asked.slice(1).sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))).toEqual(
      Array.from({ length: 11 }, (_, i) => `${i + 2}/100`),
    );
    const patches = sim.requests.filter((q) => q.method === "PATCH" && q.status === 200);
    expect(patches.map((p) => p.body)).toEqual([{ desc: "adopted from a capped server" }]);
  });
});

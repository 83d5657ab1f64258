/**
 * Two `pulumi up`s' worth of calls in one host at once (100 creates and 100 updates, 16 at a time
 * each, so 32 in flight) share one digest session: one nonce, every `(nonce, nc)` pair used once, no
 * 401 but the ones a nonce's expiry makes, and no fall back to a challenge per request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { SimApiKey, Simulator } from "../../simulator/types";
import {
  byStatus,
  checkThenCreate,
  jobUrn,
  keyUrn,
  type ProviderFixture,
  pool,
  providerFixture,
  replayedNoncePairs,
} from "../faults/support";
import type { Host, Props } from "../support/host";

const PRIVATE_KEY = "5a6b7c8d-twoups-4e9f-a0b1-CONCURRENCY2";
const PARALLEL = 16;

let sim: Simulator;
let fx: ProviderFixture;

beforeAll(async () => {
  // Expiry answered stale=true, as the spec says: what these tests count (stale answers only, one
  // session) is that answer's cost; deployed servers answer stale=false, which the digest session's
  // own suites cover.
  sim = await startSimulator({
    profile: "spec",
    seed: { keys: 600, privateKey: PRIVATE_KEY, randomSeed: 9 },
  });
  fx = await providerFixture();
});

afterAll(async () => {
  await fx?.close();
  for (const h of fx?.hosts ?? []) expect(h.stdout + h.stderr).not.toContain(PRIVATE_KEY);
  await sim?.close();
});

interface Adopted {
  key: SimApiKey;
  outs: Props;
}

/** Adopts `keys` (the update run's resources, from an earlier `pulumi up`). */
async function adopt(host: Host, keys: SimApiKey[], tag: string): Promise<Adopted[]> {
  const results = await pool(keys, PARALLEL, async (key) => {
    const r = await checkThenCreate(
      host,
      keyUrn(`${tag}-${key.id}`),
      fx.withKey({ orgId: sim.orgId, apiKeyId: key.id, desc: `${tag} before`, roles: ["ORG_MEMBER"] }),
    );
    return { key, outs: r.properties };
  });
  return results.map((r) => {
    if (r.status === "rejected") throw r.reason;
    return r.value;
  });
}

/** Runs the two deployments at once and returns what each call gave. */
async function twoUps(host: Host, fresh: SimApiKey[], adopted: Adopted[], tag: string) {
  const creates = pool(fresh, PARALLEL, (key, i) =>
    i % 2 === 0
      ? checkThenCreate(
          host,
          keyUrn(`${tag}-${key.id}`),
          fx.withKey({ orgId: sim.orgId, publicKey: key.publicKey, desc: `${tag} created ${i}` }),
        )
      : checkThenCreate(
          host,
          jobUrn(`${tag}-${i}`),
          fx.withJob({
            groupId: sim.groupId,
            resourceType: "REPLICASET",
            resourceName: `${tag}-${i}`,
            sizeRequestedPerFileBytes: 1_000 + i,
            // Not the database log, whose name a first create may have to learn (one more POST).
            logTypes: ["FTDC"],
            redacted: false,
          }),
        ),
  );
  const updates = pool(adopted, PARALLEL, async ({ key, outs }, i) => {
    const news = fx.withKey({
      orgId: sim.orgId,
      apiKeyId: key.id,
      desc: `${tag} updated ${i}`,
      roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
    });
    const checked = await host.check(keyUrn(`${tag}-${key.id}`), outs, news);
    const diff = await host.diff(key.id, keyUrn(`${tag}-${key.id}`), outs, checked.inputs);
    expect(diff.changes).toBe("DIFF_SOME");
    return host.update(key.id, keyUrn(`${tag}-${key.id}`), outs, {
      ...checked.inputs,
      __provider: news.__provider,
    });
  });
  const [c, u] = await Promise.all([creates, updates]);
  return [...c, ...u];
}

describe("two deployments at once in one host", () => {
  it("share one digest session: one nonce, no nc used twice, no 401, N requests in N round trips", async () => {
    const host = await fx.newHost({
      "opsmanager:baseUrl": sim.url,
      "opsmanager:publicKey": sim.publicKey,
      "opsmanager:privateKey": PRIVATE_KEY,
    });
    const keys = sim.state.apiKeys().slice(1);
    const adopted = await adopt(host, keys.slice(0, 100), "a");
    sim.resetRequests();
    const results = await twoUps(host, keys.slice(100, 200), adopted, "a");
    const wire = [...sim.requests];
    console.log(
      `two ups at once (100 creates + 100 updates, ${2 * PARALLEL} in flight): ${results.length} calls, ` +
        `${results.filter((r) => r.status === "fulfilled").length} succeeded; ${wire.length} requests, by status ${JSON.stringify(byStatus(wire))}; ` +
        `nonces ${new Set(wire.map((q) => q.digest?.nonce)).size}; (nonce, nc) pairs replayed ${replayedNoncePairs(wire).length}`,
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    // 50 key adoptions (the listing is shared and still fresh) + 50 job POSTs + 100 update PATCHes.
    expect(wire.length).toBe(200);
    expect(wire.every((q) => q.authenticated && q.status !== 401)).toBe(true);
    expect(new Set(wire.map((q) => q.digest!.nonce)).size).toBe(1);
    expect(replayedNoncePairs(wire)).toEqual([]);
    for (const { key } of adopted) expect(sim.state.apiKey(key.id)?.desc).toMatch(/^a updated \d+$/);
  });

  it("keep one session when nonces expire every 64 requests under the same load: stale answers only, no replay, no challenge per request", async () => {
    const host = await fx.newHost({
      "opsmanager:baseUrl": sim.url,
      "opsmanager:publicKey": sim.publicKey,
      "opsmanager:privateKey": PRIVATE_KEY,
    });
    const keys = sim.state.apiKeys().slice(201);
    const adopted = await adopt(host, keys.slice(0, 100), "b");
    // Nonces age with the traffic, not a clock: each lives for the 64 requests the server checks after
    // issuing it (twice the 32 in flight), so expiries come every few dozen requests on a busy machine
    // as on a quiet one, and a request re-signed after a stale answer arrives well inside the new
    // nonce's life.
    sim.faults.nonceLifetimeRequests(64);
    sim.resetRequests();
    const results = await twoUps(host, keys.slice(100, 200), adopted, "b");
    sim.faults.clear();
    const wire = [...sim.requests];
    const rejected = wire.filter((q) => q.status === 401);
    const nonces = new Set(wire.filter((q) => q.status !== 401).map((q) => q.digest?.nonce));
    console.log(
      `two ups at once, nonces expiring every 64 requests: ${results.filter((r) => r.status === "fulfilled").length}/${results.length} succeeded; ` +
        `${wire.length} requests, by status ${JSON.stringify(byStatus(wire))}; nonces used ${nonces.size}; ` +
        `requests without credentials ${wire.filter((q) => q.digest === undefined).length}`,
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const answered = wire.filter((q) => q.status !== 401);
    expect(answered.length).toBe(200);
    // Nonces did expire, and every 401 answered a signed request (a nonce that had expired); none asked
    // for a challenge.
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected.every((q) => q.digest !== undefined)).toBe(true);
    expect(wire.filter((q) => q.digest === undefined)).toEqual([]);
    // At most one stale answer per request: each request is re-signed once with the new nonce.
    expect(rejected.length).toBeLessThanOrEqual(200);
    expect(replayedNoncePairs(wire)).toEqual([]);
  });
});

/**
 * What a stale nonce costs when 32 requests meet it at once, measured at the simulator with the client
 * itself (one digest session).
 *
 * "One new challenge" precisely: the 32 requests were all on the wire, signed with the old nonce,
 * before the first answer came back, so the server answers each with a 401 `stale=true` carrying a
 * new nonce of its own: 32 rejected requests are the floor, and no client can do better without
 * knowing the server's nonce lifetime. What the client controls is what comes next: it adopts ONE of
 * those nonces and re-signs all 32 with it (nc 1 to 32), sends no request to fetch a challenge, and
 * resends each request once. So the cost is 32 stale answers + 32 retries, one nonce adopted, zero
 * extra challenge fetches; and the next 32 requests cost 32 round trips with that same nonce.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../provider/client";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { replayedNoncePairs } from "../faults/support";

let sim: Simulator;
const clients: HttpClient[] = [];

beforeAll(async () => {
  // Expiry answered stale=true, as the spec says; deployed servers answer stale=false, which the digest
  // session's own suites cover.
  sim = await startSimulator({ profile: "spec", seed: { keys: 40 } });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim?.close();
});

function client(): HttpClient {
  const c = new HttpClient({ baseUrl: sim.apiRoot, username: sim.publicKey, password: sim.privateKey });
  clients.push(c);
  return c;
}

describe("a stale nonce met by 32 requests at once", () => {
  it("costs 32 stale answers, one adopted nonce and no challenge fetch; the next 32 cost 32 round trips", async () => {
    const c = client();
    const path = `/orgs/${sim.orgId}/apiKeys`;
    await c.request({ method: "GET", path, query: { itemsPerPage: 1 } });
    const old = sim.requests.at(-1)!.digest!.nonce;
    // Every nonce issued so far expires now, by the server's switch rather than its clock: the 32
    // requests all meet the old nonce expired, and the nonces their stale answers carry live the
    // simulator's full lifetime (60 s), however slowly this machine sends the retries.
    sim.faults.expireNonces();
    sim.resetRequests();
    const before = { ...c.stats };

    await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        c.request({ method: "GET", path, query: { itemsPerPage: 1, pageNum: i + 1 } }),
      ),
    );
    const wire = [...sim.requests];
    const stale = wire.filter((q) => q.status === 401);
    const accepted = wire.filter((q) => q.status === 200);
    const adopted = new Set(accepted.map((q) => q.digest!.nonce));
    const challengeFetches = wire.filter((q) => q.digest === undefined).length;
    const roundTrips = c.stats.roundTrips - before.roundTrips;
    console.log(
      `stale nonce, 32 requests at once: ${stale.length} stale answers (each carrying a new nonce), ` +
        `${adopted.size} nonce adopted, ${challengeFetches} challenge fetches, ${roundTrips} round trips, ` +
        `${c.stats.retries - before.retries} retries`,
    );
    expect(stale).toHaveLength(32);
    expect(stale.every((q) => q.digest?.nonce === old)).toBe(true);
    expect(accepted).toHaveLength(32);
    expect(adopted.size).toBe(1);
    expect(adopted.has(old)).toBe(false);
    expect(accepted.map((q) => q.digest!.nc).sort()).toEqual(
      Array.from({ length: 32 }, (_, i) => (i + 1).toString(16).padStart(8, "0")),
    );
    expect(challengeFetches).toBe(0);
    expect(roundTrips).toBe(64);
    // A stale nonce is digest bookkeeping, not a failure: nothing counts as a retry.
    expect(c.stats.retries).toBe(before.retries);
    expect(c.digestMode).toBe("reuse");

    // The adopted nonce serves the next burst.
    sim.resetRequests();
    await Promise.all(
      Array.from({ length: 32 }, (_, i) => c.request({ method: "GET", path, query: { pageNum: i + 1 } })),
    );
    expect(sim.requests).toHaveLength(32);
    expect(sim.requests.every((q) => q.status === 200 && adopted.has(q.digest!.nonce))).toBe(true);
    expect(replayedNoncePairs(sim.requests)).toEqual([]);
  });
});

/**
 * A deployment-shaped load through Pulumi's real dynamic-provider host while the simulator misbehaves
 * the way an overloaded server behind a flaky network does: about 10% of requests answered 503, 5%
 * answered 429 with `Retry-After: 1`, 2% of connections dropped mid-response (after the server acted),
 * and nonces that expire every 2 seconds. The provider is configured as a user would configure it:
 * URL and keys, nothing else.
 *
 * How "no duplicates, none lost" is proven for the log collection jobs. The chaos drops POSTs too, on
 * purpose: a POST whose answer is cut off after the server created the job must not be sent again
 * (that could start a second job), so that create fails with an error saying the job may have been
 * created. Leaving POSTs out of the chaos would prove less. Instead every job carries a unique
 * `resourceName`, and the test holds three books against each other: the jobs the server has, the
 * ids the engine recorded, and the creates reported as uncertain. It proves that each job exists
 * once, that every job on the server is either recorded or was reported uncertain (none lost, none
 * hidden), that every reported-uncertain create did act (the report was honest), and, on the wire,
 * that no POST followed a POST that the server acted on. 503 and 429 from the simulator's chaos are
 * answered before the server acts, as Ops Manager's load shedding and rate limiting do, so retrying
 * a POST after them is safe, and the wire shows it was done.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { RecordedRequest, SimApiKey, Simulator } from "../../simulator/types";
import type { Host, HostCallError } from "../support/host";
import {
  byStatus,
  checkThenCreate,
  jobUrn,
  keyUrn,
  type ProviderFixture,
  pool,
  providerFixture,
  replayedNoncePairs,
} from "./support";

const PRIVATE_KEY = "0c5e8a2f-chaos-4d1b-9e7a-FAULTSUITE01";
const ORG_KEYS = 2_000;
const DECLARED_KEYS = 200;
const JOBS = 50;
const PARALLEL = 16;
const ROLE_SETS = [["ORG_MEMBER"], ["ORG_READ_ONLY"], ["ORG_GROUP_CREATOR", "ORG_MEMBER"], ["ORG_OWNER"]];
const UNCERTAIN = /The server may have created the log collection job: it was not sent again/;

let sim: Simulator;
let fx: ProviderFixture;
let host: Host;

interface Declared {
  kind: "key";
  key: SimApiKey;
  desc: string;
  roles: string[];
  props: Record<string, unknown>;
}
interface DeclaredJob {
  kind: "job";
  name: string;
  props: Record<string, unknown>;
}

const orgRoles = (k: SimApiKey) =>
  k.roles
    .filter((r) => r.orgId !== undefined)
    .map((r) => r.roleName)
    .sort();

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: ORG_KEYS - 1, privateKey: PRIVATE_KEY, randomSeed: 4 } });
  fx = await providerFixture();
  host = await fx.newHost({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });
});

afterAll(async () => {
  await fx?.close();
  for (const h of fx?.hosts ?? []) expect(h.stdout + h.stderr).not.toContain(PRIVATE_KEY);
  await sim?.close();
});

describe("a deployment of 200 keys and 50 jobs against a failing server", () => {
  it("succeeds with every key as declared and every job created exactly once, the uncertain ones reported", async () => {
    const keys = sim.state.apiKeys().filter((k) => k.publicKey !== sim.publicKey);
    expect(keys.length + 1).toBe(ORG_KEYS);
    const resources: Array<Declared | DeclaredJob> = [];
    for (let i = 0; i < DECLARED_KEYS; i += 1) {
      const key = keys[i * Math.floor(keys.length / DECLARED_KEYS)]!;
      // One key in five is declared as it already is: adopting it sends nothing.
      const same = i % 5 === 0;
      const desc = same ? key.desc : `deployment key ${i}`;
      const roles = same ? orgRoles(key) : ROLE_SETS[i % ROLE_SETS.length]!;
      const by = i % 2 === 0 ? { apiKeyId: key.id } : { publicKey: key.publicKey };
      resources.push({
        kind: "key",
        key,
        desc,
        roles,
        props: fx.withKey({ orgId: sim.orgId, ...by, desc, roles: [...roles].reverse() }),
      });
      if (i % 4 === 0) {
        const name = `rs-chaos-${i / 4}`;
        resources.push({
          kind: "job",
          name,
          props: fx.withJob({
            groupId: sim.groupId,
            resourceType: "REPLICASET",
            resourceName: name,
            sizeRequestedPerFileBytes: 1_000_000 + i,
            // The deployed server's spelling: a create sends the one declared, and this test's books count
            // POSTs that acted (a DATABASE refused first is test/faults/uncertain-create.test.ts's case).
            logTypes: ["MONGODB", "AUTOMATION_AGENT"],
            redacted: i % 8 === 0,
          }),
        });
      }
    }
    expect(resources.filter((r) => r.kind === "job")).toHaveLength(JOBS);

    sim.resetRequests();
    const jobsBefore = sim.state.jobs().length;
    sim.faults.nonceLifetime(2_000);
    sim.faults.chaos({ rate503: 0.1, rate429: 0.05, retryAfterSeconds: 1, rateDropMid: 0.02, seed: 20260 });
    // 2% of 50 POSTs is often none: one POST is always cut off after acting, on top of the chaos.
    sim.faults.add({ method: "POST", drop: "mid" });
    const started = performance.now();
    const results = await pool(resources, PARALLEL, (r) =>
      checkThenCreate(host, r.kind === "key" ? keyUrn(`key-${r.key.id}`) : jobUrn(r.name), r.props),
    );
    const elapsedMs = performance.now() - started;
    sim.faults.clear();
    const wire = [...sim.requests];

    // Every outcome: a success, or a job create reported as uncertain.
    const uncertain = new Set<string>();
    const otherFailures: string[] = [];
    const recorded = new Map<string, string>();
    results.forEach((result, i) => {
      const r = resources[i]!;
      if (result.status === "fulfilled") {
        if (r.kind === "job") recorded.set(r.name, result.value.id);
        return;
      }
      const message = (result.reason as HostCallError).message;
      if (r.kind === "job" && UNCERTAIN.test(message)) uncertain.add(r.name);
      else otherFailures.push(`${r.kind === "job" ? r.name : r.key.id}: ${message}`);
    });
    const succeeded = results.filter((r) => r.status === "fulfilled").length;

    // Keys: the server holds exactly what was declared.
    const wrong = resources.flatMap((r) => {
      if (r.kind !== "key") return [];
      const now = sim.state.apiKey(r.key.id)!;
      const ok = now.desc === r.desc && JSON.stringify(orgRoles(now)) === JSON.stringify([...r.roles].sort());
      return ok ? [] : [`${r.key.id}: ${now.desc} ${orgRoles(now).join(",")}`];
    });

    // Jobs: the three books.
    const jobs = sim.state.jobs().slice(jobsBefore);
    const perName = new Map<string, string[]>();
    for (const job of jobs) perName.set(job.resourceName, [...(perName.get(job.resourceName) ?? []), job.id]);
    const duplicates = [...perName].filter(([, ids]) => ids.length > 1).map(([name]) => name);
    const lost = [...perName.keys()].filter((name) => !recorded.has(name) && !uncertain.has(name));
    const recordedButAbsent = [...recorded].filter(([name, id]) => perName.get(name)?.[0] !== id);
    const uncertainButAbsent = [...uncertain].filter((name) => !perName.has(name));

    // The wire: per job, the POSTs in order; nothing follows a POST the server acted on.
    const authenticated = wire.filter((q) => q.authenticated);
    const postsByName = new Map<string, RecordedRequest[]>();
    for (const q of authenticated.filter((q) => q.method === "POST")) {
      const name = (q.body as { resourceName: string }).resourceName;
      postsByName.set(name, [...(postsByName.get(name) ?? []), q]);
    }
    const acted = (q: RecordedRequest) => q.fault === undefined || q.fault.endsWith("drop-mid");
    const resentAfterActing = [...postsByName].filter(([, posts]) => posts.slice(0, -1).some(acted));
    const postsActed = [...postsByName.values()].flat().filter(acted).length;
    // Every faulted request but a cut-off POST was sent again: the client's retries as seen on the wire.
    const faulted = authenticated.filter((q) => q.fault !== undefined);
    const cutPosts = faulted.filter((q) => q.method === "POST" && q.fault?.endsWith("drop-mid")).length;
    const faultKinds: Record<string, number> = {};
    for (const q of faulted) faultKinds[q.fault!] = (faultKinds[q.fault!] ?? 0) + 1;
    const stale401 = wire.filter((q) => q.status === 401 && q.digest !== undefined).length;

    const operations = resources.length * 2;
    console.log(
      [
        `deployment under chaos: ${resources.length} resources (${DECLARED_KEYS} keys of ${ORG_KEYS}, ${JOBS} jobs), ${PARALLEL} at a time, ${(elapsedMs / 1000).toFixed(1)} s`,
        `  operations (check + create): ${operations}; succeeded ${resources.length + succeeded}; job creates reported uncertain ${uncertain.size}; other failures ${otherFailures.length}`,
        `  requests: ${wire.length}; by status ${JSON.stringify(byStatus(wire))} (a response cut off counts under its status)`,
        `  faults injected: ${JSON.stringify(faultKinds)}; retries on the wire ${faulted.length - cutPosts}; 401 to a stale nonce ${stale401}`,
        `  jobs on the server ${jobs.length} = recorded ${recorded.size} + reported uncertain ${uncertain.size}; duplicates ${duplicates.length}; POSTs that acted ${postsActed}`,
      ].join("\n"),
    );

    expect(otherFailures).toEqual([]);
    expect(wrong).toEqual([]);
    expect(duplicates).toEqual([]);
    expect(lost).toEqual([]);
    expect(recordedButAbsent).toEqual([]);
    expect(uncertainButAbsent).toEqual([]);
    expect(jobs).toHaveLength(recorded.size + uncertain.size);
    expect(recorded.size + uncertain.size).toBe(JOBS);
    expect(resentAfterActing).toEqual([]);
    expect(postsActed).toBe(jobs.length);
    // Each uncertain create is a POST the wire shows cut off after the server acted, and nothing else.
    expect(cutPosts).toBe(uncertain.size);
    // The chaos did happen, and the provider rode it out.
    expect(faultKinds["chaos-503"]).toBeGreaterThan(10);
    expect(faultKinds["chaos-429"]).toBeGreaterThan(5);
    expect(faultKinds["drop-mid"]).toBe(1);
    expect(uncertain.size).toBeGreaterThanOrEqual(1);
    expect(replayedNoncePairs(wire)).toEqual([]);
  });
});

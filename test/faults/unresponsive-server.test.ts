/**
 * A server that stops answering: every call fails within the configured timeout (per attempt) times
 * the attempts, plus the retry backoff, with a message naming the call and the setting to change; no
 * connection is left open and the host keeps serving. Through the real host, `opsmanager:timeoutSeconds`
 * set to 1 as a user would.
 */
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveRetryPolicy } from "../../provider/client/retry";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { until } from "../support/fake-clock";
import type { HostCallError } from "../support/host";
import { checkThenCreate, jobUrn, keyUrn, type ProviderFixture, providerFixture } from "./support";

const PRIVATE_KEY = "7b2e4d6f-hang-4a8c-9d0e-FAULTSUITE03";
const TIMEOUT_S = 1;

let sim: Simulator;
let fx: ProviderFixture;
let silent: net.Server;
const silentSockets = new Set<net.Socket>();
/** Request lines the silent server received, e.g. `GET /api/public/v1.0/orgs/…`. */
const silentRequests: string[] = [];

/** The longest a retried call may take: every attempt times out, every backoff is its largest. */
function worstCaseMs(): number {
  const policy = resolveRetryPolicy();
  let total = policy.maxAttempts * TIMEOUT_S * 1000;
  for (let i = 0; i < policy.maxAttempts - 1; i += 1) {
    total += Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** i);
  }
  return Math.min(total, policy.maxElapsedMs + TIMEOUT_S * 1000);
}

const config = (baseUrl: string) => ({
  "opsmanager:baseUrl": baseUrl,
  "opsmanager:publicKey": sim.publicKey,
  "opsmanager:privateKey": PRIVATE_KEY,
  "opsmanager:timeoutSeconds": String(TIMEOUT_S),
});

async function timed<T>(work: Promise<T>): Promise<{ error: HostCallError; ms: number }> {
  const started = performance.now();
  const error = (await work.then(
    () => undefined,
    (e) => e,
  )) as HostCallError;
  return { error, ms: performance.now() - started };
}

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 3, privateKey: PRIVATE_KEY } });
  fx = await providerFixture();
  // Accepts connections, reads whatever comes, never answers.
  silent = net.createServer((socket) => {
    silentSockets.add(socket);
    let head = "";
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      for (let end = head.indexOf("\r\n\r\n"); end >= 0; end = head.indexOf("\r\n\r\n")) {
        silentRequests.push(head.slice(0, head.indexOf("\r\n")));
        head = head.slice(end + 4);
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => silentSockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await fx?.close();
  await sim?.close();
  for (const s of silentSockets) s.destroy();
  await new Promise((r) => silent?.close(r));
});

describe("a server that stops answering", () => {
  it("a read fails after its attempts, each cut at the timeout, naming the call and the timeout setting", async () => {
    const silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    const [simHost, silentHost, silentJobHost] = await Promise.all([
      fx.newHost(config(sim.url)),
      fx.newHost(config(silentUrl)),
      fx.newHost(config(silentUrl)),
    ]);
    // The simulator authenticates, then holds every request open; the silent server holds the first one.
    sim.faults.add({ hang: true, times: 1_000 });
    sim.resetRequests();
    const key = sim.state.apiKeys()[1]!;
    const [hung, mute, muteJob] = await Promise.all([
      timed(checkThenCreate(simHost, keyUrn("hung"), fx.withKey({ orgId: sim.orgId, apiKeyId: key.id }))),
      timed(checkThenCreate(silentHost, keyUrn("mute"), fx.withKey({ orgId: sim.orgId, apiKeyId: key.id }))),
      timed(
        checkThenCreate(
          silentJobHost,
          jobUrn("mute-job"),
          fx.withJob({
            groupId: sim.groupId,
            resourceType: "CLUSTER",
            resourceName: "c0",
            sizeRequestedPerFileBytes: 1,
            logTypes: ["FTDC"],
            redacted: false,
          }),
        ),
      ),
    ]);
    sim.faults.clear();
    const attempts = resolveRetryPolicy().maxAttempts;
    console.log(
      `unresponsive server: the simulator holding requests failed after ${(hung.ms / 1000).toFixed(1)} s, ` +
        `a silent socket after ${(mute.ms / 1000).toFixed(1)} s (a create ${(muteJob.ms / 1000).toFixed(1)} s) (bound ${(worstCaseMs() / 1000).toFixed(1)} s: ` +
        `${attempts} attempts × ${TIMEOUT_S} s + backoff)`,
    );

    const listing = `/orgs/${sim.orgId}/apiKeys`;
    // The message names the call once, at its start (after the resource); the absolute URL it was sent
    // to is the one each server saw.
    const sentTo = `/api/public/v1.0${listing}?pageNum=1&itemsPerPage=500`;
    expect(
      sim.requests.some((q) => q.method === "GET" && `${q.path}?${new URLSearchParams(q.query)}` === sentTo),
    ).toBe(true);
    expect(silentRequests).toContain(`GET ${sentTo} HTTP/1.1`);
    for (const [{ error, ms }, base] of [
      [hung, sim.url],
      [mute, silentUrl],
    ] as const) {
      expect(error.message).toContain(`GET ${listing} timed out: no complete response within 1000 ms`);
      expect(error.message).toContain(`if the server at ${new URL(base).host} is slow`);
      expect(error.message).toMatch(new RegExp(`^OrgApiKey \\([^)]*\\): GET ${listing} timed out`));
      expect(error.message).toContain("opsmanager:timeoutSeconds");
      expect(error.message).not.toContain(PRIVATE_KEY);
      expect(ms).toBeGreaterThanOrEqual(attempts * TIMEOUT_S * 1000 - 50);
      // No longer than the policy allows, counted rather than timed: its attempts, each cut at the timeout.
      expect(error.message).toMatch(new RegExp(`; ${attempts} attempts over \\d+\\.\\d s`));
    }
    // Every attempt reached the simulator and was given up: nothing was sent beyond the attempts.
    const held = sim.requests.filter((q) => q.fault === "hang");
    expect(held).toHaveLength(attempts);
    // A create sends a bodyless request for the challenge first, so that its body crosses the wire once;
    // that request went unanswered, so the POST was never sent, and retrying it was safe.
    const jobPath = `/groups/${sim.groupId}/logCollectionJobs`;
    expect(muteJob.error.message).toContain(
      `GET ${jobPath} (the bodyless request that fetches the authentication challenge, sent before the POST) timed out: no complete response within 1000 ms; the POST itself was not sent, so the server did not act on it`,
    );
    expect(muteJob.error.message).toContain("No log collection job was created");
    expect(muteJob.error.message).not.toContain("may have");
    expect(muteJob.error.message).toContain("opsmanager:timeoutSeconds");
    expect(muteJob.ms).toBeGreaterThanOrEqual(attempts * TIMEOUT_S * 1000 - 50);
    expect(muteJob.error.message).toMatch(new RegExp(`; ${attempts} attempts over \\d+\\.\\d s`));
    // The silent server saw one request per attempt of each call, and never the POST.
    const silentPath = (p: string) => `/api/public/v1.0${p}`;
    expect(silentRequests.filter((l) => l.startsWith(`GET ${silentPath(listing)}?`))).toHaveLength(attempts);
    expect(silentRequests.filter((l) => l === `GET ${silentPath(jobPath)} HTTP/1.1`)).toHaveLength(attempts);
    expect(silentRequests).toHaveLength(2 * attempts);
    // Nothing hangs: every connection the client opened to the silent server is closed again, by the
    // hosts, which are still running (one left open would end this test on its timeout)...
    await until(() => silentSockets.size === 0);
    // ...and the hosts keep answering.
    const after = await simHost.create(keyUrn("after"), fx.withKey({ orgId: sim.orgId, apiKeyId: key.id }));
    expect(after.id).toBe(key.id);
    expect(silentHost.exited).toBe(false);
  });

  it("a create is sent once, fails at the timeout and says the job may exist", async () => {
    const host = await fx.newHost(config(sim.url));
    // Warm the digest session so that the POST itself is what hangs.
    await checkThenCreate(
      host,
      keyUrn("warm"),
      fx.withKey({ orgId: sim.orgId, apiKeyId: sim.state.apiKeys()[1]!.id }),
    );
    sim.faults.add({ method: "POST", hang: true, times: 100 });
    sim.resetRequests();
    const { error, ms } = await timed(
      checkThenCreate(
        host,
        jobUrn("hung-job"),
        fx.withJob({
          groupId: sim.groupId,
          resourceType: "CLUSTER",
          resourceName: "c0",
          sizeRequestedPerFileBytes: 1,
          logTypes: ["FTDC"],
          redacted: false,
        }),
      ),
    );
    sim.faults.clear();
    expect(error.message).toContain(
      `POST /groups/${sim.groupId}/logCollectionJobs timed out: no complete response within 1000 ms`,
    );
    expect(error.message).toContain("The server may have created the log collection job");
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 50);
    // Cut once at the timeout and not retried: one attempt, which the message does not count...
    expect(error.message).not.toMatch(/attempts? over/);
    // ...and, once the host has exited and no client can send more, one POST on the wire.
    await host.close();
    await sim.idle();
    expect(sim.requests.filter((q) => q.method === "POST")).toHaveLength(1);
  });
});

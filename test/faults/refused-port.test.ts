/**
 * A wrong port in `opsmanager:baseUrl`, through the real host: ten resources created at once (log
 * collection jobs, each its own POST) all fail with the call, the refusal and the setting to check,
 * after the short window one of them retries for all, not each after its own full retry budget. The
 * server started on that port is then used at once.
 */
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETRY_DEFAULTS } from "../../provider/client/retry";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import type { HostCallError } from "../support/host";
import { checkThenCreate, jobUrn, type ProviderFixture, pool, providerFixture } from "./support";

const PRIVATE_KEY = "5d1c2b3a-refu-4sed-9port-FAULTSUITE04";
const SEED = { keys: 3, privateKey: PRIVATE_KEY };

let fx: ProviderFixture;
let sim: Simulator | undefined;

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  fx = await providerFixture();
});

afterAll(async () => {
  await fx?.close();
  await sim?.close();
});

describe("a base URL whose port nothing listens on", () => {
  it("ten resources fail together in seconds, one of them having retried for all; the server started there is then used", async () => {
    // The seeded ids, from a simulator that is then stopped: the same seed gives the same ids.
    const seeded = await startSimulator({ seed: SEED });
    const { orgId, publicKey } = seeded;
    const { groupId } = seeded;
    await seeded.close();

    const port = await freePort();
    const host = await fx.newHost({
      "opsmanager:baseUrl": `http://127.0.0.1:${port}`,
      "opsmanager:publicKey": publicKey,
      "opsmanager:privateKey": PRIVATE_KEY,
    });
    const job = (name: string) =>
      checkThenCreate(
        host,
        jobUrn(name),
        fx.withJob({
          groupId,
          resourceType: "CLUSTER",
          resourceName: name,
          sizeRequestedPerFileBytes: 1,
          logTypes: ["FTDC"],
          redacted: false,
        }),
      );
    const names = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const started = performance.now();
    const results = await pool(names, names.length, job);
    const ms = performance.now() - started;
    const messages = results.map((r) => {
      expect(r.status).toBe("rejected");
      return ((r as PromiseRejectedResult).reason as HostCallError).message;
    });
    console.log(
      `wrong port through the host: ten resources failed in ${(ms / 1000).toFixed(1)} s\n${messages.join("\n")}`,
    );
    const jobs = `/groups/${groupId}/logCollectionJobs`;
    for (const message of messages) {
      expect(message).toMatch(
        new RegExp(
          `^LogCollectionJob \\(project ${groupId}\\): GET ${jobs} \\(the bodyless request that fetches the authentication challenge, sent before the POST\\) failed: the connection was refused by 127\\.0\\.0\\.1:${port}; ` +
            "check the host and port of the base URL \\(opsmanager:baseUrl[^)]*\\) and that the server is running \\[ECONNREFUSED\\]",
        ),
      );
      expect(message).toContain("No log collection job was created");
      expect(message).not.toContain(PRIVATE_KEY);
    }
    // One resource's call retried, for all of them; the other nine made one attempt each (an error not
    // retried says nothing of attempts). What "in seconds, not ten retry budgets" meant, counted rather
    // than timed: one call's retries, within the retry policy's cap, and none by the others.
    const retried = messages.map((m) => / (\d+) attempts over \d+\.\d s/.exec(m)).filter((m) => m !== null);
    expect(retried).toHaveLength(1);
    const attempts = Number(retried[0]![1]);
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(attempts).toBeLessThanOrEqual(RETRY_DEFAULTS.maxAttempts);
    expect(messages.filter((m) => /attempts? over/.test(m))).toHaveLength(1);

    // The server starts on that port: the next resource reaches it, without waiting on the refusals.
    sim = await startSimulator({ port, seed: SEED });
    expect(sim.orgId).toBe(orgId);
    const created = await job("after");
    expect(sim.state.jobs(groupId).map((j) => j.id)).toEqual([created.id]);
  });
});

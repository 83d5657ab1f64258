/**
 * The host caches a provider before its `configure` finishes (NOTES.md; `getProvider` in
 * `@pulumi/pulumi/cmd/dynamic-provider`), so the calls that arrive with the first one run against a
 * provider whose configuration may not be in force yet. They must wait for it. The host here has a
 * decoy server and decoy credentials in its environment, which the provider reads only when stack
 * config lacks a setting: any call that ran before configuration took effect would go to the decoy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import {
  checkThenCreate,
  jobUrn,
  keyUrn,
  type ProviderFixture,
  providerFixture,
  replayedNoncePairs,
} from "../faults/support";

const PRIVATE_KEY = "1f2e3d4c-race-4b5a-8c7d-CONCURRENCY1";
const DECOY_KEY = "aaaaaaaa-decoy-4bbb-8ccc-DECOYDECOY00";

let sim: Simulator;
let decoy: Simulator;
let fx: ProviderFixture;

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 40, privateKey: PRIVATE_KEY } });
  decoy = await startSimulator({ seed: { keys: 40, publicKey: "decoyusr", privateKey: DECOY_KEY } });
  fx = await providerFixture();
});

afterAll(async () => {
  await fx?.close();
  await sim?.close();
  await decoy?.close();
});

describe("calls that race configure", () => {
  it("32 calls of both resource types sent the moment Configure returns all use the stack config", async () => {
    for (let round = 0; round < 3; round += 1) {
      sim.resetRequests();
      const host = await fx.newHost(null, {
        OPSMANAGER_BASE_URL: decoy.url,
        OPSMANAGER_PUBLIC_KEY: "decoyusr",
        OPSMANAGER_PRIVATE_KEY: DECOY_KEY,
        OPSMANAGER_TIMEOUT_SECONDS: "0.001",
      });
      // As the engine does: Configure, then every resource's calls at once. Nothing is warm: the first
      // call of each type deserializes its provider and starts its configure; the others find it cached.
      await host.configure({
        "opsmanager:baseUrl": sim.url,
        "opsmanager:publicKey": sim.publicKey,
        "opsmanager:privateKey": PRIVATE_KEY,
        "opsmanager:timeoutSeconds": "30",
      });
      const keys = sim.state.apiKeys().slice(1, 17);
      const calls = [
        ...keys.map((k, i) =>
          i % 2 === 0
            ? host.create(
                keyUrn(`k${i}`),
                fx.withKey({ orgId: sim.orgId, apiKeyId: k.id, desc: `race ${round}` }),
              )
            : checkThenCreate(
                host,
                keyUrn(`k${i}`),
                fx.withKey({ orgId: sim.orgId, publicKey: k.publicKey }),
              ),
        ),
        ...Array.from({ length: 16 }, (_, i) =>
          (i % 2 === 0
            ? host.create.bind(host)
            : (u: string, p: Record<string, unknown>) => checkThenCreate(host, u, p))(
            jobUrn(`j${i}`),
            fx.withJob({
              groupId: sim.groupId,
              resourceType: "CLUSTER",
              resourceName: `race-${round}-${i}`,
              sizeRequestedPerFileBytes: 1,
              logTypes: ["FTDC"],
              redacted: false,
            }),
          ),
        ),
      ];
      const results = await Promise.allSettled(calls);
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      // Everything went to the configured server with the configured key; the decoy saw nothing.
      expect(decoy.requests).toEqual([]);
      const signed = sim.requests.filter((q) => q.digest !== undefined);
      expect(signed.length).toBeGreaterThan(0);
      expect(new Set(signed.map((q) => q.digest!.username))).toEqual(new Set([sim.publicKey]));
      expect(sim.requests.every((q) => q.status !== 401 || q.digest === undefined)).toBe(true);
      // Both resource types share the client that configuration built: one challenge, one nonce.
      expect(sim.requests.filter((q) => q.status === 401)).toHaveLength(1);
      expect(new Set(signed.map((q) => q.digest!.nonce)).size).toBe(1);
      expect(replayedNoncePairs(sim.requests)).toEqual([]);
      await host.close();
    }
  });
});

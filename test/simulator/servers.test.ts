/**
 * Several simulators started at once (simulator/servers.ts, `startSimulators`): each its own Ops
 * Manager, the first the single simulator's, and a start that fails part way leaves nothing listening.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_GROUP_ID,
  DEFAULT_ORG_ID,
  DEFAULT_PRIVATE_KEY,
  DEFAULT_PUBLIC_KEY,
  serverStateFile,
  startSimulator,
  startSimulators,
} from "../../simulator";
import { accepts, freePortRun, release, secondPortHeld } from "./ports";
import { DigestClient, json, type ListBody } from "./support";

describe("startSimulators", () => {
  it("starts each server its own world, named sim1, sim2, the first as the single simulator is", async () => {
    const single = await startSimulator({ seed: { keys: 3 } });
    const sims = await startSimulators(2, { seed: { keys: 3 } });
    try {
      const [sim1, sim2] = [sims[0]!, sims[1]!];
      expect(sims.map((s) => s.name)).toEqual(["sim1", "sim2"]);
      expect(sim1).toMatchObject({
        orgId: DEFAULT_ORG_ID,
        groupId: DEFAULT_GROUP_ID,
        publicKey: DEFAULT_PUBLIC_KEY,
        privateKey: DEFAULT_PRIVATE_KEY,
      });
      expect(sim1.state.apiKeys()).toEqual(single.state.apiKeys());
      expect(sim2).toMatchObject({
        orgId: "5f0000000000000000000101",
        groupId: "5f0000000000000000000102",
        publicKey: "simadmin2",
        privateKey: "00000000-sim0-4000-8000-000000000002",
      });
      expect(sim2.port).not.toBe(sim1.port);
      // No id, public key or private key of one is the other's, the admin key's included.
      const held = (sim: typeof sim1) =>
        sim.state.apiKeys().flatMap((k) => [k.id, k.publicKey, k.privateKey]);
      expect(held(sim1).filter((v) => held(sim2).includes(v))).toEqual([]);
      expect(sim2.state.apiKeys(sim2.orgId)).toHaveLength(4);

      const own = await new DigestClient(sim2).call("GET", `/orgs/${sim2.orgId}/apiKeys`);
      expect(own.status).toBe(200);
      expect(json<ListBody>(own).results.map((k) => k.id)).toEqual(
        sim2.state.apiKeys(sim2.orgId).map((k) => k.id),
      );

      sim1.resetRequests();
      sim2.resetRequests();
      const other = new DigestClient(sim2, sim1.publicKey, sim1.privateKey);
      expect((await other.call("GET", `/orgs/${sim2.orgId}/apiKeys`)).status).toBe(401);
      expect(sim2.requests.map((r) => [r.digest?.username, r.authenticated, r.status])).toEqual([
        [undefined, false, 401],
        [sim1.publicKey, false, 401],
      ]);
      expect(sim1.requests).toEqual([]);
    } finally {
      await Promise.all([single.close(), ...sims.map((s) => s.close())]);
    }
  });

  it("listens on consecutive ports from options.port", async () => {
    const first = await freePortRun(2);
    const sims = await startSimulators(2, { port: first });
    try {
      expect(sims.map((s) => [s.name, s.port])).toEqual([
        ["sim1", first],
        ["sim2", first + 1],
      ]);
    } finally {
      await Promise.all(sims.map((s) => s.close()));
    }
  });

  it("when one cannot listen, closes those already started and throws its listen error, which names its port", async () => {
    const { first, holder } = await secondPortHeld();
    try {
      await expect(startSimulators(3, { port: first })).rejects.toMatchObject({
        code: "EADDRINUSE",
        port: first + 1,
      });
      expect(await accepts(first)).toBe(false);
    } finally {
      await release(holder);
    }
  });

  it.each([
    [0, {}],
    [17, {}],
    [1.5, {}],
    [2, { port: 65535 }],
  ])("refuses %s servers (%j) with a RangeError", async (count, options) => {
    await expect(startSimulators(count, options)).rejects.toBeInstanceOf(RangeError);
  });
});

describe("serverStateFile", () => {
  it("keeps the first server's file as given and puts -simN before the others' extension", () => {
    expect(serverStateFile("state/sim.json", 1)).toBe("state/sim.json");
    expect(serverStateFile("state/sim.json", 2)).toBe("state/sim-sim2.json");
    expect(serverStateFile("/var/tmp/sim", 3)).toBe("/var/tmp/sim-sim3");
    expect(serverStateFile(".simstate", 2)).toBe(".simstate-sim2");
    expect(serverStateFile("a.b/sim.state.json", 16)).toBe("a.b/sim.state-sim16.json");
  });
});

/**
 * The simulator's state (simulator/state.ts, simulator/state-file.ts): what a seed generates, and a
 * state file one simulator writes and the next loads.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import { DigestClient, json, validJobFor } from "./support";

const validJob = () => validJobFor();

describe("state", () => {
  it("the same seed gives the same keys and a different seed different ones", async () => {
    const a = await startSimulator({ seed: { keys: 4 } });
    const b = await startSimulator({ seed: { keys: 4 } });
    const c = await startSimulator({ seed: { keys: 4, randomSeed: 9 } });
    try {
      expect(a.state.apiKeys()).toEqual(b.state.apiKeys());
      expect(a.state.apiKeys()).not.toEqual(c.state.apiKeys());
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it("a state file written by one simulator is loaded by the next", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const first = await startSimulator({
        stateFile,
        seed: { keys: 2, publicKey: "filekey", privateKey: "11111111-2222-4333-8444-555555555555" },
      });
      const client = new DigestClient(first);
      const key = first.state.apiKeys(first.orgId)[1];
      if (!key) throw new Error("no generated key");
      expect(
        (await client.call("PATCH", `/orgs/${first.orgId}/apiKeys/${key.id}`, { roles: ["ORG_MEMBER"] }))
          .status,
      ).toBe(200);
      const job = json<{ id: string }>(
        await client.call("POST", `/groups/${first.groupId}/logCollectionJobs`, validJob()),
      );
      await first.close();
      const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { apiKeys: unknown[] };
      expect(saved.apiKeys).toHaveLength(3);
      expect(fs.readdirSync(dir)).toEqual(["state.json"]);

      const second = await startSimulator({ stateFile });
      try {
        expect(second.publicKey).toBe("filekey");
        expect(second.privateKey).toBe("11111111-2222-4333-8444-555555555555");
        expect(second.state.apiKey(key.id)?.roles.filter((r) => r.orgId)).toEqual([
          { orgId: first.orgId, roleName: "ORG_MEMBER" },
        ]);
        expect(second.state.jobs().map((j) => j.id)).toEqual([job.id]);
        const added = second.state.addApiKey({});
        expect(first.state.apiKeys().map((k) => k.id)).not.toContain(added.id);
        expect((await new DigestClient(second).call("GET", `/orgs/${second.orgId}/apiKeys`)).status).toBe(
          200,
        );
      } finally {
        await second.close();
      }
      const third = await startSimulator({ stateFile });
      expect(third.state.apiKeys()).toHaveLength(4);
      await third.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an access-list entry's recorded use is kept in the state file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const first = await startSimulator({ stateFile, seed: { keys: 0 } });
      const admin = new DigestClient(first);
      const entries = `/orgs/${first.orgId}/apiKeys/5f0000000000000000000003/accessList`;
      expect((await admin.call("POST", entries, [{ ipAddress: "127.0.0.1" }])).status).toBe(200);
      expect((await admin.call("GET", `/orgs/${first.orgId}/apiKeys`)).status).toBe(200);
      const used = first.state.accessList("5f0000000000000000000003")[0];
      // The POST that added the entry came before it, so only the GET is a use.
      expect(used).toMatchObject({ count: 1, lastUsedAddress: "127.0.0.1" });
      await first.close();

      const second = await startSimulator({ stateFile });
      try {
        expect(second.state.accessList("5f0000000000000000000003")).toEqual([used]);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

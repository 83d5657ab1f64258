/**
 * The create of a log collection job (simulator/job-create.ts) in both profiles: what is stored, every
 * field's rule, the project's id. The rest of a job's life is in log-collection-jobs.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { BOTH, DB_LOG, DigestClient, type ErrorBody, json, validJobFor } from "./support";

describe.each(BOTH)("a log collection job's create (%s profile)", (profile) => {
  let sim: Simulator;
  let client: DigestClient;
  beforeAll(async () => {
    sim = await startSimulator({ profile });
    client = new DigestClient(sim);
  });
  const validJob = () => validJobFor(profile);
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());

  it("a valid log collection job is created with 201 and a 24-hex id, and stored", async () => {
    const before = sim.state.jobs(sim.groupId).length;
    const reply = await client.call("POST", `/groups/${sim.groupId}/logCollectionJobs`, validJob());
    expect(reply.status).toBe(201);
    const { id } = json<{ id: string }>(reply);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(Object.keys(json<object>(reply))).toEqual(["id"]);
    const jobs = sim.state.jobs(sim.groupId);
    expect(jobs).toHaveLength(before + 1);
    expect(jobs.at(-1)).toMatchObject({ id, groupId: sim.groupId, ...validJob() });
  });

  it("every log collection job field is required and validated", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ resourceType: undefined }, "MISSING_ATTRIBUTE"],
      [{ resourceType: "SHARD" }, "INVALID_ENUM_VALUE"],
      [{ resourceName: "" }, "INVALID_ATTRIBUTE"],
      [{ resourceName: 5 }, "INVALID_ATTRIBUTE"],
      [{ sizeRequestedPerFileBytes: 0 }, "INVALID_ATTRIBUTE"],
      [{ sizeRequestedPerFileBytes: 1.5 }, "INVALID_ATTRIBUTE"],
      [{ sizeRequestedPerFileBytes: "10" }, "INVALID_ATTRIBUTE"],
      [{ logTypes: [] }, "INVALID_ATTRIBUTE"],
      [{ logTypes: [DB_LOG[profile], "KERNEL"] }, "INVALID_ENUM_VALUE"],
      [{ redacted: "yes" }, "INVALID_ATTRIBUTE"],
      [{ redacted: undefined }, "MISSING_ATTRIBUTE"],
      [{ extra: 1 }, "INVALID_ATTRIBUTE"],
    ];
    const before = sim.state.jobs().length;
    for (const [change, errorCode] of cases) {
      const body = { ...validJob(), ...change };
      const reply = await client.call("POST", `/groups/${sim.groupId}/logCollectionJobs`, body);
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(json<ErrorBody>(reply).errorCode, JSON.stringify(change)).toBe(errorCode);
    }
    expect(sim.state.jobs()).toHaveLength(before);
  });

  it("a malformed group id is 400 INVALID_GROUP_ID and an unknown one 404 GROUP_NOT_FOUND", async () => {
    const malformed = await client.call("POST", "/groups/not-a-group/logCollectionJobs", validJob());
    expect(malformed.status).toBe(400);
    expect(json<ErrorBody>(malformed).errorCode).toBe("INVALID_GROUP_ID");
    const unknown = await client.call(
      "POST",
      "/groups/5f00000000000000000000dd/logCollectionJobs",
      validJob(),
    );
    expect(unknown.status).toBe(404);
    expect(json<ErrorBody>(unknown).errorCode).toBe("GROUP_NOT_FOUND");
    sim.state.addGroup("5f00000000000000000000dd");
    const seeded = await client.call(
      "POST",
      "/groups/5f00000000000000000000dd/logCollectionJobs",
      validJob(),
    );
    expect(seeded.status).toBe(201);
  });
});

/**
 * The version each resource's state carries: the steps of an upgrade applied in order from the stored
 * version, the version written by create, update and a refresh that changes the state, state without
 * one left as stored by a refresh that changes nothing, and a version newer than the code refused by
 * every method that reads state, before anything is sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  apiKeyProjectAssignmentMethods as assignments,
  logCollectionJobMethods as jobs,
  orgApiKeyMethods as keys,
} from "../../provider/host";
import { KEY_STATE } from "../../provider/resources/org-api-key/state";
import { ResourceError } from "../../provider/resources/shared/resource-error";
import { resetServerMemoryForTests } from "../../provider/resources/shared/server-memory";
import {
  currentVersion,
  type StateUpgrade,
  stateAfterRead,
  upgradeState,
} from "../../provider/resources/shared/state-version";
import type { Simulator } from "../../simulator/types";
import { simulatorWithProvider } from "./support";

type Steps = { from: number; id: string; state: Record<string, unknown> }[];

/** An upgrade of three versions whose steps note what they were given and add what they stand for. */
function threeVersions(seen: Steps): StateUpgrade<Record<string, unknown>> {
  const step = (from: number, field: string) => (state: never, id: string) => {
    seen.push({ from, id, state: { ...(state as Record<string, unknown>) } });
    return { ...(state as Record<string, unknown>), [field]: from + 1 };
  };
  return { resource: "Thing", steps: [step(0, "one"), step(1, "two"), step(2, "three")] };
}

describe("a state upgrade, step by step", () => {
  it("applies every step, in order, to state written before versions (version 0)", () => {
    const seen: Steps = [];
    const state = upgradeState(threeVersions(seen), { name: "a", __provider: "text" }, "id-1", "read");
    expect(state).toEqual({ name: "a", one: 1, two: 2, three: 3 });
    expect(seen.map((s) => [s.from, s.id])).toEqual([
      [0, "id-1"],
      [1, "id-1"],
      [2, "id-1"],
    ]);
    // The steps see the resource's fields only: neither the version nor the serialized provider.
    expect(seen[0]!.state).toEqual({ name: "a" });
  });

  it("applies only the steps after the stored version, and none to the current one", () => {
    const seen: Steps = [];
    const upgrade = threeVersions(seen);
    expect(upgradeState(upgrade, { name: "b", one: 1, stateVersion: 1 }, "id-2", "diff")).toEqual({
      name: "b",
      one: 1,
      two: 2,
      three: 3,
    });
    expect(seen.map((s) => s.from)).toEqual([1, 2]);
    seen.length = 0;
    const current = { name: "c", one: 1, two: 2, three: 3 };
    expect(upgradeState(upgrade, { ...current, stateVersion: 3 }, "id-3", "diff")).toEqual(current);
    expect(seen).toEqual([]);
    expect(currentVersion(upgrade)).toBe(3);
  });

  it("refuses a version newer than its last step, naming the resource, both versions, the method and what to do", () => {
    const seen: Steps = [];
    const attempt = () => upgradeState(threeVersions(seen), { stateVersion: 4 }, "id-4", "delete");
    expect(attempt).toThrow(ResourceError);
    expect(attempt).toThrow(
      "Thing id-4: the stack holds its state at version 4, which a newer pulumi-opsmanager wrote; the pulumi-opsmanager installed reads state up to version 3, so delete stopped rather than misread it. Upgrade pulumi-opsmanager in the program's dependencies (npm install pulumi-opsmanager@latest) and run the command again.",
    );
    expect(seen).toEqual([]);
  });

  it("refuses a version that is not a whole number from 1 up, rather than read it as another", () => {
    for (const found of [0, -1, 1.5, "1", null]) {
      const attempt = () => upgradeState(threeVersions([]), { stateVersion: found }, "id-5", "read");
      expect(attempt, JSON.stringify(found)).toThrow(
        `Thing id-5: the stack holds its state with stateVersion ${JSON.stringify(found)}, which no pulumi-opsmanager writes`,
      );
    }
  });
});

describe("the state a refresh returns", () => {
  const upgrade = threeVersions([]);
  /** Three versions whose steps leave the fields of today's shape as they are, as ours do today. */
  const sameShape: StateUpgrade<Record<string, unknown>> = {
    resource: "Thing",
    steps: [(state) => state, (state) => state, (state) => state],
  };

  it("is the state as stored, without a version it did not have, when the refresh found nothing else", () => {
    const stored = { __provider: "text", name: "a", list: [1, { x: 1, y: 2 }] };
    const found = { list: [1, { y: 2, x: 1 }], name: "a" };
    expect(stateAfterRead(sameShape, stored, found, "id-7")).toEqual({
      name: "a",
      list: [1, { x: 1, y: 2 }],
    });
    expect(stateAfterRead(sameShape, { ...stored, stateVersion: 2 }, found, "id-7")).toEqual({
      name: "a",
      list: [1, { x: 1, y: 2 }],
      stateVersion: 2,
    });
  });

  it("is what the refresh found, at the current version, when it differs in anything", () => {
    const stored = { name: "a", list: [1, 2] };
    for (const found of [
      { name: "b", list: [1, 2] },
      { name: "a", list: [2, 1] },
      { name: "a", list: [1, 2], added: "" },
      { name: "a" },
    ]) {
      expect(stateAfterRead(upgrade, stored, found, "id-8")).toEqual({ ...found, stateVersion: 3 });
    }
  });

  it("is what the refresh found, at the current version, when the stored state is equal as written but a step reads it otherwise", () => {
    // Version 1 stored seconds; version 2 stores milliseconds. A server now answering 5 (ms) equals
    // the stored `{ n: 5 }` as written, which the steps read as 5,000 ms: keeping it would misread it.
    const units: StateUpgrade<{ n: number }> = {
      resource: "Thing",
      steps: [(state) => state, (state: { n: number }) => ({ n: state.n * 1000 })],
    };
    expect(stateAfterRead(units, { n: 5, stateVersion: 1 }, { n: 5 }, "id-9")).toEqual({
      n: 5,
      stateVersion: 2,
    });
    expect(stateAfterRead(units, { n: 5, stateVersion: 1 }, { n: 5000 }, "id-9")).toEqual({
      n: 5000,
      stateVersion: 2,
    });
    expect(stateAfterRead(units, { n: 5000, stateVersion: 2 }, { n: 5000 }, "id-9")).toEqual({
      n: 5000,
      stateVersion: 2,
    });
  });
});

let sim: Simulator;
beforeAll(async () => {
  sim = await simulatorWithProvider({ seed: { keys: 5 } });
});
beforeEach(() => {
  resetServerMemoryForTests();
  sim.resetRequests();
});
afterAll(async () => sim?.close());

function adoptable() {
  return sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
}

const JOB_INPUTS = () => ({
  groupId: sim.groupId,
  resourceType: "REPLICASET" as const,
  resourceName: "rs-versions",
  sizeRequestedPerFileBytes: 1000,
  logTypes: ["FTDC" as const],
  redacted: false,
});

/** `props` as a version before state versions wrote them. */
function unversioned<T extends object>(props: T): Omit<T, "stateVersion"> {
  const { stateVersion: _version, ...rest } = props as T & { stateVersion?: unknown };
  return rest;
}

describe("the version in each resource's state, through the host's method maps", () => {
  it("create and update write the current version; a refresh that changes nothing leaves earlier state as it was", async () => {
    const key = adoptable();
    const declared = {
      orgId: sim.orgId,
      apiKeyId: key.id,
      desc: "versioned",
      roles: ["ORG_MEMBER" as const],
    };
    const made = await keys.create(declared);
    expect(made.outs).toMatchObject({ desc: "versioned", stateVersion: currentVersion(KEY_STATE) });
    const updated = await keys.update(key.id, made.outs, { ...declared, desc: "versioned again" });
    expect(updated.outs).toMatchObject({ desc: "versioned again", stateVersion: currentVersion(KEY_STATE) });

    const earlier = unversioned(updated.outs);
    const kept = await keys.read(key.id, earlier);
    expect(kept.props).toEqual(earlier);
    expect(kept.props).not.toHaveProperty("stateVersion");
    // Changed outside Pulumi: the refresh writes what it found, at today's version.
    sim.state.updateApiKey(key.id, { desc: "by hand" });
    resetServerMemoryForTests();
    const drifted = await keys.read(key.id, earlier);
    expect(drifted.props).toEqual({ ...earlier, desc: "by hand", stateVersion: currentVersion(KEY_STATE) });
    // State at today's version read unchanged keeps it.
    expect((await keys.read(key.id, drifted.props)).props).toEqual(drifted.props);

    const assignment = await assignments.create({
      apiKeyId: key.id,
      groupId: sim.groupId,
      roles: ["GROUP_READ_ONLY"],
    });
    expect(assignment.outs).toMatchObject({ groupId: sim.groupId, stateVersion: 1 });
    const assignmentKept = await assignments.read(assignment.id, unversioned(assignment.outs));
    expect(assignmentKept.props).toEqual(unversioned(assignment.outs));

    const job = await jobs.create(JOB_INPUTS());
    expect(job.outs).toMatchObject({ jobId: job.id, stateVersion: 1 });
    // The create leaves the job's status and dates to the first refresh, which reads them.
    const read = await jobs.read(job.id, job.outs);
    expect(read.props).toMatchObject({ status: "IN_PROGRESS", stateVersion: 1 });
    const jobKept = await jobs.read(job.id, unversioned(read.props));
    expect(jobKept.props).toEqual(unversioned(read.props));
    await jobs.delete(job.id, job.outs);
  });

  it("a partially created job is recorded at the current version", async () => {
    sim.faults.add({
      method: "PATCH",
      pathPrefix: `/groups/${sim.groupId}/logCollectionJobs/`,
      status: 400,
      errorCode: "EXPIRATION_DATE_TOO_DISTANT",
    });
    const error = await jobs.create({ ...JOB_INPUTS(), expirationDate: inDays(10) }).then(
      () => undefined,
      (e: unknown) => e as { id?: string; properties?: Record<string, unknown> },
    );
    sim.faults.clear();
    expect(error?.id).toMatch(/^[0-9a-f]{24}$/);
    expect(error?.properties).toMatchObject({ jobId: error?.id, stateVersion: 1 });
    await jobs.delete(error!.id!, error!.properties as never);
  });

  const newer = { stateVersion: 2 };
  const cases = () => {
    const key = adoptable();
    const keyState = {
      orgId: sim.orgId,
      apiKeyId: key.id,
      publicKey: key.publicKey,
      stateVersion: currentVersion(KEY_STATE) + 1,
    };
    const keyInputs = { orgId: sim.orgId, apiKeyId: key.id };
    const assignmentId = `${sim.groupId}/${key.id}`;
    const assignmentState = { apiKeyId: key.id, groupId: sim.groupId, roles: [], ...newer };
    const assignmentInputs = { apiKeyId: key.id, groupId: sim.groupId, roles: ["GROUP_READ_ONLY" as const] };
    const jobId = "5f00000000000000000000e1";
    const jobState = { ...JOB_INPUTS(), jobId, ...newer };
    return [
      {
        resource: "OrgApiKey",
        version: currentVersion(KEY_STATE),
        id: key.id,
        diff: () => keys.diff(key.id, keyState as never, keyInputs),
        read: () => keys.read(key.id, keyState as never),
        update: () => keys.update(key.id, keyState as never, keyInputs),
        delete: () => keys.delete(key.id, keyState as never),
      },
      {
        resource: "ApiKeyProjectAssignment",
        version: 1,
        id: assignmentId,
        diff: () => assignments.diff(assignmentId, assignmentState as never, assignmentInputs),
        read: () => assignments.read(assignmentId, assignmentState as never),
        update: () => assignments.update(assignmentId, assignmentState as never, assignmentInputs),
        delete: () => assignments.delete(assignmentId, assignmentState as never),
      },
      {
        resource: "LogCollectionJob",
        version: 1,
        id: jobId,
        diff: () => jobs.diff(jobId, jobState as never, JOB_INPUTS()),
        read: () => jobs.read(jobId, jobState as never),
        update: () => jobs.update(jobId, jobState as never, JOB_INPUTS()),
        delete: () => jobs.delete(jobId, jobState as never),
      },
    ];
  };

  for (const method of ["diff", "read", "update", "delete"] as const) {
    it(`${method} of state at a version newer than the package knows stops with what to do, and sends nothing`, async () => {
      for (const c of cases()) {
        const error = await c[method]().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, `${c.resource} ${method}`).toBeInstanceOf(ResourceError);
        expect((error as Error).message).toBe(
          `${c.resource} ${c.id}: the stack holds its state at version ${c.version + 1}, which a newer pulumi-opsmanager wrote; the pulumi-opsmanager installed reads state up to version ${c.version}, so ${method} stopped rather than misread it. Upgrade pulumi-opsmanager in the program's dependencies (npm install pulumi-opsmanager@latest) and run the command again.`,
        );
      }
      expect(sim.requests).toEqual([]);
    });
  }
});

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * A LogCollectionJob followed through its life, through Pulumi's real dynamic-provider host, against
 * the deployed Ops Manager (which documents a job's listing, extension and delete) and against a server
 * that has only the spec's three operations. On the first: status and download URL after refresh, an
 * extension in place with one PATCH, a job deleted outside Pulumi leaving the stack, destroy deleting
 * the job, and a refresh of many jobs costing one listing. On the second: nothing dropped and nothing
 * failed, and a warning, once, that says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Host, JOB_TYPE, type Props, strip, urn } from "../support/host";
import {
  checkThenCreate,
  failureOf,
  type ProviderFixture,
  pool,
  providerFixture,
} from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-jobs-4e5f-a6b7-RECOGNIZABLE05";
const DAY_MS = 24 * 3600_000;

let fixture: ProviderFixture;
let deployed: Simulator;
let spec: Simulator;

beforeAll(async () => {
  [deployed, spec] = await Promise.all([
    startSimulator({ seed: { keys: 2, privateKey: PRIVATE_KEY } }),
    startSimulator({ profile: "spec", seed: { keys: 2, privateKey: PRIVATE_KEY } }),
  ]);
  fixture = await providerFixture();
});

afterAll(async () => {
  await fixture?.close(PRIVATE_KEY);
  await Promise.all([deployed?.close(), spec?.close()]);
});

const config = (sim: Simulator) => ({
  "opsmanager:baseUrl": sim.url,
  "opsmanager:publicKey": sim.publicKey,
  "opsmanager:privateKey": PRIVATE_KEY,
});

/** A new host is a new `pulumi up` or `pulumi refresh`: it has read nothing from the server yet. */
const newHost = (sim: Simulator) => fixture.newHost(config(sim));

const jobInputs = (sim: Simulator, extra: Props = {}): Props => ({
  groupId: sim.groupId,
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 1_000_000,
  logTypes: ["FTDC"],
  redacted: false,
  ...extra,
});

/** The requests past authentication since the last reset, as `METHOD status`. */
const calls = (sim: Simulator) =>
  sim.requests.filter((q) => q.authenticated).map((q) => `${q.method} ${q.status}`);

/** A time `days` from now, whole seconds, as the server writes times. */
const inDays = (days: number) =>
  new Date(Math.floor((Date.now() + days * DAY_MS) / 1000) * 1000).toISOString().replace(".000Z", "Z");

async function created(host: Host, sim: Simulator, name: string, extra: Props = {}) {
  const jobUrn = urn(JOB_TYPE, name);
  const r = await checkThenCreate(
    host,
    jobUrn,
    fixture.withJob(jobInputs(sim, { resourceName: name, ...extra })),
  );
  return { urn: jobUrn, id: r.id, state: fixture.withJob(r.properties) };
}

describe("against the deployed server, through the host", () => {
  let host: Host;
  beforeAll(async () => {
    host = await newHost(deployed);
  });

  it("a refresh shows the job IN_PROGRESS, then SUCCESS with its download URL, the inputs kept as declared", async () => {
    const job = await created(host, deployed, "rs-life", { resourceType: "replicaset" });
    // The create reads nothing back: the job's status and dates wait for the first refresh.
    expect(strip(job.state)).toMatchObject({
      status: "",
      creationDate: "",
      expirationDate: "",
      downloadUrl: "",
      resourceType: "REPLICASET",
    });
    const first = await (await newHost(deployed)).read(job.id, job.urn, job.state);
    const onServer = deployed.state.job(job.id)!;
    expect(first.id).toBe(job.id);
    expect(strip(first.properties)).toEqual({
      ...jobInputs(deployed, { resourceName: "rs-life" }),
      jobId: job.id,
      status: "IN_PROGRESS",
      creationDate: onServer.createdAt.replace(/\.\d{3}Z$/, "Z"),
      expirationDate: onServer.expirationDate.replace(/\.\d{3}Z$/, "Z"),
      downloadUrl: "",
      userId: "5f0000000000000000000003",
      rootResourceName: "rs-life",
      // The server echoes the resource type in lower case; the input keeps the declared spelling.
      rootResourceType: "replicaset",
      uncompressedSizeTotalBytes: 0,
      managed: { expirationDate: false },
      stateVersion: 1,
    });
    expect(strip(first.inputs!)).toEqual(jobInputs(deployed, { resourceName: "rs-life" }));
    deployed.state.updateJob(job.id, { finishDate: new Date(Date.now() - 1000).toISOString() });
    const second = await (await newHost(deployed)).read(job.id, job.urn, fixture.withJob(first.properties));
    expect(second.properties).toMatchObject({
      status: "SUCCESS",
      downloadUrl: `${deployed.apiRoot}/groups/${deployed.groupId}/logCollectionJobs/${job.id}/download`,
    });
    expect(second.properties.uncompressedSizeTotalBytes).toBeGreaterThan(0);
    // What refresh read is no change to the program.
    const d = await host.diff(
      job.id,
      job.urn,
      second.properties,
      fixture.withJob(jobInputs(deployed, { resourceName: "rs-life" })),
    );
    expect(d.changes).toBe("DIFF_NONE");
  });

  it("a failed job shows FAILURE after refresh, and stays in the stack", async () => {
    const job = await created(host, deployed, "rs-fails");
    deployed.state.updateJob(job.id, {
      outcome: "FAILURE",
      finishDate: new Date(Date.now() - 1000).toISOString(),
    });
    const read = await (await newHost(deployed)).read(job.id, job.urn, job.state);
    expect([read.id, read.properties.status, read.properties.downloadUrl]).toEqual([job.id, "FAILURE", ""]);
  });

  it("a new expirationDate is an update in place: exactly one PATCH, no second job", async () => {
    const job = await created(host, deployed, "rs-extend");
    const jobs = deployed.state.jobs().length;
    const later = inDays(90);
    const program = fixture.withJob(
      jobInputs(deployed, { resourceName: "rs-extend", expirationDate: later }),
    );
    deployed.resetRequests();
    const checked = await host.check(job.urn, job.state, program);
    expect(checked.failures).toEqual([]);
    const d = await host.diff(job.id, job.urn, job.state, checked.inputs);
    expect(d).toEqual({ changes: "DIFF_SOME", replaces: [], deleteBeforeReplace: false });
    const updated = await host.update(job.id, job.urn, job.state, checked.inputs);
    expect(deployed.requests.filter((q) => q.authenticated).map((q) => [q.method, q.path, q.body])).toEqual([
      [
        "PATCH",
        `/api/public/v1.0/groups/${deployed.groupId}/logCollectionJobs/${job.id}`,
        { expirationDate: later },
      ],
    ]);
    expect(deployed.state.jobs()).toHaveLength(jobs);
    expect(Date.parse(deployed.state.job(job.id)!.expirationDate)).toBe(Date.parse(later));
    expect(updated.properties).toMatchObject({
      jobId: job.id,
      expirationDate: later,
      managed: { expirationDate: true },
    });
    // The same instant written another way is no change, and neither is the server's spelling after a refresh.
    const oneHourEast = new Date(Date.parse(later) + 3600_000).toISOString().replace(".000Z", "+01:00");
    const again = await host.diff(job.id, job.urn, fixture.withJob(updated.properties), {
      ...program,
      expirationDate: oneHourEast,
    });
    expect(again.changes).toBe("DIFF_NONE");
    const refreshed = await (await newHost(deployed)).read(
      job.id,
      job.urn,
      fixture.withJob(updated.properties),
    );
    expect(refreshed.inputs?.expirationDate).toBe(later);
    expect((await host.diff(job.id, job.urn, refreshed.properties, program)).changes).toBe("DIFF_NONE");
  });

  it("an expiration changed outside Pulumi shows after refresh as drift, and the next update puts the declared one back", async () => {
    const declared = inDays(40);
    const job = await created(host, deployed, "rs-drift", { expirationDate: declared });
    const outside = inDays(50);
    deployed.state.updateJob(job.id, { expirationDate: new Date(Date.parse(outside)).toISOString() });
    const read = await (await newHost(deployed)).read(job.id, job.urn, job.state);
    expect(read.properties.expirationDate).toBe(outside);
    expect(read.inputs?.expirationDate).toBe(read.properties.expirationDate);
    const program = fixture.withJob(
      jobInputs(deployed, { resourceName: "rs-drift", expirationDate: declared }),
    );
    const d = await host.diff(job.id, job.urn, read.properties, program);
    expect(d).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    deployed.resetRequests();
    await host.update(job.id, job.urn, read.properties, program);
    expect(calls(deployed)).toEqual(["PATCH 200"]);
    expect(Date.parse(deployed.state.job(job.id)!.expirationDate)).toBe(Date.parse(declared));
  });

  it("an expirationDate given at create is one POST, then one PATCH", async () => {
    const at = inDays(20);
    deployed.resetRequests();
    const job = await created(host, deployed, "rs-born-extended", { expirationDate: at });
    expect(calls(deployed)).toEqual(["POST 201", "PATCH 200"]);
    expect(Date.parse(deployed.state.job(job.id)!.expirationDate)).toBe(Date.parse(at));
    expect(strip(job.state)).toMatchObject({ expirationDate: at, managed: { expirationDate: true } });
  });

  it("an expiration the server refuses names its code and what to do; a refused one at create still records the job", async () => {
    const job = await created(host, deployed, "rs-too-far");
    const tooFar = fixture.withJob(
      jobInputs(deployed, { resourceName: "rs-too-far", expirationDate: inDays(200) }),
    );
    const error = await failureOf(host.update(job.id, job.urn, job.state, tooFar));
    expect(error.message).toContain(
      `LogCollectionJob ${job.id} (project ${deployed.groupId}): PATCH /groups/`,
    );
    expect(error.message).toMatch(/400 EXPIRATION_DATE_TOO_DISTANT — .*6 months/);
    expect(error.message).toMatch(/at most 6 months after the job was created/);
    expect(error.message).toContain("Correct expirationDate and run `pulumi up` again.");
    // At create: the job exists, so it is recorded (a partially created resource), not lost nor made twice.
    deployed.resetRequests();
    const born = await failureOf(
      checkThenCreate(
        host,
        urn(JOB_TYPE, "rs-born-too-far"),
        fixture.withJob(jobInputs(deployed, { resourceName: "rs-born-too-far", expirationDate: inDays(-1) })),
      ),
    );
    expect(born.message).toMatch(/400 EXPIRATION_DATE_MUST_BE_IN_FUTURE/);
    expect(born.message).toContain(
      "The job was created and is recorded in the stack, but its expirationDate is not set.",
    );
    expect(born.partial?.id).toMatch(/^[0-9a-f]{24}$/);
    expect(born.partial?.properties).toMatchObject({
      jobId: born.partial?.id,
      managed: { expirationDate: false },
    });
    expect(calls(deployed)).toEqual(["POST 201", "PATCH 400"]);
  });

  it("an expired job cannot be extended: the error says so and to start a new job", async () => {
    const job = await created(host, deployed, "rs-expired");
    deployed.state.updateJob(job.id, { expirationDate: new Date(Date.now() - 1000).toISOString() });
    const read = await (await newHost(deployed)).read(job.id, job.urn, job.state);
    expect(read.properties.status).toBe("EXPIRED");
    const program = fixture.withJob(
      jobInputs(deployed, { resourceName: "rs-expired", expirationDate: inDays(10) }),
    );
    const error = await failureOf(host.update(job.id, job.urn, read.properties, program));
    expect(error.message).toMatch(/403 CANNOT_EXTEND_EXPIRED_JOB/);
    expect(error.message).toContain("start a new job to collect the logs again");
  });

  it("a job deleted outside Pulumi leaves the stack on refresh, after two listings that agree", async () => {
    const job = await created(host, deployed, "rs-deleted");
    deployed.state.removeJob(job.id);
    deployed.resetRequests();
    const read = await (await newHost(deployed)).read(job.id, job.urn, job.state);
    expect(read.id).toBe("");
    expect(calls(deployed)).toEqual(["GET 200", "GET 200"]);
  });

  it("a listing answered 404 GROUP_NOT_FOUND fails the refresh naming the project, and the job stays", async () => {
    const job = await created(host, deployed, "rs-project");
    deployed.faults.add({
      method: "GET",
      pathPrefix: `/groups/${deployed.groupId}/logCollectionJobs`,
      status: 404,
      errorCode: "GROUP_NOT_FOUND",
    });
    const error = await failureOf((await newHost(deployed)).read(job.id, job.urn, job.state));
    expect(error.message).toContain(
      `LogCollectionJob ${job.id} (project ${deployed.groupId}): GET /groups/${deployed.groupId}/logCollectionJobs failed: 404 GROUP_NOT_FOUND`,
    );
    expect(error.message).toContain(`check groupId "${deployed.groupId}"`);
    expect(deployed.state.job(job.id)).toBeDefined();
  });

  it("destroy deletes the job with one DELETE; a job already gone is no failure", async () => {
    const job = await created(host, deployed, "rs-destroy");
    deployed.resetRequests();
    await host.delete(job.id, job.urn, job.state);
    expect(calls(deployed)).toEqual(["DELETE 200"]);
    expect(deployed.state.job(job.id)).toBeUndefined();
    deployed.resetRequests();
    await host.delete(job.id, job.urn, job.state);
    expect(calls(deployed)).toEqual(["DELETE 404"]);
  });

  it("a create is one POST and reads nothing back: 30 creates cost 30 requests, and the first refresh fills their status and dates with one listing", async () => {
    const group = "5f00000000000000000000c4";
    deployed.state.addGroup(group);
    const up = await newHost(deployed);
    deployed.resetRequests();
    const jobs = await pool(
      Array.from({ length: 30 }, (_, i) => i),
      16,
      (i) =>
        checkThenCreate(
          up,
          urn(JOB_TYPE, `born-${i}`),
          fixture.withJob(jobInputs(deployed, { groupId: group, resourceName: `born${i}` })),
        ),
    );
    const states = jobs.map((r) => {
      if (r.status !== "fulfilled") throw r.reason;
      return r.value;
    });
    expect(calls(deployed)).toEqual(Array.from({ length: 30 }, () => "POST 201"));
    for (const s of states) {
      expect(strip(s.properties)).toMatchObject({
        jobId: s.id,
        status: "",
        creationDate: "",
        expirationDate: "",
      });
    }
    const refresh = await newHost(deployed);
    deployed.resetRequests();
    const reads = await pool(states, 16, (s, i) =>
      refresh.read(s.id, urn(JOB_TYPE, `born-${i}`), fixture.withJob(s.properties)),
    );
    const second = (at: string) => at.replace(/\.\d{3}Z$/, "Z");
    for (const [i, r] of reads.entries()) {
      if (r.status !== "fulfilled") throw r.reason;
      const onServer = deployed.state.job(states[i]!.id)!;
      expect(strip(r.value.properties)).toMatchObject({
        status: "IN_PROGRESS",
        creationDate: second(onServer.createdAt),
        expirationDate: second(onServer.expirationDate),
        rootResourceName: onServer.resourceName,
      });
    }
    expect(calls(deployed)).toEqual(["GET 200"]);
  });

  it("refreshing 30 jobs of one project costs one listing and one challenge", async () => {
    const group = "5f00000000000000000000c3";
    deployed.state.addGroup(group);
    const jobs = await pool(
      Array.from({ length: 30 }, (_, i) => i),
      16,
      (i) =>
        checkThenCreate(
          host,
          urn(JOB_TYPE, `many-${i}`),
          fixture.withJob(jobInputs(deployed, { groupId: group, resourceName: `rs${i}` })),
        ),
    );
    const states = jobs.map((r) => {
      if (r.status !== "fulfilled") throw r.reason;
      return r.value;
    });
    const refresh = await newHost(deployed);
    deployed.resetRequests();
    const reads = await pool(states, 16, (s, i) =>
      refresh.read(s.id, urn(JOB_TYPE, `many-${i}`), fixture.withJob(s.properties)),
    );
    expect(
      reads.map((r) => (r.status === "fulfilled" ? [r.value.id, r.value.properties.status] : r.reason)),
    ).toEqual(states.map((s) => [s.id, "IN_PROGRESS"]));
    expect(deployed.requests.map((q) => `${q.method} ${q.status}`)).toEqual(["GET 401", "GET 200"]);
  });

  it("a listing whose pages never agree fails the refresh and drops nothing", async () => {
    const group = "5f00000000000000000000c4";
    deployed.state.addGroup(group);
    for (let i = 0; i < 501; i++) {
      deployed.state.addJob({
        groupId: group,
        resourceType: "CLUSTER",
        resourceName: `c${i}`,
        sizeRequestedPerFileBytes: 1,
        logTypes: ["FTDC"],
        redacted: false,
      });
    }
    const job = await created(host, deployed, "rs-churn", { groupId: group });
    // Another job is created whenever a page has been read: page 2 never holds what page 1 promised.
    deployed.faults.add({
      method: "GET",
      pathPrefix: `/groups/${group}/logCollectionJobs`,
      times: 100,
      delayMs: 0,
      whenAnswered: () => {
        deployed.state.addJob({
          groupId: group,
          resourceType: "CLUSTER",
          resourceName: "churn",
          sizeRequestedPerFileBytes: 1,
          logTypes: ["FTDC"],
          redacted: false,
        });
      },
    });
    const error = await failureOf(
      (await newHost(deployed)).read("5f00000000000000000000ff", job.urn, {
        ...job.state,
        jobId: "5f00000000000000000000ff",
      }),
    );
    deployed.faults.clear();
    expect(error.message).toContain(
      "the project's log collection job listing kept changing while it was read",
    );
    expect(error.message).toContain("Jobs were being added or deleted meanwhile");
  });

  it("state written before jobs were followed (no status, no managed) refreshes and diffs cleanly", async () => {
    const job = await created(host, deployed, "rs-old");
    const old = fixture.withJob({ jobId: job.id, ...jobInputs(deployed, { resourceName: "rs-old" }) });
    const program = fixture.withJob(jobInputs(deployed, { resourceName: "rs-old" }));
    expect((await host.diff(job.id, job.urn, old, program)).changes).toBe("DIFF_NONE");
    const read = await (await newHost(deployed)).read(job.id, job.urn, old);
    expect(read.id).toBe(job.id);
    expect(read.properties).toMatchObject({ status: "IN_PROGRESS", managed: { expirationDate: false } });
    expect((await host.diff(job.id, job.urn, read.properties, program)).changes).toBe("DIFF_NONE");
    // Against the spec's server too: kept as recorded, its new outputs filled with "not shown".
    const specJob = await created(await newHost(spec), spec, "rs-old-spec");
    const specOld = fixture.withJob({
      jobId: specJob.id,
      ...jobInputs(spec, { resourceName: "rs-old-spec" }),
    });
    const kept = await (await newHost(spec)).read(specJob.id, specJob.urn, specOld);
    expect(kept.id).toBe(specJob.id);
    expect(strip(kept.properties)).toEqual({
      ...strip(specOld),
      status: "",
      creationDate: "",
      expirationDate: "",
      downloadUrl: "",
      userId: "",
      rootResourceName: "",
      rootResourceType: "",
      uncompressedSizeTotalBytes: 0,
      managed: { expirationDate: false },
      // The refresh filled fields the state lacked: it writes today's version.
      stateVersion: 1,
    });
    expect(
      (
        await host.diff(
          specJob.id,
          specJob.urn,
          kept.properties,
          fixture.withJob(jobInputs(spec, { resourceName: "rs-old-spec" })),
        )
      ).changes,
    ).toBe("DIFF_NONE");
  });

  it("check and diff of a new expirationDate make no request", async () => {
    const job = await created(host, deployed, "rs-preview");
    deployed.resetRequests();
    const program = fixture.withJob(
      jobInputs(deployed, { resourceName: "rs-preview", expirationDate: inDays(5) }),
    );
    const checked = await host.check(job.urn, job.state, program);
    expect(checked.failures).toEqual([]);
    const d = await host.diff(job.id, job.urn, job.state, checked.inputs);
    expect(d).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(deployed.requests).toEqual([]);
  });
});

describe("against a server with only the spec's three operations, through the host", () => {
  const warning =
    /LogCollectionJob: the server at http:\/\/127\.0\.0\.1:\d+ has no listing of log collection jobs \(GET \/groups\/[0-9a-f]{24}\/logCollectionJobs answered 405 METHOD_NOT_ALLOWED\)/g;

  it("refresh keeps every job as recorded, asks the server once, and says why once", async () => {
    const host = await newHost(spec);
    const jobs = [];
    for (const name of ["spec-1", "spec-2", "spec-3"]) jobs.push(await created(host, spec, name));
    const refresh = await newHost(spec);
    spec.resetRequests();
    const reads = await Promise.all(jobs.map((j) => refresh.read(j.id, j.urn, j.state)));
    expect(reads.map((r) => r.id)).toEqual(jobs.map((j) => j.id));
    for (const [i, r] of reads.entries()) expect(strip(r.properties)).toEqual(strip(jobs[i]!.state));
    expect(calls(spec)).toEqual(["GET 405"]);
    expect(refresh.stderr.match(warning)).toHaveLength(1);
    expect(refresh.stderr).toContain("refresh keeps each job as the stack recorded it");
    // A second refresh in the same deployment asks nothing and says nothing more.
    spec.resetRequests();
    await refresh.read(jobs[0]!.id, jobs[0]!.urn, jobs[0]!.state);
    expect(spec.requests).toEqual([]);
    expect(refresh.stderr.match(warning)).toHaveLength(1);
  });

  it("destroy forgets the jobs without failing, leaves them on the server, and says why once", async () => {
    const host = await newHost(spec);
    const jobs = [];
    for (const name of ["spec-del-1", "spec-del-2"]) jobs.push(await created(host, spec, name));
    const destroy = await newHost(spec);
    spec.resetRequests();
    for (const j of jobs) await destroy.delete(j.id, j.urn, j.state);
    expect(calls(spec)).toEqual(["DELETE 404"]);
    for (const j of jobs) expect(spec.state.job(j.id)).toBeDefined();
    const said = destroy.stderr.match(
      /LogCollectionJob: the server at .* has no delete of log collection jobs \(DELETE .* answered 404 RESOURCE_NOT_FOUND\)/g,
    );
    expect(said).toHaveLength(1);
  });

  it("an expirationDate fails the update, names the missing operation and what to do, and drops nothing", async () => {
    const host = await newHost(spec);
    const job = await created(host, spec, "spec-extend");
    const program = fixture.withJob(
      jobInputs(spec, { resourceName: "spec-extend", expirationDate: inDays(5) }),
    );
    expect(await host.diff(job.id, job.urn, job.state, program)).toMatchObject({
      changes: "DIFF_SOME",
      replaces: [],
    });
    const error = await failureOf(host.update(job.id, job.urn, job.state, program));
    expect(error.message).toMatch(
      /PATCH \/groups\/[0-9a-f]{24}\/logCollectionJobs\/[0-9a-f]{24} failed: 404 RESOURCE_NOT_FOUND/,
    );
    expect(error.message).toContain("this server has no extension of log collection jobs");
    expect(error.message).toContain("Remove expirationDate from the program");
    expect(spec.state.jobs().map((j) => j.id)).toContain(job.id);
  });
});

/**
 * The simulator's log collection jobs beyond their create: in the `deployed` profile, the life the Ops
 * Manager documentation and MongoDB's Go client give them (list, get one, extend, retry, delete,
 * download; IN_PROGRESS to SUCCESS or FAILURE, then EXPIRED), with the error table's codes; in the
 * `spec` profile, none of it, answered as a server without those routes answers.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpClient } from "../../provider/client";
import { ApiError } from "../../provider/client/errors";
import { digestResponse, parseDigestHeader, startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { goJobRecord } from "../conformance/bodies/log-collection-jobs";

const DAY_MS = 24 * 3600_000;

let sim: Simulator;
let client: HttpClient;

beforeAll(async () => {
  sim = await startSimulator();
  client = new HttpClient({ baseUrl: sim.apiRoot, username: sim.publicKey, password: sim.privateKey });
});
afterAll(async () => {
  await client?.close();
  await sim?.close();
});
beforeEach(() => sim.resetRequests());

const jobsPath = () => `/groups/${sim.groupId}/logCollectionJobs`;

async function createJob(extra: Record<string, unknown> = {}): Promise<string> {
  const response = await client.request({
    method: "POST",
    path: jobsPath(),
    body: {
      resourceType: "replicaset",
      resourceName: "rs0",
      sizeRequestedPerFileBytes: 1000,
      logTypes: ["MONGODB", "FTDC"],
      redacted: true,
      ...extra,
    },
  });
  return (response.body as { id: string }).id;
}

async function get(relPath: string, query?: Record<string, string | number | boolean>) {
  return (await client.request({ method: "GET", path: relPath, query })).body as Record<string, unknown>;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** GET with digest credentials, the body as bytes: the download is not JSON. */
async function fetchBytes(relPath: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const url = `${sim.apiRoot}${relPath}`;
  const challenge = parseDigestHeader((await fetch(url)).headers.get("www-authenticate") ?? "")!;
  const uri = new URL(url).pathname;
  const cnonce = randomBytes(8).toString("hex");
  const fields = { nonce: challenge.nonce!, nc: "00000001", cnonce, qop: "auth", uri };
  const response = digestResponse({
    username: sim.publicKey,
    password: sim.privateKey,
    method: "GET",
    ...fields,
  });
  const authorization =
    `Digest username="${sim.publicKey}", realm="MMS Public API", nonce="${fields.nonce}", uri="${uri}", ` +
    `algorithm=MD5, qop=auth, nc=${fields.nc}, cnonce="${cnonce}", response="${response}"`;
  const answer = await fetch(url, { headers: { authorization } });
  return {
    status: answer.status,
    type: answer.headers.get("content-type"),
    body: Buffer.from(await answer.arrayBuffer()),
  };
}

describe("a job's life on the deployed server", () => {
  it("a new job is IN_PROGRESS, expires 30 days after its creation and has no download URL yet", async () => {
    const before = Date.now();
    const id = await createJob();
    const job = await get(`${jobsPath()}/${id}`);
    expect(job).toMatchObject({
      id,
      groupId: sim.groupId,
      status: "IN_PROGRESS",
      resourceType: "replicaset",
      resourceName: "rs0",
      rootResourceType: "replicaset",
      userId: "5f0000000000000000000003",
      uncompressedSizeTotalBytes: 0,
    });
    expect(job.downloadUrl).toBeUndefined();
    const created = Date.parse(job.creationDate as string);
    expect(created).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(job.expirationDate as string) - created).toBe(30 * DAY_MS);
    // Whole seconds, as the published records write their dates.
    expect(job.creationDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("a finished job is SUCCESS with a download URL and the fields of the published record", async () => {
    const id = await createJob();
    sim.state.updateJob(id, { finishDate: new Date(Date.now() - 1000).toISOString() });
    const job = await get(`${jobsPath()}/${id}`, { verbose: true });
    expect(job.status).toBe("SUCCESS");
    expect(job.downloadUrl).toBe(`${sim.apiRoot}${jobsPath()}/${id}/download`);
    expect((job.uncompressedSizeTotalBytes as number) > 0).toBe(true);
    // The same fields as the record MongoDB's Go client's tests publish, child jobs included.
    const published = JSON.parse(goJobRecord.body) as Record<string, unknown>;
    expect(Object.keys(job).sort()).toEqual(Object.keys(published).sort());
    const [child] = job.childJobs as Record<string, unknown>[];
    const [publishedChild] = published.childJobs as Record<string, unknown>[];
    expect(Object.keys(child!).sort()).toEqual(Object.keys(publishedChild!).sort());
    expect(job.childJobs).toHaveLength(2);
    // Without verbose, no child jobs.
    expect((await get(`${jobsPath()}/${id}`)).childJobs).toBeUndefined();
  });

  it("a job that fails is FAILURE; a retry runs it again; only a failed job can be retried", async () => {
    const id = await createJob();
    sim.state.updateJob(id, { outcome: "FAILURE", finishDate: new Date(Date.now() - 1).toISOString() });
    expect((await get(`${jobsPath()}/${id}`)).status).toBe("FAILURE");
    const retry = await client.request({ method: "PUT", path: `${jobsPath()}/${id}/retry` });
    expect([retry.status, retry.body]).toEqual([200, undefined]);
    expect((await get(`${jobsPath()}/${id}`)).status).toBe("IN_PROGRESS");
    const again = await failure(client.request({ method: "PUT", path: `${jobsPath()}/${id}/retry` }));
    expect([again.status, again.errorCode]).toEqual([400, "ONLY_FAILED_JOB_CAN_BE_RESTARTED"]);
  });

  it("a job past its expiration date is EXPIRED", async () => {
    const id = await createJob();
    sim.state.updateJob(id, { expirationDate: new Date(Date.now() - 1000).toISOString() });
    expect((await get(`${jobsPath()}/${id}`)).status).toBe("EXPIRED");
  });

  it("the listing pages a project's jobs in creation order with the server's shape", async () => {
    const group = "5f00000000000000000000b1";
    sim.state.addGroup(group);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await client.request({
        method: "POST",
        path: `/groups/${group}/logCollectionJobs`,
        body: {
          resourceType: "CLUSTER",
          resourceName: `c${i}`,
          sizeRequestedPerFileBytes: 10,
          logTypes: ["FTDC"],
          redacted: false,
        },
      });
      ids.push((response.body as { id: string }).id);
    }
    const pages = [];
    for (const pageNum of [1, 2, 3]) {
      pages.push(await get(`/groups/${group}/logCollectionJobs`, { pageNum, itemsPerPage: 3 }));
    }
    expect(pages.map((p) => p.totalCount)).toEqual([7, 7, 7]);
    expect(pages.flatMap((p) => (p.results as { id: string }[]).map((j) => j.id))).toEqual(ids);
    expect((pages[0]!.links as { rel: string }[]).map((l) => l.rel)).toEqual(["self", "next"]);
    // The default page holds 100, as the documentation says.
    expect(((await get(`/groups/${group}/logCollectionJobs`)).results as unknown[]).length).toBe(7);
  });

  it("an extension sets the expiration date and is answered without a body", async () => {
    const id = await createJob();
    const date = new Date(Date.now() + 60 * DAY_MS);
    date.setUTCMilliseconds(0);
    const answer = await client.request({
      method: "PATCH",
      path: `${jobsPath()}/${id}`,
      body: { expirationDate: date.toISOString().replace(".000Z", "Z") },
    });
    expect([answer.status, answer.body]).toEqual([200, undefined]);
    expect(Date.parse((await get(`${jobsPath()}/${id}`)).expirationDate as string)).toBe(date.getTime());
  });

  it("an extension into the past, past six months, of an expired job or in no known format is refused with the error table's code", async () => {
    const id = await createJob();
    const extend = (expirationDate: unknown) =>
      failure(client.request({ method: "PATCH", path: `${jobsPath()}/${id}`, body: { expirationDate } }));
    const past = await extend(new Date(Date.now() - DAY_MS).toISOString());
    expect([past.status, past.errorCode]).toEqual([400, "EXPIRATION_DATE_MUST_BE_IN_FUTURE"]);
    const distant = await extend(new Date(Date.now() + 190 * DAY_MS).toISOString());
    expect([distant.status, distant.errorCode]).toEqual([400, "EXPIRATION_DATE_TOO_DISTANT"]);
    expect(distant.detail).toBe(
      "Expiration date for log collection request job can only be as far as 6 months in the future.",
    );
    const malformed = await extend("next tuesday");
    expect([malformed.status, malformed.errorCode]).toEqual([400, "INVALID_JSON_ATTRIBUTE"]);
    sim.state.updateJob(id, { status: "EXPIRED" });
    const expired = await extend(new Date(Date.now() + DAY_MS).toISOString());
    expect([expired.status, expired.errorCode]).toEqual([403, "CANNOT_EXTEND_EXPIRED_JOB"]);
  });

  it("a delete removes the job; a job the project does not have is 404 LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP", async () => {
    const id = await createJob();
    const answer = await client.request({ method: "DELETE", path: `${jobsPath()}/${id}` });
    expect([answer.status, answer.body]).toEqual([200, undefined]);
    expect(sim.state.job(id)).toBeUndefined();
    const again = await failure(client.request({ method: "DELETE", path: `${jobsPath()}/${id}` }));
    expect([again.status, again.errorCode]).toEqual([404, "LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP"]);
    expect(again.detail).toBe(`No log collection job with ID ${id} exists in group ${sim.groupId}.`);
  });

  it("a download is refused while in progress, serves a gzip archive once finished, and is refused once expired", async () => {
    const id = await createJob();
    const running = await failure(client.request({ method: "GET", path: `${jobsPath()}/${id}/download` }));
    expect([running.status, running.errorCode]).toEqual([403, "CANNOT_DOWNLOAD_JOB_IN_PROGRESS"]);
    sim.state.updateJob(id, { status: "SUCCESS" });
    const archive = await fetchBytes(`${jobsPath()}/${id}/download`);
    expect([archive.status, archive.type]).toEqual([200, "application/gzip"]);
    expect(gunzipSync(archive.body).toString("utf8")).toContain("rs0.example.com/mongodb.log");
    sim.state.updateJob(id, { status: "EXPIRED" });
    const expired = await failure(client.request({ method: "GET", path: `${jobsPath()}/${id}/download` }));
    expect([expired.status, expired.errorCode]).toEqual([403, "CANNOT_DOWNLOAD_EXPIRED_JOB"]);
  });

  it("reading jobs needs a project role that allows log collection, as creating them does", async () => {
    const outsider = sim.state.addApiKey({
      privateKey: "0f0f0f0f-1111-4222-8333-444444444444",
      roles: [{ orgId: "5f00000000000000000000ee", roleName: "ORG_OWNER" }],
    });
    const other = new HttpClient({
      baseUrl: sim.apiRoot,
      username: outsider.publicKey,
      password: "0f0f0f0f-1111-4222-8333-444444444444",
    });
    try {
      const refused = await failure(other.request({ method: "GET", path: jobsPath() }));
      expect([refused.status, refused.errorCode]).toEqual([401, "NOT_IN_GROUP"]);
    } finally {
      await other.close();
    }
  });

  it("a job of another project is not found in this one", async () => {
    const group = "5f00000000000000000000b2";
    sim.state.addGroup(group);
    const id = await createJob();
    const refused = await failure(
      client.request({ method: "GET", path: `/groups/${group}/logCollectionJobs/${id}` }),
    );
    expect([refused.status, refused.errorCode]).toEqual([404, "LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP"]);
  });
});

describe("the spec's server has only the create", () => {
  let spec: Simulator;
  let specClient: HttpClient;
  beforeAll(async () => {
    spec = await startSimulator({ profile: "spec" });
    specClient = new HttpClient({
      baseUrl: spec.apiRoot,
      username: spec.publicKey,
      password: spec.privateKey,
      retry: { maxAttempts: 1 },
    });
  });
  afterAll(async () => {
    await specClient?.close();
    await spec?.close();
  });

  it("the collection answers a listing 405 (POST only) and a job's paths 404 RESOURCE_NOT_FOUND, and nothing changes", async () => {
    const created = await specClient.request({
      method: "POST",
      path: `/groups/${spec.groupId}/logCollectionJobs`,
      body: {
        resourceType: "REPLICASET",
        resourceName: "rs0",
        sizeRequestedPerFileBytes: 10,
        logTypes: ["DATABASE"],
        redacted: false,
      },
    });
    const id = (created.body as { id: string }).id;
    const base = `/groups/${spec.groupId}/logCollectionJobs`;
    const listing = await failure(specClient.request({ method: "GET", path: base }));
    expect([listing.status, listing.errorCode]).toEqual([405, "METHOD_NOT_ALLOWED"]);
    for (const [method, sub] of [
      ["GET", `/${id}`],
      ["PATCH", `/${id}`],
      ["DELETE", `/${id}`],
      ["PUT", `/${id}/retry`],
      ["GET", `/${id}/download`],
    ] as const) {
      const body = method === "PATCH" ? { expirationDate: "2030-01-01T00:00:00Z" } : undefined;
      const error = await failure(specClient.request({ method, path: `${base}${sub}`, body }));
      expect([method, sub, error.status, error.errorCode]).toEqual([method, sub, 404, "RESOURCE_NOT_FOUND"]);
    }
    expect(spec.state.job(id)).toMatchObject({ id, expirationDate: expect.any(String) });
    expect(spec.state.jobs()).toHaveLength(1);
  });
});

describe("state files", () => {
  it("jobs saved before they had a life load as finished jobs that expire 30 days after creation", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-jobs-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const first = await startSimulator({ stateFile });
      await first.close();
      const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { jobs: unknown[] };
      const createdAt = new Date(Date.now() - DAY_MS).toISOString();
      // A job as this simulator saved it before jobs had a status or an expiration.
      saved.jobs = [
        {
          id: "5c810cc4ff7a256345ff97b7",
          groupId: "5f0000000000000000000002",
          resourceType: "REPLICASET",
          resourceName: "rs0",
          sizeRequestedPerFileBytes: 1000,
          logTypes: ["DATABASE"],
          redacted: true,
          createdAt,
        },
      ];
      fs.writeFileSync(stateFile, JSON.stringify(saved));
      const second = await startSimulator({ stateFile });
      try {
        expect(second.state.job("5c810cc4ff7a256345ff97b7")).toMatchObject({
          status: "SUCCESS",
          expirationDate: new Date(Date.parse(createdAt) + 30 * DAY_MS).toISOString(),
        });
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

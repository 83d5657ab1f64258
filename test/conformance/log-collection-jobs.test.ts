/**
 * Log collection jobs as the public record shows them: the 201 of a create read by our API layer, the
 * job records of the list endpoint read by our API layer and by a refresh through Pulumi's real
 * dynamic-provider host. Both endpoints' records are also checked against the documented shape, as a
 * zod schema written in this file: those tests are fixture self-checks (they test the fixtures, not the
 * provider, which does not read a single job's record).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { readListingByPage } from "../../provider/api/listing-pages";
import { logCollectionJobListing } from "../../provider/api/log-collection-job-listing";
import { createLogCollectionJob } from "../../provider/api/log-collection-jobs";
import type { HttpClient } from "../../provider/client";
import { JOB_TYPE, urn } from "../support/host";
import { type ProviderFixture, providerFixture } from "../support/provider-fixture";
import { GO_GROUP_ID, goCreateAnswer, goJobListPage, goJobRecord } from "./bodies/log-collection-jobs";
import type { VerbatimServer } from "./support/verbatim-server";
import { verbatimSuite } from "./support/verbatim-suite";

let server: VerbatimServer;
let client: HttpClient;

verbatimSuite((started, clientOf) => {
  server = started;
  client = clientOf();
});

const jobsPath = `/groups/${GO_GROUP_ID}/logCollectionJobs`;

describe("creating a job", () => {
  it("the 201 with the new job's id gives that id, after one POST", async () => {
    server.serve("POST", jobsPath, goCreateAnswer);
    // The Go client's request as its test sends it, the database log named MONGODB as the documentation
    // names it: against a server that takes that name, one POST.
    const request = {
      resourceType: "PROCESS" as const,
      resourceName: "my_deployment_1",
      sizeRequestedPerFileBytes: 10_000_000,
      logTypes: ["FTDC" as const, "MONGODB" as const, "AUTOMATION_AGENT" as const],
      redacted: true,
    };
    expect(await createLogCollectionJob(client, GO_GROUP_ID, request)).toEqual({
      id: "5c81086e014b76a3d85e1113",
    });
    const posts = server.authenticated().filter((r) => r.method === "POST");
    expect(posts.map((r) => [r.path, r.status, JSON.parse(r.body)])).toEqual([[jobsPath, 201, request]]);
  });
});

// The job record as NOTES.md lists it from the documentation and the Go client's types: the test's own
// schema, not the provider's.
const LOG_TYPES = ["AUTOMATION_AGENT", "BACKUP_AGENT", "MONITORING_AGENT", "MONGODB", "FTDC"] as const;
const hex24 = z.string().regex(/^[0-9a-f]{24}$/);
const isoDate = z.iso.datetime();
const childJobSchema = z.strictObject({
  automationAgentId: hex24,
  errorMessage: z.string(),
  finishDate: isoDate,
  hostName: z.string().min(1),
  logCollectionType: z.enum(LOG_TYPES),
  path: z.string().min(1),
  startDate: isoDate,
  status: z.enum(["IN_PROGRESS", "SUCCESS", "FAILURE"]),
  uncompressedDiskSpaceBytes: z.number().int().nonnegative(),
});
const jobRecordSchema = z.strictObject({
  id: hex24,
  groupId: hex24,
  userId: hex24,
  creationDate: isoDate,
  expirationDate: isoDate,
  status: z.enum(["IN_PROGRESS", "SUCCESS", "FAILURE", "MARKED_FOR_EXPIRY", "EXPIRED"]),
  // Echoed in lower case, as mongocli sends it; the create request's values are upper case.
  resourceType: z.enum(["cluster", "process", "replicaset"]),
  resourceName: z.string().min(1),
  rootResourceName: z.string().min(1),
  rootResourceType: z.enum(["cluster", "process", "replicaset"]),
  downloadUrl: z.url(),
  redacted: z.boolean(),
  logTypes: z.array(z.enum(LOG_TYPES)).min(1),
  sizeRequestedPerFileBytes: z.number().int().positive(),
  uncompressedSizeTotalBytes: z.number().int().nonnegative(),
  childJobs: z.array(childJobSchema).optional(),
});
const jobListSchema = z.strictObject({
  results: z.array(jobRecordSchema),
  totalCount: z.number().int().nonnegative(),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).optional(),
});

describe("job records as published: fixture self-checks, against a schema written in this test", () => {
  it("fixture self-check: a list page of job records is JSON of the documented shape and crosses our transport as served", async () => {
    server.serve("GET", jobsPath, goJobListPage);
    const { body } = await client.request({ method: "GET", path: jobsPath });
    expect(body).toEqual(JSON.parse(goJobListPage.body));
    const page = jobListSchema.parse(body);
    expect(page.totalCount).toBe(2);
    expect(page.results.map((j) => [j.id, j.status, j.resourceType, j.logTypes])).toEqual([
      ["5c810cc4ff7a256345ff97b7", "SUCCESS", "replicaset", ["AUTOMATION_AGENT", "MONGODB"]],
      ["5c81086e014b76a3d85e1113", "IN_PROGRESS", "replicaset", ["MONGODB", "FTDC", "AUTOMATION_AGENT"]],
    ]);
  });

  it("fixture self-check: one job record with its child jobs is JSON of the documented shape and crosses our transport as served", async () => {
    const path = `${jobsPath}/5c810cc4ff7a256345ff97b7`;
    server.serve("GET", path, goJobRecord);
    const { body } = await client.request({ method: "GET", path, query: { verbose: true } });
    expect(body).toEqual(JSON.parse(goJobRecord.body));
    const job = jobRecordSchema.parse(body);
    expect(job.childJobs).toEqual([
      expect.objectContaining({ logCollectionType: "AUTOMATION_AGENT", status: "SUCCESS" }),
    ]);
    expect(server.authenticated()[0]!.query).toEqual({ verbose: "true" });
  });
});

describe("job records read by the provider", () => {
  it("a list page reads through the API layer as the records say, in one request for the whole listing", async () => {
    server.serve("GET", jobsPath, goJobListPage);
    const jobs: unknown[] = [];
    await readListingByPage(client, logCollectionJobListing(GO_GROUP_ID), (page) =>
      jobs.push(...page.map((job) => job.record())),
    );
    expect(jobs).toEqual([
      {
        id: "5c810cc4ff7a256345ff97b7",
        status: "SUCCESS",
        creationDate: "2019-03-07T12:21:24Z",
        expirationDate: "2019-04-06T12:21:24Z",
        downloadUrl:
          "https://127.0.0.1:8080/api/public/v1.0/groups/5c8100bcf2a30b12ff88258f/logCollectionJobs?verbose=true&pageNum=1&itemsPerPage=100",
        userId: "5c80f75fcf09a246878f67a4",
        rootResourceName: "myReplicaSet",
        rootResourceType: "replicaset",
        uncompressedSizeTotalBytes: 63326,
        // What the job was created with, which an import reads.
        logTypes: ["AUTOMATION_AGENT", "MONGODB"],
        redacted: true,
        resourceName: "myReplicaSet",
        resourceType: "replicaset",
        sizeRequestedPerFileBytes: 1000,
      },
      expect.objectContaining({ id: "5c81086e014b76a3d85e1113", status: "IN_PROGRESS" }),
    ]);
    expect(server.authenticated().map((r) => [r.method, r.path, r.query])).toEqual([
      ["GET", jobsPath, { pageNum: "1", itemsPerPage: "500" }],
    ]);
  });

  describe("through the real dynamic-provider host", () => {
    let fixture: ProviderFixture;
    beforeAll(async () => {
      fixture = await providerFixture();
    });
    afterAll(async () => {
      await fixture?.close(server.privateKey);
    });

    it("a refresh reads a job from the published listing: its status, dates and download URL, the inputs as declared", async () => {
      server.serve("GET", jobsPath, goJobListPage);
      const host = await fixture.newHost({
        "opsmanager:baseUrl": server.origin,
        "opsmanager:publicKey": server.publicKey,
        "opsmanager:privateKey": server.privateKey,
      });
      const declared = {
        groupId: GO_GROUP_ID,
        resourceType: "REPLICASET",
        resourceName: "myReplicaSet",
        sizeRequestedPerFileBytes: 1000,
        logTypes: ["AUTOMATION_AGENT", "MONGODB"],
        redacted: true,
      };
      const id = "5c81086e014b76a3d85e1113";
      const read = await host.read(id, urn(JOB_TYPE, "go-job"), fixture.withJob({ ...declared, jobId: id }));
      const { __provider, ...props } = read.properties;
      expect(props).toEqual({
        ...declared,
        jobId: id,
        status: "IN_PROGRESS",
        creationDate: "2019-03-07T12:02:54Z",
        expirationDate: "2019-05-06T12:02:54Z",
        downloadUrl:
          "https://127.0.0.1:8080/api/public/v1.0/groups/5c8100bcf2a30b12ff88258f/logCollectionJobs?verbose=true&pageNum=1&itemsPerPage=100",
        userId: "5c80f75fcf09a246878f67a4",
        rootResourceName: "myReplicaSet",
        rootResourceType: "replicaset",
        uncompressedSizeTotalBytes: 44518,
        managed: { expirationDate: false },
        // The refresh filled what the recorded state lacked: it writes today's version.
        stateVersion: 1,
      });
    });
  });
});

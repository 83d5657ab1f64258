/**
 * Log collection jobs as the public record shows them: the 201 of a create read by our API layer,
 * and the job records of the list and get-one endpoints. The provider does not read job records yet,
 * so their tests are fixture self-checks: they check the fixtures against a zod schema written in this
 * file from the documented shape, not the provider's reading of them (a later task reads job records
 * with the provider, and should test them through it).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLogCollectionJob } from "../../provider/api/log-collection-jobs";
import { HttpClient } from "../../provider/client";
import { GO_GROUP_ID, goCreateAnswer, goJobListPage, goJobRecord } from "./bodies/log-collection-jobs";
import { startVerbatimServer, type VerbatimServer } from "./support/verbatim-server";

let server: VerbatimServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startVerbatimServer();
  client = new HttpClient({
    baseUrl: server.origin,
    username: server.publicKey,
    password: server.privateKey,
  });
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});
beforeEach(() => server.reset());

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

describe("job records: fixture self-checks, against a schema written in this test (the provider reads no job record yet)", () => {
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

/**
 * The deployed server's error answers (the error table's codes, the bad-credentials 401, a 429 with
 * and without Retry-After) as our code reports them: what the user reads is `error.message` alone, so
 * it must name the call, the status, the server's errorCode and detail.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listOrgApiKeysPage, patchOrgApiKey } from "../../provider/api/api-keys";
import { isJobGone } from "../../provider/api/log-collection-job-answers";
import {
  createLogCollectionJob,
  deleteLogCollectionJob,
  extendLogCollectionJob,
} from "../../provider/api/log-collection-jobs";
import { HttpClient } from "../../provider/client";
import { ApiError, AuthenticationError } from "../../provider/client/errors";
import {
  apiKeyNotFound400,
  apiKeyNotFound404,
  badCredentials,
  cannotDownloadExpiredJob,
  cannotExtendExpiredJob,
  ERROR_GROUP_ID,
  ERROR_JOB_ID,
  expirationDateMustBeInFuture,
  expirationDateTooDistant,
  goErrorBody,
  groupNotFound,
  invalidEnumValue,
  invalidLogRequestSize,
  ipAddressNotOnAccessList,
  logCollectionJobNotFoundInGroup,
  notInGroup,
  notOrgAdmin,
  orgNotFound,
  rateLimited,
  rateLimitedRetryAfter,
  userUnauthorized,
} from "./bodies/errors";
import { goCreateAnswer } from "./bodies/log-collection-jobs";
import { DOCS_KEY_ID, DOCS_ORG_ID, docsListPage } from "./bodies/org-api-keys";
import type { PublishedAnswer } from "./bodies/types";
import { startVerbatimServer, type VerbatimServer } from "./support/verbatim-server";

let server: VerbatimServer;
/** The default retry policy, as the provider builds its client. */
let client: HttpClient;
/** One attempt per request: what a message says, without waiting out retries. */
let once: HttpClient;

beforeAll(async () => {
  server = await startVerbatimServer();
  const options = { baseUrl: server.origin, username: server.publicKey, password: server.privateKey };
  client = new HttpClient(options);
  once = new HttpClient({ ...options, retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await Promise.all([client?.close(), once?.close()]);
  await server?.close();
});
beforeEach(() => server.reset());

const keysPath = `/orgs/${DOCS_ORG_ID}/apiKeys`;
const keyPath = `${keysPath}/${DOCS_KEY_ID}`;
const jobsPath = `/groups/${ERROR_GROUP_ID}/logCollectionJobs`;
const job = {
  resourceType: "REPLICASET" as const,
  resourceName: "myReplicaSet",
  sizeRequestedPerFileBytes: 1000,
  logTypes: ["DATABASE" as const],
  redacted: true,
};

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/**
 * What holds for every error answer with an errorCode: the message names the call, the status, the
 * errorCode and the detail; the error keeps the status and the errorCode; no credential is in it.
 */
function expectReported(error: ApiError, answer: PublishedAnswer, method: string, path: string): void {
  const { errorCode, detail } = JSON.parse(answer.body) as { errorCode: string; detail: string };
  expect(error.message).toContain(`${method} ${path} failed: ${answer.status}`);
  expect(error.message).toContain(errorCode);
  expect(error.message).toContain(detail);
  expect(error.status).toBe(answer.status);
  expect(error.errorCode).toBe(errorCode);
  expect(error.message).not.toContain(server.privateKey);
}

describe("error answers of the error table, through the API layer", () => {
  const cases: Array<{
    name: string;
    answer: PublishedAnswer;
    method: string;
    path: string;
    call: () => Promise<unknown>;
  }> = [
    {
      name: "IP_ADDRESS_NOT_ON_ACCESS_LIST (403) to a listing",
      answer: ipAddressNotOnAccessList,
      method: "GET",
      path: keysPath,
      call: () => listOrgApiKeysPage(once, DOCS_ORG_ID),
    },
    {
      name: "ORG_NOT_FOUND (404) to a listing",
      answer: orgNotFound,
      method: "GET",
      path: keysPath,
      call: () => listOrgApiKeysPage(once, DOCS_ORG_ID),
    },
    {
      name: "RATE_LIMITED (429) without Retry-After to a listing",
      answer: rateLimited,
      method: "GET",
      path: keysPath,
      call: () => listOrgApiKeysPage(once, DOCS_ORG_ID),
    },
    {
      name: "INVALID_ENUM_VALUE (400) to a create",
      answer: invalidEnumValue,
      method: "POST",
      path: jobsPath,
      call: () => createLogCollectionJob(once, ERROR_GROUP_ID, job),
    },
    {
      name: "GROUP_NOT_FOUND (404) to a create",
      answer: groupNotFound,
      method: "POST",
      path: jobsPath,
      call: () => createLogCollectionJob(once, ERROR_GROUP_ID, job),
    },
    {
      name: "INVALID_LOG_REQUEST_SIZE (400) to a create",
      answer: invalidLogRequestSize,
      method: "POST",
      path: jobsPath,
      call: () => createLogCollectionJob(once, ERROR_GROUP_ID, job),
    },
  ];

  for (const c of cases) {
    it(`${c.name} names the call, the status, the errorCode and the detail`, async () => {
      server.serve(c.method, c.path, c.answer);
      expectReported(await failure(c.call()), c.answer, c.method, c.path);
    });
  }

  it("RATE_LIMITED (429) with Retry-After also says how long the server asked to wait", async () => {
    server.serve("GET", keysPath, rateLimitedRetryAfter);
    const error = await failure(listOrgApiKeysPage(once, DOCS_ORG_ID));
    expectReported(error, rateLimitedRetryAfter, "GET", keysPath);
    expect(error.retryAfterMs).toBe(1000);
    expect(error.message).toContain("the server asked to wait 1 s");
  });
});

describe("error answers to a job's extension and delete, through the API layer", () => {
  const path = `${jobsPath}/${ERROR_JOB_ID}`;
  const extend = () => extendLogCollectionJob(once, ERROR_GROUP_ID, ERROR_JOB_ID, "2030-01-01T00:00:00Z");
  for (const [answer, advice] of [
    [expirationDateTooDistant, "may be at most 6 months after the job was created"],
    [expirationDateMustBeInFuture, "expirationDate must be later than now"],
    [cannotExtendExpiredJob, "an expired job cannot be extended; start a new job"],
  ] as const) {
    const { errorCode } = JSON.parse(answer.body) as { errorCode: string };
    it(`${errorCode} (${answer.status}) to an extension names the call, the status, the errorCode, the detail and what to do`, async () => {
      server.serve("PATCH", path, answer);
      const error = await failure(extend());
      expectReported(error, answer, "PATCH", path);
      expect(error.message).toContain(advice);
      expect(JSON.parse(server.authenticated()[0]!.body)).toEqual({ expirationDate: "2030-01-01T00:00:00Z" });
    });
  }

  it("LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP (404) to a delete names the job and the project, and says the job is gone", async () => {
    server.serve("DELETE", path, logCollectionJobNotFoundInGroup);
    const error = await failure(deleteLogCollectionJob(once, ERROR_GROUP_ID, ERROR_JOB_ID));
    expectReported(error, logCollectionJobNotFoundInGroup, "DELETE", path);
    expect(error.message).toContain(
      `check jobId "${ERROR_JOB_ID}": the server has no log collection job with that id in project ${ERROR_GROUP_ID}; it may have been deleted`,
    );
    expect(isJobGone(error)).toBe(true);
  });
});

describe("error answers to job endpoints the provider does not call, through the transport", () => {
  it("CANNOT_DOWNLOAD_EXPIRED_JOB (403) to a download names the call, the status, the errorCode and the detail", async () => {
    const path = `${jobsPath}/${ERROR_JOB_ID}/download`;
    server.serve("GET", path, cannotDownloadExpiredJob);
    expectReported(
      await failure(once.request({ method: "GET", path })),
      cannotDownloadExpiredJob,
      "GET",
      path,
    );
  });

  it("the Go client's error body, without parameters, names the call, the status, the errorCode and the detail", async () => {
    server.serve("POST", "/groups", goErrorBody);
    const error = await failure(once.request({ method: "POST", path: "/groups", body: { name: "Test" } }));
    expectReported(error, goErrorBody, "POST", "/groups");
    expect(error.parameters).toBeUndefined();
  });
});

describe("a 429 is retried as the server asks", () => {
  it("with Retry-After: 1, the listing is asked again after a second and then read", async () => {
    server.serve("GET", keysPath, rateLimitedRetryAfter, docsListPage);
    const page = await listOrgApiKeysPage(client, DOCS_ORG_ID);
    expect(page.results.map((k) => k.id)).toEqual([DOCS_KEY_ID]);
    const [limited, retried, ...more] = server.authenticated();
    expect(more).toEqual([]);
    expect([limited!.status, retried!.status]).toEqual([429, 200]);
    expect(retried!.receivedAt - limited!.answeredAt).toBeGreaterThanOrEqual(990);
  });

  it("without Retry-After, the listing is asked again after a backoff well under a second", async () => {
    server.serve("GET", keysPath, rateLimited, docsListPage);
    const retriesBefore = client.stats.retries;
    const page = await listOrgApiKeysPage(client, DOCS_ORG_ID);
    expect(page.totalCount).toBe(1);
    const [limited, retried, ...more] = server.authenticated();
    expect(more).toEqual([]);
    expect([limited!.status, retried!.status]).toEqual([429, 200]);
    expect(retried!.receivedAt - limited!.answeredAt).toBeLessThan(1000);
    expect(client.stats.retries - retriesBefore).toBe(1);
  });

  it("a create answered 429 is sent again, and one job id comes back", async () => {
    server.serve("POST", jobsPath, rateLimited, goCreateAnswer);
    expect(await createLogCollectionJob(client, ERROR_GROUP_ID, job)).toEqual({
      id: "5c81086e014b76a3d85e1113",
    });
    expect(server.authenticated().map((r) => [r.method, r.status])).toEqual([
      ["POST", 429],
      ["POST", 201],
    ]);
  });
});

describe("the bad-credentials 401", () => {
  it("is reported as a credentials problem with the server's detail, once, and without any key", async () => {
    const wrong = "0f0f0f0f-wrong-private-key";
    const stranger = new HttpClient({ baseUrl: server.origin, username: server.publicKey, password: wrong });
    try {
      server.serve("GET", keysPath, docsListPage);
      const error = await failure(listOrgApiKeysPage(stranger, DOCS_ORG_ID));
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.status).toBe(401);
      expect(error.errorCode).toBeUndefined();
      expect(error.message).toContain(`GET ${keysPath} failed: 401`);
      expect(error.message).toContain("the server rejected the credentials");
      expect(error.message).toContain(JSON.parse(badCredentials.body).detail);
      expect(error.message).not.toContain(wrong);
      expect(error.message).not.toContain(server.privateKey);
      // The challenge, then the refused answer to it: no retry of a refusal.
      expect(server.requests.map((r) => r.status)).toEqual([401, 401]);
      expect(server.authenticated()).toEqual([]);
    } finally {
      await stranger.close();
    }
  });
});

// How these answers are reported is being reworked by another task (a 401 with an errorCode is an
// authorization failure, not bad credentials; API_KEY_NOT_FOUND is a vanished key, 400 or 404). Only
// what holds before and after that change is asserted here: extend this block with the new reports.
describe("authorization 401s and API_KEY_NOT_FOUND: what reaches the user (reporting reworked elsewhere)", () => {
  const cases: Array<{
    name: string;
    answer: PublishedAnswer;
    method: string;
    path: string;
    call: () => Promise<unknown>;
  }> = [
    {
      name: "NOT_ORG_ADMIN (401) to a PATCH",
      answer: notOrgAdmin,
      method: "PATCH",
      path: keyPath,
      call: () => patchOrgApiKey(once, DOCS_ORG_ID, DOCS_KEY_ID, { desc: "managed by Pulumi" }),
    },
    {
      name: "USER_UNAUTHORIZED (401) to a listing",
      answer: userUnauthorized,
      method: "GET",
      path: keysPath,
      call: () => listOrgApiKeysPage(once, DOCS_ORG_ID),
    },
    {
      name: "NOT_IN_GROUP (401) to a create",
      answer: notInGroup,
      method: "POST",
      path: jobsPath,
      call: () => createLogCollectionJob(once, ERROR_GROUP_ID, job),
    },
    {
      name: "API_KEY_NOT_FOUND (400, as the table has it) to a PATCH",
      answer: apiKeyNotFound400,
      method: "PATCH",
      path: keyPath,
      call: () => patchOrgApiKey(once, DOCS_ORG_ID, DOCS_KEY_ID, { desc: "managed by Pulumi" }),
    },
    {
      name: "API_KEY_NOT_FOUND (404) to a PATCH",
      answer: apiKeyNotFound404,
      method: "PATCH",
      path: keyPath,
      call: () => patchOrgApiKey(once, DOCS_ORG_ID, DOCS_KEY_ID, { desc: "managed by Pulumi" }),
    },
  ];

  for (const c of cases) {
    it(`${c.name} names the call, the status, the errorCode and the detail`, async () => {
      server.serve(c.method, c.path, c.answer);
      expectReported(await failure(c.call()), c.answer, c.method, c.path);
    });
  }
});

/**
 * The deployed server's error answers (the error table's codes, the bad-credentials 401, a 429 with
 * and without Retry-After) as our code reports them: what the user reads is `error.message` alone, so
 * it must name the call, the status, the server's errorCode and detail. A 401 with an errorCode is an
 * authorization failure, and API_KEY_NOT_FOUND (400 or 404) a key that is gone, through the API layer
 * and Pulumi's real dynamic-provider host.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isApiKeyGone } from "../../provider/api/api-key-gone";
import { patchOrgApiKey } from "../../provider/api/api-keys";
import { apiRoot } from "../../provider/api/api-root";
import { AuthorizationError } from "../../provider/api/authorization-error";
import { isJobGone } from "../../provider/api/log-collection-job-answers";
import {
  createLogCollectionJob,
  deleteLogCollectionJob,
  extendLogCollectionJob,
} from "../../provider/api/log-collection-jobs";
import { HttpClient } from "../../provider/client";
import { ApiError, AuthenticationError } from "../../provider/client/errors";
import { RETRY_DEFAULTS } from "../../provider/client/retry";
import { advanceUntil, until, watched, withFakeTimeouts } from "../support/fake-clock";
import { type Host, type HostCallError, KEY_TYPE, type Props, urn } from "../support/host";
import { orgKeysPage } from "../support/listing";
import { checkThenCreate, type ProviderFixture, providerFixture } from "../support/provider-fixture";
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
import type { VerbatimServer } from "./support/verbatim-server";
import { verbatimSuite } from "./support/verbatim-suite";

let server: VerbatimServer;
/** The default retry policy, as the provider builds its client. */
let client: HttpClient;
/** One attempt per request: what a message says, without waiting out retries. */
let once: HttpClient;

verbatimSuite((started, clientOf) => {
  server = started;
  client = clientOf();
  once = clientOf({ retry: { maxAttempts: 1 } });
});

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
      call: () => orgKeysPage(once, DOCS_ORG_ID),
    },
    {
      name: "ORG_NOT_FOUND (404) to a listing",
      answer: orgNotFound,
      method: "GET",
      path: keysPath,
      call: () => orgKeysPage(once, DOCS_ORG_ID),
    },
    {
      name: "RATE_LIMITED (429) without Retry-After to a listing",
      answer: rateLimited,
      method: "GET",
      path: keysPath,
      call: () => orgKeysPage(once, DOCS_ORG_ID),
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
    const error = await failure(orgKeysPage(once, DOCS_ORG_ID));
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
    const page = await orgKeysPage(client, DOCS_ORG_ID);
    expect(page.results.map((k) => k.id)).toEqual([DOCS_KEY_ID]);
    const [limited, retried, ...more] = server.authenticated();
    expect(more).toEqual([]);
    expect([limited!.status, retried!.status]).toEqual([429, 200]);
    expect(retried!.receivedAt - limited!.answeredAt).toBeGreaterThanOrEqual(990);
  });

  it("without Retry-After, the listing is asked again after a backoff well under a second", async () => {
    server.serve("GET", keysPath, rateLimited, docsListPage);
    const retriesBefore = client.stats.retries;
    // The backoff on a fake clock, moved a millisecond at a time once the 429 is answered: the retry
    // leaves within the policy's first backoff ceiling (baseDelayMs, 250 ms; a few 1 ms steps more while
    // the answer reaches the client), not after a second, however busy the machine.
    const page = await withFakeTimeouts(async () => {
      const read = watched(orgKeysPage(client, DOCS_ORG_ID));
      await until(
        () =>
          server.authenticated()[0]?.answeredAt !== undefined && server.authenticated()[0]!.answeredAt > 0,
      );
      await advanceUntil(() => server.authenticated().length === 2, 1, RETRY_DEFAULTS.baseDelayMs + 5);
      return read.promise;
    });
    expect(page.totalCount).toBe(1);
    const [limited, retried, ...more] = server.authenticated();
    expect(more).toEqual([]);
    expect([limited!.status, retried!.status]).toEqual([429, 200]);
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

// A 401 is one of two answers on the deployed server (NOTES.md): with an errorCode, valid credentials
// without the role the call needs; without one, bad credentials.
describe("401s: a missing role is an AuthorizationError, bad credentials an AuthenticationError", () => {
  const cases: Array<{
    name: string;
    answer: PublishedAnswer;
    method: string;
    path: string;
    call: () => Promise<unknown>;
    operation: string;
    role: string;
  }> = [
    {
      name: "NOT_ORG_ADMIN (401) to a PATCH",
      answer: notOrgAdmin,
      method: "PATCH",
      path: keyPath,
      call: () => patchOrgApiKey(once, DOCS_ORG_ID, DOCS_KEY_ID, { desc: "managed by Pulumi" }),
      operation: "updating an organization API key",
      role: `the Organization Owner (ORG_OWNER) or Organization User Admin role in organization ${DOCS_ORG_ID}`,
    },
    {
      name: "USER_UNAUTHORIZED (401) to a listing",
      answer: userUnauthorized,
      method: "GET",
      path: keysPath,
      call: () => orgKeysPage(once, DOCS_ORG_ID),
      operation: "listing an organization's API keys",
      role: `a role in organization ${DOCS_ORG_ID} (any organization role, such as Organization Read Only)`,
    },
    {
      name: "NOT_IN_GROUP (401) to a create",
      answer: notInGroup,
      method: "POST",
      path: jobsPath,
      call: () => createLogCollectionJob(once, ERROR_GROUP_ID, job),
      operation: "creating a log collection job",
      role:
        `a role in project ${ERROR_GROUP_ID} that allows log collection: Project Automation Admin ` +
        "(GROUP_AUTOMATION_ADMIN), Project Backup Admin (GROUP_BACKUP_ADMIN) or Project Monitoring Admin " +
        "(GROUP_MONITORING_ADMIN), or Project Owner (GROUP_OWNER)",
    },
  ];

  for (const c of cases) {
    it(`${c.name} is an AuthorizationError that names the code, the operation and the role, and not the keys`, async () => {
      server.serve(c.method, c.path, c.answer);
      const error = await failure(c.call());
      expectReported(error, c.answer, c.method, c.path);
      expect(error).toBeInstanceOf(AuthorizationError);
      expect(error).not.toBeInstanceOf(AuthenticationError);
      expect(error.code).toBe("OM_ERR_FORBIDDEN");
      expect(error).toMatchObject({ operation: c.operation, requiredRole: c.role });
      expect(error.message).toContain(
        `(the credentials were accepted, but ${c.operation} needs ${c.role}; give the API key that role, or configure a key that has it)`,
      );
      expect(error.message).not.toMatch(/check the public key|private key|rejected the credentials/);
      // A refusal is answered once: not retried, and (for the create) no other log type name tried.
      expect(server.authenticated().filter((r) => r.method === c.method)).toHaveLength(1);
    });
  }

  it("the bad-credentials 401, without an errorCode, stays an AuthenticationError with the credentials advice, once, and without any key", async () => {
    const wrong = "0f0f0f0f-wrong-private-key";
    const stranger = new HttpClient({
      baseUrl: apiRoot(server.origin),
      username: server.publicKey,
      password: wrong,
    });
    try {
      server.serve("GET", keysPath, docsListPage);
      const error = await failure(orgKeysPage(stranger, DOCS_ORG_ID));
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).not.toBeInstanceOf(AuthorizationError);
      expect(error.code).toBe("OM_ERR_AUTH");
      expect(error.status).toBe(401);
      expect(error.errorCode).toBeUndefined();
      expect(error.message).toContain(`GET ${keysPath} failed: 401`);
      expect(error.message).toContain("the server rejected the credentials");
      expect(error.message).toContain(JSON.parse(badCredentials.body).detail);
      expect(error.message).toContain("check the public key and private key");
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

describe("API_KEY_NOT_FOUND, 400 as the error table has it or 404: the key is gone", () => {
  const answers = [apiKeyNotFound400, apiKeyNotFound404];
  const keyUrn = urn(KEY_TYPE, "docs-key");
  // The documentation's key as it is listed, so that adopting it sends no PATCH.
  const declared = {
    orgId: DOCS_ORG_ID,
    apiKeyId: DOCS_KEY_ID,
    desc: "Test Docs Service User",
    roles: ["ORG_MEMBER"],
    restoreOnDelete: true,
  };
  let fixture: ProviderFixture;
  let host: Host;
  /** The state `pulumi up` recorded for the key, adopted through the host. */
  let state: Props;

  beforeAll(async () => {
    fixture = await providerFixture();
    host = await fixture.newHost({
      "opsmanager:baseUrl": server.origin,
      "opsmanager:publicKey": server.publicKey,
      "opsmanager:privateKey": server.privateKey,
    });
    server.serve("GET", keysPath, docsListPage);
    state = (await checkThenCreate(host, keyUrn, fixture.withKey(declared))).properties;
    expect(server.authenticated().map((r) => r.method)).toEqual(["GET"]);
  });
  afterAll(async () => {
    await fixture?.close(server.privateKey);
  });

  const patches = () =>
    server
      .authenticated()
      .filter((r) => r.method === "PATCH")
      .map((r) => [r.path, r.status, JSON.parse(r.body)]);

  for (const answer of answers) {
    it(`${answer.status} to a PATCH names the call, the status, the errorCode and the detail, and isApiKeyGone reads it as gone`, async () => {
      server.serve("PATCH", keyPath, answer);
      const error = await failure(
        patchOrgApiKey(once, DOCS_ORG_ID, DOCS_KEY_ID, { desc: "managed by Pulumi" }),
      );
      expectReported(error, answer, "PATCH", keyPath);
      expect(isApiKeyGone(error)).toBe(true);
    });

    it(`${answer.status}, through the host, fails an update with the advice to run pulumi refresh`, async () => {
      server.serve("PATCH", keyPath, answer);
      const err = (await host
        .update(DOCS_KEY_ID, keyUrn, state, fixture.withKey({ ...declared, desc: "managed by Pulumi" }))
        .catch((e) => e)) as HostCallError;
      expect(err).toBeInstanceOf(Error);
      expect(err.message).toContain(`PATCH ${keyPath} failed: ${answer.status} API_KEY_NOT_FOUND`);
      expect(err.message).toContain(JSON.parse(answer.body).detail);
      expect(err.message).toMatch(/run `pulumi refresh` to drop it from the stack/);
      expect(patches()).toEqual([
        [keyPath, answer.status, { desc: "managed by Pulumi", roles: ["ORG_MEMBER"] }],
      ]);
    });

    it(`${answer.status}, through the host, lets a restoreOnDelete destroy succeed: nothing left to restore`, async () => {
      server.serve("PATCH", keyPath, answer);
      // `pulumi destroy`: a process of its own.
      const destroy = await fixture.newHost({
        "opsmanager:baseUrl": server.origin,
        "opsmanager:publicKey": server.publicKey,
        "opsmanager:privateKey": server.privateKey,
      });
      await destroy.delete(DOCS_KEY_ID, keyUrn, state);
      // The restore was tried once, and its answer taken as the key being gone.
      expect(patches()).toEqual([
        [keyPath, answer.status, { desc: "Test Docs Service User", roles: ["ORG_MEMBER"] }],
      ]);
    });
  }
});

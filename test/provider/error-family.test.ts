import { describe, expect, it } from "vitest";
import { AuthorizationError } from "../../provider/api/authorization-error";
import { InconsistentListingError } from "../../provider/api/inconsistent-listing-error";
import { InputError } from "../../provider/api/input-error";
import { MalformedCreateAnswerError } from "../../provider/api/malformed-create-answer-error";
import { inOpsManagerTerms } from "../../provider/api/request";
import { UncertainCreateError } from "../../provider/api/uncertain-create-error";
import * as errors from "../../provider/client/errors";
import { ConfigError } from "../../provider/resources/shared/config-error";
import { inContext } from "../../provider/resources/shared/in-context";
import { ResourceError } from "../../provider/resources/shared/resource-error";

const call = {
  method: "PATCH",
  path: "/orgs/5f1/apiKeys/5f2",
  url: "https://om.example.com:8443/api/public/v1.0/orgs/5f1/apiKeys/5f2",
};
const cause = new Error("socket hang up");

const requestErrors: Array<[errors.RequestError, string]> = [
  [
    new errors.ApiError({ ...call, status: 400, errorCode: "INVALID_ATTRIBUTE", detail: "desc" }),
    "OM_ERR_API",
  ],
  [new errors.AuthenticationError({ ...call }), "OM_ERR_AUTH"],
  [
    new AuthorizationError(new errors.ApiError({ ...call, status: 401, errorCode: "USER_UNAUTHORIZED" }), {
      kind: "updateOrgApiKey",
      orgId: "5f1",
    }),
    "OM_ERR_FORBIDDEN",
  ],
  [new errors.NetworkError({ ...call, causeCode: "ECONNRESET", requestSent: true, cause }), "OM_ERR_NETWORK"],
  [new errors.TimeoutError({ ...call, timeoutMs: 1000, requestSent: true }), "OM_ERR_TIMEOUT"],
  [
    new errors.AbortedError({ ...call, reason: "the operation was cancelled", requestSent: true }),
    "OM_ERR_ABORTED",
  ],
  [new errors.TlsError({ ...call, causeCode: "CERT_HAS_EXPIRED", cause }), "OM_ERR_TLS"],
  [
    new errors.SchemeMismatchError({
      ...call,
      serverScheme: "https",
      suggestedBaseUrl: "https://om.example.com",
    }),
    "OM_ERR_SCHEME_MISMATCH",
  ],
  [
    new errors.ResponseShapeError({ ...call, status: 200, description: "the body is not valid JSON" }),
    "OM_ERR_RESPONSE_SHAPE",
  ],
  [new errors.ResponseTooLargeError({ ...call, status: 200, limitBytes: 10 }), "OM_ERR_RESPONSE_TOO_LARGE"],
  [
    new MalformedCreateAnswerError(
      new errors.ResponseShapeError({ ...call, method: "POST", status: 201, description: "the id is odd" }),
      "job-17",
    ),
    "OM_ERR_RESPONSE_SHAPE",
  ],
  [
    new UncertainCreateError(
      "log collection job",
      "check the project's jobs",
      new errors.ApiError({ ...call, method: "POST", status: 500 }),
    ),
    "OM_ERR_UNCERTAIN_CREATE",
  ],
];

// About a listing, not one call: its own test below checks the call it holds.
const inconsistent = new InconsistentListingError({
  path: "/orgs/5f1/apiKeys",
  url: "https://om.example.com/api/public/v1.0/orgs/5f1/apiKeys",
  reads: 3,
  disagreement: "page 2 said 1 key",
});

const otherErrors: Array<[errors.OpsManagerError, string]> = [
  [inconsistent, "OM_ERR_INCONSISTENT_LISTING"],
  [new errors.InvalidArgumentError("baseUrl", "must be a URL"), "OM_ERR_INVALID_ARGUMENT"],
  [new InputError("groupId", "must be 24 hexadecimal digits", '"5f"'), "OM_ERR_INPUT"],
  [
    new ConfigError("Ops Manager settings missing: opsmanager:baseUrl", ["opsmanager:baseUrl"]),
    "OM_ERR_CONFIG",
  ],
  [new ResourceError("LogCollectionJob j: reading a job needs its groupId"), "OM_ERR_RESOURCE"],
];

describe("one error family", () => {
  for (const [error, code] of [...requestErrors, ...otherErrors]) {
    it(`${error.name} is an errors.OpsManagerError with the stable code ${code}`, () => {
      expect(error).toBeInstanceOf(errors.OpsManagerError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe(code);
      expect(error.name).not.toBe("Error");
    });
  }

  it("ErrorCode holds every class's code and no code that no class uses", () => {
    const used = new Set([...requestErrors, ...otherErrors].map(([error]) => error.code));
    expect([...used].sort()).toEqual([...errors.ERROR_CODES].sort());
    expect(new Set(errors.ERROR_CODES).size).toBe(errors.ERROR_CODES.length);
  });

  it("a MalformedCreateAnswerError is its cause's ResponseShapeError, with the created id typed", () => {
    const shape = new errors.ResponseShapeError({
      ...call,
      method: "POST",
      status: 201,
      description: "the body does not match the expected schema",
      issues: ["id: must be 24 hexadecimal digits"],
    });
    shape.noteAttempts(2, 300);
    const carried = new MalformedCreateAnswerError(shape, "job-17");
    expect(carried).toBeInstanceOf(errors.ResponseShapeError);
    const createdId: string = carried.createdId;
    expect(createdId).toBe("job-17");
    expect([carried.message, carried.code, carried.issues, carried.attempts]).toEqual([
      shape.message,
      shape.code,
      shape.issues,
      2,
    ]);
  });

  for (const [error] of requestErrors) {
    it(`${error.name} holds the call once and its message starts with it, without the URL`, () => {
      expect(error).toBeInstanceOf(errors.RequestError);
      expect(error.path).toBe(call.path);
      expect(error.url).toBe(call.url);
      expect(error.message.startsWith(`${error.method} ${call.path} `)).toBe(true);
      expect(error.message).not.toContain(call.url);
      expect(error.message).not.toMatch(/:\/\/[^/\s]*@/);
    });
  }

  it("InconsistentListingError holds the listing's call", () => {
    const error = inconsistent;
    expect(error).toBeInstanceOf(errors.RequestError);
    expect(error).toMatchObject({
      method: "GET",
      path: "/orgs/5f1/apiKeys",
      code: "OM_ERR_INCONSISTENT_LISTING",
    });
    expect(error.message.startsWith("GET /orgs/5f1/apiKeys: ")).toBe(true);
    expect(error.message).not.toContain("https://");
  });

  it("a cause is the standard ES2022 cause, and absent when none was given", () => {
    const network = new errors.NetworkError({ ...call, requestSent: false, cause });
    expect(network.cause).toBe(cause);
    expect(Object.keys(network)).not.toContain("cause");
    expect("cause" in new errors.ApiError({ ...call, status: 500 })).toBe(false);
  });

  it("attempts are noted at the end of the message", () => {
    const error = new errors.ApiError({ ...call, status: 503 });
    error.noteAttempts(3, 1234);
    expect(error.message).toBe(
      "PATCH /orgs/5f1/apiKeys/5f2 failed: 503 (the server failed; try again); 3 attempts over 1.2 s",
    );
  });
});

describe("each layer adds its own meaning to what HTTP says", () => {
  it("the transport's 403 and rejected credentials speak HTTP; the API layer adds Ops Manager's roles, key and access list", () => {
    const forbidden = new errors.ApiError({ ...call, status: 403, errorCode: "USER_CANNOT_ACCESS_ORG" });
    expect(forbidden.message).toBe("PATCH /orgs/5f1/apiKeys/5f2 failed: 403 USER_CANNOT_ACCESS_ORG");
    const told = inOpsManagerTerms(forbidden) as errors.ApiError;
    expect(told.message).toContain(
      "(the credentials are valid but not allowed this call: give the API key a role",
    );
    expect(forbidden.hint).toBeUndefined();

    const rejected = new errors.AuthenticationError({ ...call, detail: "no" });
    expect(rejected.message).toBe(
      "PATCH /orgs/5f1/apiKeys/5f2 failed: 401 — the server rejected the credentials (server: no); check the credentials",
    );
    const explained = inOpsManagerTerms(rejected) as errors.AuthenticationError;
    expect(explained).toBeInstanceOf(errors.AuthenticationError);
    expect(explained.code).toBe("OM_ERR_AUTH");
    expect(explained.message).toContain("; check the public key and private key (or user name and API key)");
    expect(explained.message).toContain("that the API key is enabled");

    const scheme = new errors.AuthenticationError({
      ...call,
      why: "unsupported-challenge",
      offered: "Basic",
    });
    expect(scheme.message).not.toContain("Ops Manager");
    expect((inOpsManagerTerms(scheme) as Error).message).toContain(
      "(it offered: Basic); Ops Manager's public API uses HTTP Digest with MD5 or SHA-256",
    );
  });

  it("a body that is not the API's: the transport says check the base URL; the API layer names Ops Manager and the server's version", () => {
    const page = new errors.ResponseShapeError({
      ...call,
      status: 200,
      description: "the body is text/html, not JSON",
    });
    page.noteAttempts(1, 5);
    expect(page.message).toBe(
      "PATCH /orgs/5f1/apiKeys/5f2 answered 200, but the body is text/html, not JSON; " +
        "check that the base URL points at the API this client was meant for (base URL: https://om.example.com:8443/api/public/v1.0)",
    );
    const told = inOpsManagerTerms(page) as errors.ResponseShapeError;
    expect(told).toBeInstanceOf(errors.ResponseShapeError);
    expect(told.message).toBe(
      "PATCH /orgs/5f1/apiKeys/5f2 answered 200, but the body is text/html, not JSON; " +
        "check that the base URL points at the Ops Manager API and that the server version is supported " +
        "(base URL: https://om.example.com:8443/api/public/v1.0)",
    );
    expect([told.url, told.status, told.attempts]).toEqual([page.url, 200, 1]);
    expect(page.hint).toBeUndefined();
    expect(inOpsManagerTerms(told)).toBe(told);
  });

  it("a copy of an AuthorizationError with other advice is still one, with its code, operation and attempts", () => {
    const refused = new errors.ApiError({
      ...call,
      status: 401,
      errorCode: "USER_UNAUTHORIZED",
      detail: "no",
    });
    refused.noteAttempts(2, 1500);
    const told = new AuthorizationError(refused, { kind: "updateOrgApiKey", orgId: "5f1" });
    const copy = told.withHint("something else to do");
    expect(copy).toBeInstanceOf(AuthorizationError);
    expect(copy.code).toBe("OM_ERR_FORBIDDEN");
    expect((copy as AuthorizationError).operation).toBe(told.operation);
    expect((copy as AuthorizationError).requiredRole).toBe(told.requiredRole);
    expect(copy.message).toBe(
      "PATCH /orgs/5f1/apiKeys/5f2 failed: 401 USER_UNAUTHORIZED — no (something else to do); 2 attempts over 1.5 s",
    );
    expect(told.message).toContain(
      "(the credentials were accepted, but updating an organization API key needs",
    );
    const late = told.beyondRetryBudget(1000, 120_000);
    expect(late).toBeInstanceOf(AuthorizationError);
    expect(late.message).toContain(
      "(the credentials were accepted, but updating an organization API key needs",
    );
  });

  it("a copy of an ApiError, or an AuthorizationError made from one, keeps every field of the answer", () => {
    const answer = {
      ...call,
      status: 429,
      errorCode: "RATE_LIMITED",
      detail: "slow down",
      reason: "Too Many Requests",
      parameters: ["x"],
      retryAfterMs: 5000,
      bodySnippet: '"{}"',
      location: "https://elsewhere",
      retryBudget: { leftMs: 1000, totalMs: 2000 },
      hint: "wait",
    };
    const original = new errors.ApiError(answer);
    expect(original.answer()).toEqual(answer);
    expect(original.withHint("wait more").answer()).toEqual({ ...answer, hint: "wait more" });
    const refused = new AuthorizationError(original, { kind: "updateOrgApiKey", orgId: "5f1" });
    expect({ ...refused.answer(), hint: "wait" }).toEqual(answer);
  });

  it("a 409 says the resource changed; through a resource it says to run pulumi refresh", () => {
    const conflict = new errors.ApiError({ ...call, status: 409 });
    expect(conflict.message).toBe(
      "PATCH /orgs/5f1/apiKeys/5f2 failed: 409 (the resource changed meanwhile; try again)",
    );
    const shown = inContext("OrgApiKey (API key id 5f2 in organization 5f1)", conflict);
    expect(shown).toBeInstanceOf(errors.ApiError);
    expect(shown.message).toBe(
      "OrgApiKey (API key id 5f2 in organization 5f1): PATCH /orgs/5f1/apiKeys/5f2 failed: 409 " +
        "(the resource changed meanwhile; run `pulumi refresh`, then try again)",
    );
    expect(conflict.message).not.toContain("pulumi");
    expect(shown.cause).toBe(conflict);
  });
});

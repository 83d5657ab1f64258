/**
 * Where the deployed server and the spec differ (simulator/profiles.ts): log type names, case, the time
 * window, Retry-After, roles; a role refusal that also challenges; the profile on the command line.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { BOTH, CHALLENGE_RE, DB_LOG, DigestClient, type ErrorBody, json, validJobFor } from "./support";

describe.each(BOTH)("where the deployed server and the spec differ (%s profile)", (profile) => {
  let sim: Simulator;
  let client: DigestClient;
  const deployed = profile === "deployed";
  const jobPath = () => `/groups/${sim.groupId}/logCollectionJobs`;
  beforeAll(async () => {
    sim = await startSimulator({ profile });
    client = new DigestClient(sim);
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());

  /** A key with these roles, and a digest client that signs as it. */
  function caller(roles: { orgId?: string; groupId?: string; roleName: string }[]) {
    const key = sim.state.addApiKey({ roles });
    return { key, client: new DigestClient(sim, key.publicKey, key.privateKey) };
  }

  it("names the database log MONGODB as deployed servers do and refuses the other name with 400 INVALID_ENUM_VALUE", async () => {
    const before = sim.state.jobs().length;
    const taken = await client.call("POST", jobPath(), {
      ...validJobFor(profile),
      logTypes: [DB_LOG[profile]],
    });
    expect(taken.status).toBe(201);
    const other = deployed ? "DATABASE" : "MONGODB";
    const refused = await client.call("POST", jobPath(), { ...validJobFor(profile), logTypes: [other] });
    expect(refused.status).toBe(400);
    expect(json<ErrorBody>(refused)).toMatchObject({
      errorCode: "INVALID_ENUM_VALUE",
      parameters: [other, "logTypes"],
    });
    expect(json<ErrorBody>(refused).detail).toContain(other);
    expect(sim.state.jobs()).toHaveLength(before + 1);
    expect(sim.state.jobs().at(-1)?.logTypes).toEqual([DB_LOG[profile]]);
  });

  it("takes a lower-case resourceType and stores it as sent when deployed; the spec profile refuses it", async () => {
    const before = sim.state.jobs().length;
    const reply = await client.call("POST", jobPath(), {
      ...validJobFor(profile),
      resourceType: "replicaset",
    });
    if (deployed) {
      expect(reply.status).toBe(201);
      expect(sim.state.jobs().at(-1)?.resourceType).toBe("replicaset");
    } else {
      expect(reply.status).toBe(400);
      expect(json<ErrorBody>(reply).errorCode).toBe("INVALID_ENUM_VALUE");
      expect(sim.state.jobs()).toHaveLength(before);
    }
  });

  it("takes the optional time window in ms since the epoch when deployed; the spec profile refuses it as an unknown attribute", async () => {
    const window = { logCollectionFromDate: 1_700_000_000_000, logCollectionToDate: 1_700_086_400_000 };
    const reply = await client.call("POST", jobPath(), { ...validJobFor(profile), ...window });
    if (deployed) {
      expect(reply.status).toBe(201);
      expect(sim.state.jobs().at(-1)).toMatchObject(window);
      for (const bad of [{ logCollectionToDate: 1.5 }, { logCollectionFromDate: "2026-01-01" }]) {
        const refused = await client.call("POST", jobPath(), { ...validJobFor(profile), ...bad });
        expect(refused.status, JSON.stringify(bad)).toBe(400);
        expect(json<ErrorBody>(refused).errorCode).toBe("INVALID_ATTRIBUTE");
      }
      const reversed = await client.call("POST", jobPath(), {
        ...validJobFor(profile),
        logCollectionFromDate: window.logCollectionToDate,
        logCollectionToDate: window.logCollectionFromDate,
      });
      expect(json<ErrorBody>(reversed)).toMatchObject({ error: 400, errorCode: "INVALID_ATTRIBUTE" });
    } else {
      expect(reply.status).toBe(400);
      expect(json<ErrorBody>(reply)).toMatchObject({ errorCode: "INVALID_ATTRIBUTE" });
      expect(json<ErrorBody>(reply).detail).toContain("logCollectionFromDate");
    }
  });

  it("answers a 429 without Retry-After when deployed unless the fault gives one, and with Retry-After: 1 in the spec profile", async () => {
    sim.faults.add({ status: 429 }, { status: 429, retryAfterSeconds: 3 });
    const plain = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(plain.status).toBe(429);
    expect(json<ErrorBody>(plain).errorCode).toBe("RATE_LIMITED");
    expect(plain.headers["retry-after"]).toBe(deployed ? undefined : "1");
    const told = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(told.headers["retry-after"]).toBe("3");
  });

  it("a key with ORG_READ_ONLY lists the org's keys, and its PATCH is 401 USER_UNAUTHORIZED without a challenge when deployed", async () => {
    const reader = caller([{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }]);
    expect((await reader.client.call("GET", `/orgs/${sim.orgId}/apiKeys`)).status).toBe(200);
    const target = sim.state.addApiKey({ desc: "before" });
    const reply = await reader.client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${target.id}`, {
      desc: "after",
    });
    if (deployed) {
      expect(reply.status).toBe(401);
      expect(reply.headers["www-authenticate"]).toBeUndefined();
      expect(json<ErrorBody>(reply)).toMatchObject({
        error: 401,
        errorCode: "USER_UNAUTHORIZED",
        reason: "Unauthorized",
      });
      expect(sim.state.apiKey(target.id)?.desc).toBe("before");
    } else {
      expect(reply.status).toBe(200);
    }
  });

  it("a key with no role in the org gets 401 USER_UNAUTHORIZED for its keys when deployed", async () => {
    const stranger = caller([{ orgId: "5f00000000000000000000a1", roleName: "ORG_OWNER" }]);
    const reply = await stranger.client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    expect(reply.status).toBe(deployed ? 401 : 200);
    if (deployed) expect(json<ErrorBody>(reply).errorCode).toBe("USER_UNAUTHORIZED");
  });

  it("log collection takes a project role that allows it, or the org's owner; others get 401 NOT_IN_GROUP or USER_UNAUTHORIZED when deployed", async () => {
    const cases: [string, { orgId?: string; groupId?: string; roleName: string }[], number, string?][] = [
      ["no role in the project", [{ orgId: sim.orgId, roleName: "ORG_MEMBER" }], 401, "NOT_IN_GROUP"],
      [
        "Project Read Only",
        [{ groupId: sim.groupId, roleName: "GROUP_READ_ONLY" }],
        401,
        "USER_UNAUTHORIZED",
      ],
      ["Project Automation Admin", [{ groupId: sim.groupId, roleName: "GROUP_AUTOMATION_ADMIN" }], 201],
      ["Project Monitoring Admin", [{ groupId: sim.groupId, roleName: "GROUP_MONITORING_ADMIN" }], 201],
      ["Organization Owner", [{ orgId: sim.orgId, roleName: "ORG_OWNER" }], 201],
    ];
    for (const [name, roles, status, errorCode] of cases) {
      const before = sim.state.jobs().length;
      const reply = await caller(roles).client.call("POST", jobPath(), validJobFor(profile));
      expect(reply.status, name).toBe(deployed ? status : 201);
      if (deployed && errorCode !== undefined) {
        expect(json<ErrorBody>(reply).errorCode, name).toBe(errorCode);
        expect(sim.state.jobs(), name).toHaveLength(before);
      }
    }
  });
});

describe("challengeOnRoleRefusal", () => {
  it("a role refusal also carries a new Digest challenge, stale=false; bad credentials are answered as before", async () => {
    const sim = await startSimulator({ challengeOnRoleRefusal: true });
    try {
      const key = sim.state.addApiKey({ roles: [{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }] });
      const reader = new DigestClient(sim, key.publicKey, key.privateKey);
      const target = sim.state.addApiKey({ desc: "before" });
      const reply = await reader.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${target.id}`, { desc: "after" });
      expect(reply.status).toBe(401);
      expect(json<ErrorBody>(reply).errorCode).toBe("USER_UNAUTHORIZED");
      const challenge = CHALLENGE_RE.exec(String(reply.headers["www-authenticate"]));
      expect(challenge?.[2]).toBe("false");
      expect(challenge?.[1]).not.toBe(sim.requests.at(-1)?.digest?.nonce);
      expect(sim.state.apiKey(target.id)?.desc).toBe("before");
      const wrong = await new DigestClient(sim, key.publicKey, "not-the-key").call(
        "GET",
        `/orgs/${sim.orgId}/apiKeys`,
      );
      expect(wrong.status).toBe(401);
      expect(json<ErrorBody>(wrong).errorCode).toBeUndefined();
      expect(wrong.headers["www-authenticate"]).toMatch(CHALLENGE_RE);
    } finally {
      await sim.close();
    }
  });
});

describe("the simulator's command line", () => {
  it("takes --profile deployed or spec, and refuses any other", async () => {
    const { parseArgs } = await import("../../simulator/cli");
    expect(parseArgs(["--profile", "spec"]).profile).toBe("spec");
    expect(parseArgs(["--profile", "deployed", "--port", "0"])).toMatchObject({
      profile: "deployed",
      port: 0,
    });
    expect(parseArgs([]).profile).toBeUndefined();
    expect(() => parseArgs(["--profile", "atlas"])).toThrow(/--profile needs deployed or spec, got atlas/);
  });

  it("plays the deployed server when no profile is given", async () => {
    const sim = await startSimulator();
    try {
      expect(sim.profile).toBe("deployed");
    } finally {
      await sim.close();
    }
  });
});

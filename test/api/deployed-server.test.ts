/**
 * The API layer against both servers the simulator plays: the Ops Manager that users run (`deployed`)
 * and the spec as written (`spec`). Where they differ (the database log's name, the status of
 * API_KEY_NOT_FOUND, 401 for a caller without the role), the layer must work with both.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isApiKeyGone } from "../../provider/api/api-key-gone";
import { patchOrgApiKey } from "../../provider/api/api-keys";
import { AuthorizationError } from "../../provider/api/authorization-error";
import { InputError } from "../../provider/api/input-error";
import { createLogCollectionJob } from "../../provider/api/log-collection-jobs";
import type { LogType } from "../../provider/api/schemas";
import { HttpClient } from "../../provider/client";
import { ApiError, AuthenticationError } from "../../provider/client/errors";
import { startSimulator } from "../../simulator";
import type { SimRole, Simulator, SimulatorProfile } from "../../simulator/types";
import { orgKeysPage } from "../support/listing";

const job = (logTypes: LogType[]) => ({
  resourceType: "REPLICASET" as const,
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 5_000_000,
  logTypes,
  redacted: false,
});

describe.each(["deployed", "spec"] as SimulatorProfile[])(
  "the API layer against the %s server",
  (profile) => {
    let sim: Simulator;
    const clients: HttpClient[] = [];
    const deployed = profile === "deployed";
    // The name this server takes for the database log.
    const taken = deployed ? "MONGODB" : "DATABASE";

    /** A client of its own: what it learns of the server is its own too. */
    function newClient(username = sim.publicKey, password = sim.privateKey): HttpClient {
      const client = new HttpClient({ baseUrl: sim.apiRoot, username, password, retry: { baseDelayMs: 1 } });
      clients.push(client);
      return client;
    }
    const posts = () =>
      sim.requests
        .filter((r) => r.method === "POST" && r.authenticated)
        .map((r) => [r.status, (r.body as { logTypes: string[] }).logTypes]);

    beforeAll(async () => {
      sim = await startSimulator({ profile, seed: { keys: 3 } });
    });
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await sim?.close();
    });
    beforeEach(() => {
      sim.faults.clear();
      sim.resetRequests();
    });

    for (const declared of ["MONGODB", "DATABASE"] as const) {
      it(`a job naming the database log ${declared} is created once, and the name the server took serves the next create in one POST`, async () => {
        const client = newClient();
        const before = sim.state.jobs().length;
        await createLogCollectionJob(client, sim.groupId, job([declared, "FTDC"]));
        await createLogCollectionJob(client, sim.groupId, job(["FTDC", declared]));
        expect(sim.state.jobs()).toHaveLength(before + 2);
        // MONGODB first; a 400 that refuses it created nothing, so DATABASE is sent once more.
        expect(posts()).toEqual([
          ...(deployed ? [] : [[400, ["MONGODB", "FTDC"]]]),
          [201, [taken, "FTDC"]],
          [201, ["FTDC", taken]],
        ]);
      });
    }

    it("creates that start together while the name is unknown wait for the first: at most one refused POST", async () => {
      const client = newClient();
      const before = sim.state.jobs().length;
      await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          createLogCollectionJob(client, sim.groupId, { ...job(["DATABASE"]), resourceName: `rs${i}` }),
        ),
      );
      expect(sim.state.jobs()).toHaveLength(before + 4);
      expect(posts().filter(([status]) => status === 400)).toHaveLength(deployed ? 0 : 1);
      expect(posts().filter(([status]) => status === 201)).toHaveLength(4);
    });

    it("a list without the database log is sent as it is, in one POST", async () => {
      await createLogCollectionJob(newClient(), sim.groupId, job(["FTDC", "AUTOMATION_AGENT"]));
      expect(posts()).toEqual([[201, ["FTDC", "AUTOMATION_AGENT"]]]);
    });

    it("MONGODB and DATABASE in one list name one log twice and are refused before sending", async () => {
      const err = await createLogCollectionJob(newClient(), sim.groupId, job(["MONGODB", "DATABASE"])).catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toMatch(/logTypes must not repeat a log type/);
      expect(sim.requests).toHaveLength(0);
    });

    it("sends the time window only when given: the deployed server takes it, the spec's refuses it once", async () => {
      const window = { logCollectionFromDate: 1_700_000_000_000, logCollectionToDate: 1_700_086_400_000 };
      const client = newClient();
      await createLogCollectionJob(client, sim.groupId, job(["FTDC"]));
      expect(sim.requests.at(-1)?.body).not.toHaveProperty("logCollectionFromDate");
      const outcome = await createLogCollectionJob(client, sim.groupId, { ...job([taken]), ...window }).catch(
        (e) => e,
      );
      const sent = sim.requests.filter((r) => r.method === "POST" && r.authenticated);
      expect(sent.at(-1)?.body).toMatchObject(window);
      if (deployed) {
        expect(outcome.id).toMatch(/^[0-9a-f]{24}$/);
        expect(sim.state.jobs().at(-1)).toMatchObject(window);
      } else {
        expect(outcome).toBeInstanceOf(ApiError);
        expect(outcome.message).toMatch(/400 INVALID_ATTRIBUTE — .*logCollectionFromDate/);
        // Not a refusal of the log type: not sent again under the other name.
        expect(sent).toHaveLength(2);
      }
    });

    it("a PATCH of a key that is gone answers API_KEY_NOT_FOUND, which isApiKeyGone reads as gone", async () => {
      const key = sim.state.addApiKey({ desc: "short-lived" });
      sim.state.removeApiKey(key.id);
      const err = await patchOrgApiKey(newClient(), sim.orgId, key.id, { desc: "x" }).catch((e) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: deployed ? 400 : 404, errorCode: "API_KEY_NOT_FOUND" });
      expect(isApiKeyGone(err)).toBe(true);
      expect(isApiKeyGone(new ApiError({ ...err, errorCode: "ORG_NOT_FOUND", status: 404 }))).toBe(false);
    });

    it("a 429, with Retry-After (spec profile) or without it (deployed), is retried and the PATCH goes through", async () => {
      const key = sim.state.addApiKey({ desc: "before" });
      sim.faults.add({ method: "PATCH", status: 429 });
      const out = await patchOrgApiKey(newClient(), sim.orgId, key.id, { desc: "after" });
      expect(out.desc).toBe("after");
      const patches = sim.requests.filter((r) => r.method === "PATCH" && r.authenticated);
      expect(patches.map((r) => r.status)).toEqual([429, 200]);
    });

    it("bad credentials are a 401 without an errorCode: an AuthenticationError that says to check the keys", async () => {
      const err = await orgKeysPage(newClient(sim.publicKey, "not-the-key"), sim.orgId).catch((e) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err).not.toBeInstanceOf(AuthorizationError);
      expect(err.code).toBe("OM_ERR_AUTH");
      expect(err.message).toMatch(/check the public key and private key/);
    });
  },
);

describe("a caller whose roles do not allow the call (deployed server)", () => {
  let sim: Simulator;
  const clients: HttpClient[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ seed: { keys: 3 } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim?.close();
  });

  /** A client that signs as a new key with these roles. */
  function as(roles: SimRole[]): HttpClient {
    const key = sim.state.addApiKey({ roles });
    const client = new HttpClient({
      baseUrl: sim.apiRoot,
      username: key.publicKey,
      password: key.privateKey,
    });
    clients.push(client);
    return client;
  }

  it("listing keys without a role in the org: AuthorizationError with the code, the operation and the role", async () => {
    const client = as([{ orgId: "5f00000000000000000000a1", roleName: "ORG_OWNER" }]);
    const err = await orgKeysPage(client, sim.orgId).catch((e) => e);
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "OM_ERR_FORBIDDEN", status: 401, errorCode: "USER_UNAUTHORIZED" });
    expect(err.message).toMatch(
      new RegExp(
        `^GET /orgs/${sim.orgId}/apiKeys failed: 401 USER_UNAUTHORIZED — Current user is not authorized to perform this action\\. \\(the credentials were accepted, but listing an organization's API keys needs a role in organization ${sim.orgId}`,
      ),
    );
    expect(err.message).not.toMatch(/check the public key/);
    expect(err).toMatchObject({ method: "GET", path: `/orgs/${sim.orgId}/apiKeys` });
    expect(err.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1\.0\/orgs\//);
  });

  it("a refusal met after a retried 503 says, as every error that ends retries does, how many attempts over how long", async () => {
    const client = as([{ orgId: "5f00000000000000000000a1", roleName: "ORG_OWNER" }]);
    sim.resetRequests();
    sim.faults.add({ method: "GET", status: 503 });
    const err = await orgKeysPage(client, sim.orgId).catch((e) => e);
    sim.faults.clear();
    expect(sim.requests.filter((r) => r.authenticated).map((r) => r.status)).toEqual([503, 401]);
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(err).toMatchObject({ code: "OM_ERR_FORBIDDEN", errorCode: "USER_UNAUTHORIZED", attempts: 2 });
    expect(err.elapsedMs).toBeGreaterThan(0);
    expect(err.message).toMatch(
      new RegExp(
        `^GET /orgs/${sim.orgId}/apiKeys failed: 401 USER_UNAUTHORIZED — .*\\(the credentials were accepted, but listing an organization's API keys needs .*; give the API key that role, or configure a key that has it\\); 2 attempts over \\d+\\.\\d s$`,
      ),
    );
    expect(err.url).toMatch(new RegExp(`^${sim.apiRoot}/orgs/${sim.orgId}/apiKeys\\?`));
  });

  it("a PATCH by an ORG_READ_ONLY key names the Organization Owner role and changes nothing", async () => {
    const target = sim.state.addApiKey({ desc: "kept" });
    const client = as([{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }]);
    const err = await patchOrgApiKey(client, sim.orgId, target.id, { desc: "changed" }).catch((e) => e);
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(err.errorCode).toBe("USER_UNAUTHORIZED");
    expect(err.message).toMatch(
      /updating an organization API key needs the Organization Owner \(ORG_OWNER\) or Organization User Admin role/,
    );
    expect(sim.state.apiKey(target.id)?.desc).toBe("kept");
  });

  it("a job created by a key without a project role names the roles that allow log collection", async () => {
    const client = as([{ orgId: sim.orgId, roleName: "ORG_MEMBER" }]);
    const before = sim.state.jobs().length;
    const err = await createLogCollectionJob(client, sim.groupId, job(["FTDC"])).catch((e) => e);
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(err.errorCode).toBe("NOT_IN_GROUP");
    expect(err.message).toMatch(
      new RegExp(
        `creating a log collection job needs a role in project ${sim.groupId} that allows log collection: Project Automation Admin \\(GROUP_AUTOMATION_ADMIN\\)`,
      ),
    );
    expect(sim.state.jobs()).toHaveLength(before);
  });
});

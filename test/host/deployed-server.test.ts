/**
 * The provider against the Ops Manager that users run, through Pulumi's real dynamic-provider host,
 * and against the spec as written: the simulator plays each (`deployed`, `spec`). Where the two
 * differ (NOTES.md, "The deployed server, where it differs from the spec"), a program must behave the
 * same on both: the database log's two names, a key deleted outside Pulumi whatever status says so,
 * the optional time window, resourceType in any case; and, on the deployed server, a caller without
 * the role told which role it needs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { SimRole, Simulator, SimulatorProfile } from "../../simulator/types";
import { type Host, type HostCallError, JOB_TYPE, KEY_TYPE, type Props, urn } from "../support/host";
import { checkThenCreate, type ProviderFixture, providerFixture } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-depl-4e5f-a6b7-RECOGNIZABLE03";
const OTHER_KEY = "6f1d2c3b-role-4e5f-a6b7-RECOGNIZABLE04";
const BOTH: SimulatorProfile[] = ["deployed", "spec"];

let fixture: ProviderFixture;
const sims = {} as Record<SimulatorProfile, Simulator>;

beforeAll(async () => {
  for (const profile of BOTH) {
    sims[profile] = await startSimulator({ profile, seed: { keys: 5, privateKey: PRIVATE_KEY } });
  }
  fixture = await providerFixture();
});

afterAll(async () => {
  await fixture?.close(PRIVATE_KEY, OTHER_KEY);
  await Promise.all(BOTH.map((p) => sims[p]?.close()));
});

function config(sim: Simulator, publicKey = sim.publicKey, privateKey = PRIVATE_KEY) {
  return {
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": publicKey,
    "opsmanager:privateKey": privateKey,
  };
}

const stripProvider = ({ __provider, ...rest }: Props): Props => rest;

describe.each(BOTH)("a program against the %s server, through the host", (profile) => {
  let sim: Simulator;
  let host: Host;
  const deployed = profile === "deployed";
  // The name this server takes for the database log.
  const taken = deployed ? "MONGODB" : "DATABASE";
  const jobInputs = (extra: Props = {}): Props => ({
    groupId: sim.groupId,
    resourceType: "REPLICASET",
    resourceName: "rs0",
    sizeRequestedPerFileBytes: 1_000_000,
    logTypes: ["FTDC"],
    redacted: false,
    ...extra,
  });
  /** The authenticated POSTs since the last reset, as `[status, logTypes]`. */
  const posts = () =>
    sim.requests
      .filter((q) => q.method === "POST" && q.authenticated)
      .map((q) => [q.status, (q.body as { logTypes: string[] }).logTypes]);

  beforeAll(async () => {
    sim = sims[profile];
    host = await fixture.newHost(config(sim));
  });

  describe("the database log", () => {
    for (const declared of ["MONGODB", "DATABASE"]) {
      it(`named ${declared}, starts exactly one job, and the next job costs one POST`, async () => {
        // A new host is a new `pulumi up`: it has learned nothing of the server yet.
        const fresh = await fixture.newHost(config(sim));
        const before = sim.state.jobs().length;
        sim.resetRequests();
        const first = await checkThenCreate(
          fresh,
          urn(JOB_TYPE, `db-${declared}`),
          fixture.withJob(jobInputs({ resourceName: `rs-${declared}-1`, logTypes: [declared, "FTDC"] })),
        );
        expect(sim.state.jobs()).toHaveLength(before + 1);
        expect(sim.state.jobs().at(-1)?.resourceName).toBe(`rs-${declared}-1`);
        // The declared name first; the other after a 400 that refused it and created nothing.
        const other = declared === "MONGODB" ? "DATABASE" : "MONGODB";
        expect(posts()).toEqual(
          declared === taken
            ? [[201, [declared, "FTDC"]]]
            : [
                [400, [declared, "FTDC"]],
                [201, [other, "FTDC"]],
              ],
        );
        // The outputs keep the program's spelling.
        expect(first.properties.logTypes).toEqual([declared, "FTDC"]);
        sim.resetRequests();
        await checkThenCreate(
          fresh,
          urn(JOB_TYPE, `db-${declared}-2`),
          fixture.withJob(jobInputs({ resourceName: `rs-${declared}-2`, logTypes: [declared] })),
        );
        expect(posts()).toEqual([[201, [taken]]]);
        expect(sim.state.jobs()).toHaveLength(before + 2);
      });
    }

    it("switching the program from MONGODB to DATABASE or back is no change: no replacement, no request", async () => {
      const jobUrn = urn(JOB_TYPE, "switch");
      const created = await checkThenCreate(
        host,
        jobUrn,
        fixture.withJob(jobInputs({ resourceName: "rs-switch", logTypes: ["MONGODB", "FTDC"] })),
      );
      const jobs = sim.state.jobs().length;
      sim.resetRequests();
      const olds = fixture.withJob(stripProvider(created.properties));
      for (const logTypes of [
        ["DATABASE", "FTDC"],
        ["FTDC", "DATABASE"],
        ["MONGODB", "FTDC"],
      ]) {
        const checked = await host.check(
          jobUrn,
          olds,
          fixture.withJob(jobInputs({ resourceName: "rs-switch", logTypes })),
        );
        expect(checked.failures).toEqual([]);
        const d = await host.diff(created.id, jobUrn, created.properties, checked.inputs);
        expect(d, logTypes.join(",")).toEqual({
          changes: "DIFF_NONE",
          replaces: [],
          deleteBeforeReplace: false,
        });
      }
      const other = await host.diff(
        created.id,
        jobUrn,
        created.properties,
        fixture.withJob(jobInputs({ resourceName: "rs-switch", logTypes: ["DATABASE"] })),
      );
      expect(other).toMatchObject({ changes: "DIFF_SOME", replaces: ["logTypes"] });
      expect(sim.requests).toEqual([]);
      expect(sim.state.jobs()).toHaveLength(jobs);
    });

    it("named twice, as MONGODB and DATABASE, is refused at check without a request", async () => {
      sim.resetRequests();
      const r = await host.check(
        urn(JOB_TYPE, "twice"),
        {},
        fixture.withJob(jobInputs({ logTypes: ["MONGODB", "FTDC", "DATABASE"] })),
      );
      expect(r.failures).toEqual([
        {
          property: "logTypes",
          reason: 'logTypes must not repeat a log type: "MONGODB" and "DATABASE" both name the database log',
        },
      ]);
      expect(sim.requests).toEqual([]);
    });
  });

  describe("resourceType", () => {
    it("in lower case, as mongocli sends it, is checked into upper case, sent so, and no diff against state in either case", async () => {
      const jobUrn = urn(JOB_TYPE, "case");
      const checked = await host.check(
        jobUrn,
        {},
        fixture.withJob(jobInputs({ resourceType: "replicaset" })),
      );
      expect(checked.failures).toEqual([]);
      expect(checked.inputs.resourceType).toBe("REPLICASET");
      sim.resetRequests();
      const created = await host.create(jobUrn, checked.inputs);
      expect(sim.requests.filter((q) => q.method === "POST" && q.authenticated).map((q) => q.body)).toEqual([
        expect.objectContaining({ resourceType: "REPLICASET" }),
      ]);
      expect(created.properties.resourceType).toBe("REPLICASET");
      for (const spelling of ["ReplicaSet", "REPLICASET", "replicaset"]) {
        const again = await host.check(
          jobUrn,
          created.properties,
          fixture.withJob(jobInputs({ resourceType: spelling })),
        );
        const d = await host.diff(created.id, jobUrn, created.properties, again.inputs);
        expect(d.changes, spelling).toBe("DIFF_NONE");
      }
      // State whose resourceType is in lower case (written without this check, by a version before state
      // versions) is no change either.
      const { stateVersion: _unversioned, ...earlier } = created.properties;
      const lower = { ...earlier, resourceType: "replicaset" };
      const d = await host.diff(created.id, jobUrn, lower, checked.inputs);
      expect(d.changes).toBe("DIFF_NONE");
      const other = await host.diff(
        created.id,
        jobUrn,
        created.properties,
        fixture.withJob(jobInputs({ resourceType: "CLUSTER" })),
      );
      expect(other).toMatchObject({ changes: "DIFF_SOME", replaces: ["resourceType"] });
    });
  });

  describe("the time window", () => {
    it("is checked at check: whole positive milliseconds a Date holds, from before to", async () => {
      sim.resetRequests();
      const cases: [Props, string, RegExp][] = [
        [{ logCollectionFromDate: 1.5 }, "logCollectionFromDate", /must be a time in whole milliseconds/],
        [
          { logCollectionToDate: -1 },
          "logCollectionToDate",
          /logCollectionToDate must be positive \(got -1\)/,
        ],
        [{ logCollectionToDate: 9e15 }, "logCollectionToDate", /at most 8640000000000000/],
        [{ logCollectionFromDate: "2026-01-01" }, "logCollectionFromDate", /\(got "2026-01-01"\)/],
        [
          { logCollectionFromDate: 1_700_086_400_000, logCollectionToDate: 1_700_000_000_000 },
          "logCollectionFromDate",
          /logCollectionFromDate must be before logCollectionToDate \(got 1700086400000 and 1700000000000\)/,
        ],
      ];
      for (const [window, property, rule] of cases) {
        const r = await host.check(urn(JOB_TYPE, "window"), {}, fixture.withJob(jobInputs(window)));
        expect(
          r.failures.map((f) => f.property),
          JSON.stringify(window),
        ).toEqual([property]);
        expect(r.failures[0]?.reason).toMatch(rule);
      }
      expect(sim.requests).toEqual([]);
    });

    it("is sent on create only when given, kept in the outputs, and a change of it is a replacement", async () => {
      const window = { logCollectionFromDate: 1_700_000_000_000, logCollectionToDate: 1_700_086_400_000 };
      sim.resetRequests();
      const without = await checkThenCreate(
        host,
        urn(JOB_TYPE, "no-window"),
        fixture.withJob(jobInputs({ resourceName: "rs-no-window" })),
      );
      // The last POST.
      expect(sim.requests.filter((q) => q.method === "POST").at(-1)?.body).not.toHaveProperty(
        "logCollectionFromDate",
      );
      expect(without.properties).not.toHaveProperty("logCollectionFromDate");
      const d = await host.diff(
        without.id,
        urn(JOB_TYPE, "no-window"),
        without.properties,
        fixture.withJob(jobInputs({ resourceName: "rs-no-window", ...window })),
      );
      expect(d).toMatchObject({
        changes: "DIFF_SOME",
        replaces: ["logCollectionFromDate", "logCollectionToDate"],
      });
      sim.resetRequests();
      const outcome = await checkThenCreate(
        host,
        urn(JOB_TYPE, "window"),
        fixture.withJob(jobInputs({ resourceName: "rs-window", ...window })),
      ).catch((e: HostCallError) => e);
      const sent = sim.requests.filter((q) => q.method === "POST" && q.authenticated);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.body).toMatchObject(window);
      if (deployed) {
        expect(outcome).toMatchObject({ properties: expect.objectContaining(window) });
        expect(sim.state.jobs().at(-1)).toMatchObject({ resourceName: "rs-window", ...window });
      } else {
        // A server that follows the spec alone does not take it, and says so.
        expect((outcome as HostCallError).message).toMatch(
          /LogCollectionJob \(project [0-9a-f]{24}\): POST \/groups\/[0-9a-f]{24}\/logCollectionJobs failed: 400 INVALID_ATTRIBUTE — Invalid attribute logCollectionFromDate/,
        );
      }
    });
  });

  describe("a key deleted outside Pulumi", () => {
    const keyUrn = urn(KEY_TYPE, "vanishing");

    async function adoptThenDelete(restoreOnDelete: boolean) {
      const key = sim.state.addApiKey({ desc: "adopted, then deleted" });
      const created = await checkThenCreate(
        host,
        keyUrn,
        fixture.withKey({ orgId: sim.orgId, apiKeyId: key.id, desc: "managed", restoreOnDelete }),
      );
      sim.state.removeApiKey(key.id);
      sim.resetRequests();
      return { key, state: created.properties };
    }

    it("fails an update with the advice to run pulumi refresh, whatever status the server gave", async () => {
      const { key, state } = await adoptThenDelete(false);
      const err = (await host
        .update(key.id, keyUrn, state, fixture.withKey({ orgId: sim.orgId, apiKeyId: key.id, desc: "new" }))
        .catch((e) => e)) as HostCallError;
      expect(
        sim.requests.filter((q) => q.method === "PATCH" && q.authenticated).map((q) => q.status),
      ).toEqual([deployed ? 400 : 404]);
      expect(err.message).toMatch(/API_KEY_NOT_FOUND/);
      expect(err.message).toMatch(/run `pulumi refresh` to drop it from the stack/);
    });

    it("leaves the stack on refresh", async () => {
      const { key, state } = await adoptThenDelete(false);
      const refresh = await fixture.newHost(config(sim));
      const r = await refresh.read(key.id, keyUrn, state);
      expect(r.id).toBe("");
    });

    for (const status of [400, 404]) {
      it(`a refresh whose listing is answered ${status} API_KEY_NOT_FOUND fails and keeps the key: that answer names no key`, async () => {
        const key = sim.state.addApiKey({ desc: "still here" });
        const { properties: state } = await checkThenCreate(
          host,
          keyUrn,
          fixture.withKey({ orgId: sim.orgId, apiKeyId: key.id, desc: "still here" }),
        );
        const listing = `/orgs/${sim.orgId}/apiKeys`;
        sim.faults.add({ method: "GET", pathPrefix: listing, status, errorCode: "API_KEY_NOT_FOUND" });
        sim.resetRequests();
        const refresh = await fixture.newHost(config(sim));
        const outcome = await refresh.read(key.id, keyUrn, state).then(
          (r) => ({ id: r.id }),
          (e: HostCallError) => e,
        );
        expect(outcome).toBeInstanceOf(Error);
        const err = outcome as HostCallError;
        expect(err.message).toMatch(
          new RegExp(
            `^OrgApiKey \\(API key id ${key.id} in organization ${sim.orgId}\\): GET ${listing} failed: ${status} API_KEY_NOT_FOUND`,
          ),
        );
        expect(err.message).toMatch(/names no key, so it does not say that API key [0-9a-f]{24} is gone/);
        expect(err.message).toMatch(/opsmanager:publicKey/);
        // One listing request, answered with the fault: no second listing was needed to fail.
        expect(
          sim.requests.filter((q) => q.method === "GET" && q.authenticated).map((q) => q.status),
        ).toEqual([status]);
        expect(sim.state.apiKey(key.id)?.desc).toBe("still here");
      });
    }

    it("with restoreOnDelete, is destroyed quietly: nothing left to restore", async () => {
      const { key, state } = await adoptThenDelete(true);
      // `pulumi destroy`: a process of its own.
      await (await fixture.newHost(config(sim))).delete(key.id, keyUrn, state);
      expect(
        sim.requests.filter((q) => q.method === "PATCH" && q.authenticated).map((q) => q.status),
      ).toEqual([deployed ? 400 : 404]);
    });
  });
});

describe("a caller whose roles do not allow the call, through the host (deployed server)", () => {
  let sim: Simulator;
  beforeAll(() => {
    sim = sims.deployed;
  });

  let made = 0;
  /** A host whose provider signs as a new key of the org with these roles. */
  async function hostAs(roles: SimRole[]): Promise<Host> {
    made += 1;
    const key = sim.state.addApiKey({ roles, privateKey: `${OTHER_KEY}-${made}` });
    return fixture.newHost(config(sim, key.publicKey, key.privateKey));
  }

  it("an adoption whose PATCH the key's ORG_READ_ONLY role does not allow names the code and the Organization Owner role, not the credentials", async () => {
    const host = await hostAs([{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }]);
    const target = sim.state.addApiKey({ desc: "as it was" });
    sim.resetRequests();
    const err = (await checkThenCreate(
      host,
      urn(KEY_TYPE, "not-allowed"),
      fixture.withKey({ orgId: sim.orgId, apiKeyId: target.id, desc: "changed" }),
    ).catch((e) => e)) as HostCallError;
    // The listing was allowed, the PATCH was not.
    expect(sim.requests.filter((q) => q.authenticated).map((q) => `${q.method} ${q.status}`)).toEqual([
      "GET 200",
      "PATCH 401",
    ]);
    expect(err.message).toMatch(
      new RegExp(
        `^OrgApiKey \\(API key id ${target.id} in organization ${sim.orgId}\\): PATCH /orgs/${sim.orgId}/apiKeys/${target.id} failed: 401 USER_UNAUTHORIZED — Current user is not authorized to perform this action\\.`,
      ),
    );
    expect(err.message).toMatch(
      /the credentials were accepted, but updating an organization API key needs the Organization Owner \(ORG_OWNER\) or Organization User Admin role/,
    );
    expect(err.message).not.toMatch(/check the public key|rejected the credentials/);
    expect(sim.state.apiKey(target.id)?.desc).toBe("as it was");
  });

  it("a job created by a key without a project role names NOT_IN_GROUP and the project roles that allow log collection", async () => {
    const host = await hostAs([{ orgId: sim.orgId, roleName: "ORG_MEMBER" }]);
    const before = sim.state.jobs().length;
    const err = (await checkThenCreate(
      host,
      urn(JOB_TYPE, "not-allowed"),
      fixture.withJob({
        groupId: sim.groupId,
        resourceType: "PROCESS",
        resourceName: "rs0 node1",
        sizeRequestedPerFileBytes: 1024,
        logTypes: ["MONGODB"],
        redacted: true,
      }),
    ).catch((e) => e)) as HostCallError;
    expect(err.message).toMatch(/failed: 401 NOT_IN_GROUP/);
    expect(err.message).toMatch(
      /creating a log collection job needs a role in project [0-9a-f]{24} that allows log collection: Project Automation Admin \(GROUP_AUTOMATION_ADMIN\), Project Backup Admin \(GROUP_BACKUP_ADMIN\) or Project Monitoring Admin/,
    );
    expect(err.message).not.toMatch(/check the public key/);
    // Refused, so not an uncertain create: nothing was made, and it says nothing of a job that may exist.
    expect(err.message).not.toMatch(/may have created/);
    expect(sim.state.jobs()).toHaveLength(before);
  });

  it("bad credentials, a 401 without an errorCode, still say to check the keys", async () => {
    const host = await fixture.newHost(config(sim, sim.publicKey, "not-the-private-key"));
    const err = (await checkThenCreate(
      host,
      urn(KEY_TYPE, "bad-credentials"),
      fixture.withKey({ orgId: sim.orgId, apiKeyId: sim.state.apiKeys()[1]!.id }),
    ).catch((e) => e)) as HostCallError;
    expect(err.message).toMatch(/failed: 401 — the server rejected the credentials/);
    expect(err.message).toMatch(/check the public key and private key/);
  });
});

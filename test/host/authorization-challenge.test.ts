/**
 * A caller without the needed role, answered as deployed servers do (401 with an `errorCode`), by a
 * server that also sends a Digest challenge with that 401 (not known either way of deployed servers;
 * the simulator's `challengeOnRoleRefusal`). The 401 answers the request, not its credentials: the
 * request is sent once, nothing is re-signed, the digest session keeps reusing its nonce, and the user
 * is told which role is missing. Through Pulumi's real dynamic-provider host.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { SimRole, Simulator } from "../../simulator/types";
import { type Host, type HostCallError, JOB_TYPE, KEY_TYPE, type Props, urn } from "../support/host";
import { checkThenCreate, type ProviderFixture, providerFixture } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-chal-4e5f-a6b7-RECOGNIZABLE05";
const OTHER_KEY = "6f1d2c3b-chal-4e5f-a6b7-RECOGNIZABLE06";
// A second project of the seeded organization, where the caller of the job tests has no role.
const OTHER_GROUP = "5f00000000000000000000aa";

let sim: Simulator;
let fixture: ProviderFixture;
let made = 0;

beforeAll(async () => {
  sim = await startSimulator({ challengeOnRoleRefusal: true, seed: { keys: 5, privateKey: PRIVATE_KEY } });
  sim.state.addGroup(OTHER_GROUP);
  fixture = await providerFixture();
});

afterAll(async () => {
  await fixture?.close(PRIVATE_KEY, OTHER_KEY);
  await sim?.close();
});

beforeEach(() => {
  sim.faults.clear();
});

/** A new host (a new `pulumi up`) whose provider signs as a new key of the org with these roles. */
async function hostAs(roles: SimRole[]): Promise<Host> {
  made += 1;
  const key = sim.state.addApiKey({ roles, privateKey: `${OTHER_KEY}-${made}` });
  return fixture.newHost({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": key.publicKey,
    "opsmanager:privateKey": key.privateKey,
  });
}

const job = (groupId: string, name: string): Props =>
  fixture.withJob({
    groupId,
    resourceType: "REPLICASET",
    resourceName: name,
    sizeRequestedPerFileBytes: 1_000_000,
    // No database log: its name is not learned inside a count.
    logTypes: ["FTDC"],
    redacted: false,
  });

describe("a 401 with an errorCode and a Digest challenge, through the host", () => {
  it("a forbidden PATCH is sent once and reported as an AuthorizationError naming the missing role", async () => {
    const host = await hostAs([{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }]);
    const target = sim.state.addApiKey({ desc: "as it was" });
    sim.resetRequests();
    const err = (await checkThenCreate(
      host,
      urn(KEY_TYPE, "forbidden"),
      fixture.withKey({ orgId: sim.orgId, apiKeyId: target.id, desc: "changed" }),
    ).catch((e) => e)) as HostCallError;
    // The challenge for the listing, the listing, and one PATCH: its body crossed once.
    expect(sim.requests.map((q) => `${q.method} ${q.status} ${q.authenticated}`)).toEqual([
      "GET 401 false",
      "GET 200 true",
      "PATCH 401 true",
    ]);
    expect(sim.requests[2]?.body).toEqual({ desc: "changed" });
    expect(err.message).toMatch(
      new RegExp(
        `^OrgApiKey \\(API key id ${target.id} in organization ${sim.orgId}\\): PATCH /orgs/${sim.orgId}/apiKeys/${target.id} failed: 401 USER_UNAUTHORIZED — Current user is not authorized to perform this action\\.`,
      ),
    );
    expect(err.message).toMatch(
      /the credentials were accepted, but updating an organization API key needs the Organization Owner \(ORG_OWNER\)/,
    );
    expect(err.message).not.toMatch(/rejected the credentials|check the public key|stale/);
    expect(sim.state.apiKey(target.id)?.desc).toBe("as it was");
  });

  it("just after a nonce expiry answered stale=false, a forbidden POST is sent once and the next request still costs one round trip", async () => {
    const host = await hostAs([
      { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: sim.groupId, roleName: "GROUP_AUTOMATION_ADMIN" },
    ]);
    const jobs = () => sim.state.jobs().length + sim.state.jobs(OTHER_GROUP).length;
    await checkThenCreate(host, urn(JOB_TYPE, "first"), job(sim.groupId, "rs-first"));
    // The deployed server answers an expired nonce stale=false: the nonce of that 401 is adopted once
    // it passes, and it has not been reused yet when the forbidden POST meets it. The nonce expires by
    // the server's switch, not by a lifetime a slow machine could outrun or outlast: the nonces issued
    // after it live the simulator's full lifetime through the exact sequence below.
    sim.faults.expireNonces();
    const before = jobs();
    sim.resetRequests();
    await checkThenCreate(host, urn(JOB_TYPE, "after-expiry"), job(sim.groupId, "rs-after-expiry"));
    const err = (await checkThenCreate(
      host,
      urn(JOB_TYPE, "forbidden"),
      job(OTHER_GROUP, "rs-forbidden"),
    ).catch((e) => e)) as HostCallError;
    await checkThenCreate(host, urn(JOB_TYPE, "next"), job(sim.groupId, "rs-next"));
    expect(
      sim.requests.map(
        (q) => `${q.method} ${q.status} ${q.authenticated} ${(q.body as Props | undefined)?.resourceName}`,
      ),
    ).toEqual([
      "POST 401 false rs-after-expiry",
      "POST 201 true rs-after-expiry",
      "POST 401 true rs-forbidden",
      // No challenge fetched first: the session still reuses the nonce that passed.
      "POST 201 true rs-next",
    ]);
    expect(sim.requests[3]?.digest?.nc).toBe("00000003");
    expect(err.message).toMatch(/POST \/groups\/[0-9a-f]{24}\/logCollectionJobs failed: 401 NOT_IN_GROUP/);
    expect(err.message).toMatch(/the credentials were accepted, but creating a log collection job needs/);
    expect(err.message).not.toMatch(/rejected the credentials|may have created|stale/);
    expect(jobs()).toBe(before + 2);
  });
});

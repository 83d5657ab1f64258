/**
 * What a change in the program means, through Pulumi's real dynamic-provider host: which fields an
 * OrgApiKey manages as the program adds and drops them, what an update's PATCH carries, and log types
 * compared as a set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Host, JOB_TYPE, KEY_TYPE, type Props, urn } from "../support/host";
import { type ProviderFixture, providerFixture } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-sema-4e5f-a6b7-RECOGNIZABLE02";

let sim: Simulator;
let fixture: ProviderFixture;
let host: Host;

/** `pulumi destroy`: a process of its own, which created nothing. */
const destroyer = () =>
  fixture.newHost({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 10, privateKey: PRIVATE_KEY } });
  fixture = await providerFixture();
  host = await fixture.newHost({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });
});

afterAll(async () => {
  await fixture?.close();
  await sim?.close();
});

const stripProvider = (props: Props): Props => {
  const { __provider, ...rest } = props;
  return rest;
};

/** Requests that reached the API (digest challenges left out), as `[method, body]`. */
const sent = () => sim.requests.filter((q) => q.status !== 401).map((q) => [q.method, q.body]);

/** The organization roles the server holds for a key. */
const serverRoles = (id: string) =>
  sim.state
    .apiKey(id)!
    .roles.filter((r) => r.orgId !== undefined)
    .map((r) => r.roleName)
    .sort();

/** A key of the simulator's org (not the provider's own), set to `desc` and `roles`. */
function freshKey(name: string, desc: string, roles: string[]) {
  const k = sim.state.addApiKey({ desc: name });
  sim.state.updateApiKey(k.id, { desc, roles: roles.map((roleName) => ({ orgId: sim.orgId, roleName })) });
  return k;
}

/**
 * One `pulumi up` step for a resource already in the stack, as the engine runs it: Check the program's
 * inputs against the old inputs, Diff them against the state, and Update when Diff says so.
 */
async function up(resourceUrn: string, id: string, state: Props, oldInputs: Props, program: Props) {
  const checked = await host.check(resourceUrn, fixture.withKey(oldInputs), fixture.withKey(program));
  expect(checked.failures).toEqual([]);
  const diff = await host.diff(id, resourceUrn, fixture.withKey(state), checked.inputs);
  if (diff.changes !== "DIFF_SOME") return { diff, state, inputs: checked.inputs };
  const updated = await host.update(id, resourceUrn, fixture.withKey(state), checked.inputs);
  return { diff, state: stripProvider(updated.properties), inputs: checked.inputs };
}

describe("an OrgApiKey field the program stops managing", () => {
  it("is an update that records it unmanaged, sends nothing, and is not restored on delete", async () => {
    const k = freshKey("case 2", "before", ["ORG_MEMBER"]);
    const keyUrn = urn(KEY_TYPE, "dropped-roles");
    const declared = {
      orgId: sim.orgId,
      apiKeyId: k.id,
      desc: "managed",
      roles: ["ORG_OWNER"],
      restoreOnDelete: true,
    };
    const created = await host.create(keyUrn, fixture.withKey(declared));
    const state = stripProvider(created.properties);
    expect(state).toMatchObject({
      adopted: { desc: "before", roles: ["ORG_MEMBER"] },
      managed: { desc: true, roles: true },
    });

    // The program drops `roles`.
    sim.resetRequests();
    const { roles: _dropped, ...program } = declared;
    const step = await up(keyUrn, k.id, state, declared, program);
    expect(step.diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(step.state).toMatchObject({
      roles: ["ORG_OWNER"],
      managed: { desc: true, roles: false },
      adopted: { desc: "before", roles: ["ORG_MEMBER"] },
    });
    // Only what is managed changed: nothing to send.
    expect(sent()).toEqual([]);

    // Someone lowers the key's roles by hand; destroy must not put ORG_MEMBER back.
    sim.state.updateApiKey(k.id, { roles: [{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }] });
    sim.resetRequests();
    await (await destroyer()).delete(k.id, keyUrn, fixture.withKey(step.state));
    expect(sent()).toEqual([["PATCH", { desc: "before" }]]);
    expect(serverRoles(k.id)).toEqual(["ORG_READ_ONLY"]);
    expect(sim.state.apiKey(k.id)!.desc).toBe("before");
  });

  it("managed again, restores on delete the value the state held when management started again", async () => {
    const k = freshKey("case 2 again", "before", ["ORG_MEMBER"]);
    const keyUrn = urn(KEY_TYPE, "managed-again");
    const declared = { orgId: sim.orgId, apiKeyId: k.id, desc: "managed", restoreOnDelete: true };
    const withRoles = { ...declared, roles: ["ORG_OWNER"] };
    const created = await host.create(keyUrn, fixture.withKey(withRoles));
    const dropped = await up(keyUrn, k.id, stripProvider(created.properties), withRoles, declared);
    expect(dropped.state).toMatchObject({ managed: { roles: false } });

    // Changed by hand while unmanaged, and seen by `pulumi refresh` (a new host).
    sim.state.updateApiKey(k.id, { roles: [{ orgId: sim.orgId, roleName: "ORG_READ_ONLY" }] });
    const refresh = await fixture.newHost({
      "opsmanager:baseUrl": sim.url,
      "opsmanager:publicKey": sim.publicKey,
      "opsmanager:privateKey": PRIVATE_KEY,
    });
    const read = await refresh.read(k.id, keyUrn, fixture.withKey(dropped.state));
    const refreshed = stripProvider(read.properties);
    expect(refreshed).toMatchObject({ roles: ["ORG_READ_ONLY"], managed: { roles: false } });

    sim.resetRequests();
    const again = await up(keyUrn, k.id, refreshed, declared, { ...declared, roles: ["ORG_GROUP_CREATOR"] });
    expect(again.diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(sent()).toEqual([["PATCH", { desc: "managed", roles: ["ORG_GROUP_CREATOR"] }]]);
    expect(again.state).toMatchObject({
      managed: { desc: true, roles: true },
      adopted: { desc: "before", roles: ["ORG_READ_ONLY"] },
    });

    sim.resetRequests();
    await (await destroyer()).delete(k.id, keyUrn, fixture.withKey(again.state));
    expect(sent()).toEqual([["PATCH", { desc: "before", roles: ["ORG_READ_ONLY"] }]]);
  });

  it("state that does not record what it manages shows no diff for the same program", async () => {
    const k = freshKey("older state", "kept", ["ORG_MEMBER"]);
    const keyUrn = urn(KEY_TYPE, "older-state");
    const declared = { orgId: sim.orgId, apiKeyId: k.id, desc: "kept", roles: ["ORG_MEMBER"] };
    const created = await host.create(keyUrn, fixture.withKey(declared));
    // As written before `managed` was recorded, and before state versions.
    const { managed: _absent, stateVersion: _unversioned, ...older } = stripProvider(created.properties);
    sim.resetRequests();
    const d = await host.diff(k.id, keyUrn, fixture.withKey(older), fixture.withKey(declared));
    expect(d.changes).toBe("DIFF_NONE");
    const rolesOnly = { orgId: sim.orgId, apiKeyId: k.id, roles: ["ORG_MEMBER"] };
    const d2 = await host.diff(k.id, keyUrn, fixture.withKey(older), fixture.withKey(rolesOnly));
    expect(d2.changes).toBe("DIFF_NONE");
    expect(sim.requests).toEqual([]);
  });

  it("state that does not record what it manages refreshes, diffs with no change, and restores nothing unrecorded", async () => {
    const k = freshKey("older state refreshed", "kept", ["ORG_MEMBER"]);
    const keyUrn = urn(KEY_TYPE, "older-state-refreshed");
    const declared = {
      orgId: sim.orgId,
      apiKeyId: k.id,
      desc: "kept",
      roles: ["ORG_MEMBER"],
      restoreOnDelete: true,
    };
    const created = await host.create(keyUrn, fixture.withKey(declared));
    // As written before `managed` was recorded, and before state versions.
    const { managed: _absent, stateVersion: _unversioned, ...older } = stripProvider(created.properties);
    const refresh = await fixture.newHost({
      "opsmanager:baseUrl": sim.url,
      "opsmanager:publicKey": sim.publicKey,
      "opsmanager:privateKey": PRIVATE_KEY,
    });
    const read = await refresh.read(k.id, keyUrn, fixture.withKey(older));
    const refreshed = stripProvider(read.properties);
    expect(refreshed).toEqual(older);
    const rolesOnly = { orgId: sim.orgId, apiKeyId: k.id, roles: ["ORG_MEMBER"], restoreOnDelete: true };
    for (const program of [declared, rolesOnly]) {
      const d = await host.diff(k.id, keyUrn, fixture.withKey(refreshed), fixture.withKey(program));
      expect(d.changes).toBe("DIFF_NONE");
    }
    // Changed by hand: destroy puts back no field the state does not say is managed.
    sim.state.updateApiKey(k.id, { desc: "by hand" });
    sim.resetRequests();
    await (await destroyer()).delete(k.id, keyUrn, fixture.withKey(refreshed));
    expect(sent()).toEqual([]);
    expect(sim.state.apiKey(k.id)!.desc).toBe("by hand");
  });
});

describe("an OrgApiKey update", () => {
  it("puts right drift in the managed field the program did not change, in the same PATCH", async () => {
    const k = freshKey("case 3", "before", ["ORG_MEMBER"]);
    const keyUrn = urn(KEY_TYPE, "drifted");
    const declared = { orgId: sim.orgId, apiKeyId: k.id, desc: "first", roles: ["ORG_MEMBER"] };
    const created = await host.create(keyUrn, fixture.withKey(declared));
    // Roles changed by hand; no refresh, so the state still says ORG_MEMBER.
    sim.state.updateApiKey(k.id, { roles: [{ orgId: sim.orgId, roleName: "ORG_OWNER" }] });

    sim.resetRequests();
    const program = { ...declared, desc: "second" };
    const step = await up(keyUrn, k.id, stripProvider(created.properties), declared, program);
    expect(step.diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(sent()).toEqual([["PATCH", { desc: "second", roles: ["ORG_MEMBER"] }]]);
    expect(serverRoles(k.id)).toEqual(["ORG_MEMBER"]);
    expect(step.state).toMatchObject({ desc: "second", roles: ["ORG_MEMBER"] });
  });

  it("sends no request when the state already holds every declared value", async () => {
    const k = freshKey("no-op update", "same", ["ORG_READ_ONLY"]);
    const keyUrn = urn(KEY_TYPE, "no-op");
    const declared = { orgId: sim.orgId, apiKeyId: k.id, desc: "same", roles: ["ORG_READ_ONLY"] };
    const created = await host.create(keyUrn, fixture.withKey(declared));
    sim.resetRequests();
    const step = await up(keyUrn, k.id, stripProvider(created.properties), declared, {
      ...declared,
      restoreOnDelete: true,
    });
    expect(step.diff.changes).toBe("DIFF_SOME");
    expect(step.state).toMatchObject({ restoreOnDelete: true, desc: "same", roles: ["ORG_READ_ONLY"] });
    expect(sim.requests).toEqual([]);
  });
});

describe("LogCollectionJob log types", () => {
  const jobUrn = urn(JOB_TYPE, "logs");
  const inputs = (logTypes: string[]) => ({
    groupId: sim.groupId,
    resourceType: "REPLICASET",
    resourceName: "rs0",
    sizeRequestedPerFileBytes: 1_000_000,
    logTypes,
    redacted: false,
  });

  it("in another order are no change, and start no second job", async () => {
    const created = await host.create(jobUrn, fixture.withJob(inputs(["FTDC", "AUTOMATION_AGENT"])));
    const jobs = sim.state.jobs().length;
    sim.resetRequests();
    const checked = await host.check(
      jobUrn,
      fixture.withJob(inputs(["FTDC", "AUTOMATION_AGENT"])),
      fixture.withJob(inputs(["AUTOMATION_AGENT", "FTDC"])),
    );
    expect(checked.failures).toEqual([]);
    const d = await host.diff(created.id, jobUrn, created.properties, checked.inputs);
    expect(d).toEqual({ changes: "DIFF_NONE", replaces: [], deleteBeforeReplace: false });
    expect(sim.requests).toEqual([]);
    expect(sim.state.jobs()).toHaveLength(jobs);
  });

  it("are compared as a set against outputs an earlier version wrote in the user's order", async () => {
    const older = {
      jobId: "5f00000000000000000000j1",
      ...inputs(["DATABASE", "FTDC", "AUTOMATION_AGENT"]),
    };
    const same = await host.diff(
      older.jobId,
      jobUrn,
      fixture.withJob(older),
      fixture.withJob(inputs(["AUTOMATION_AGENT", "DATABASE", "FTDC"])),
    );
    expect(same.changes).toBe("DIFF_NONE");
    const other = await host.diff(
      older.jobId,
      jobUrn,
      fixture.withJob(older),
      fixture.withJob(inputs(["AUTOMATION_AGENT", "FTDC"])),
    );
    expect(other).toMatchObject({ changes: "DIFF_SOME", replaces: ["logTypes"] });
  });
});

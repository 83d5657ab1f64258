/**
 * ApiKeyProjectAssignment through Pulumi's real dynamic-provider host, against the simulator's deployed
 * profile: create for a key with no role in the project and for an assignment that exists, roles
 * changed with one PATCH carrying the whole set, a refresh of many assignments of one project costing
 * one listing of that project, an assignment removed by hand leaving the stack only when two listings
 * lack it, delete as one DELETE or a restore, the 204 answer of older servers, and no credential in
 * anything the host says or returns.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Host, type Props, strip, UNKNOWN, urn } from "../support/host";
import { failureOf, type ProviderFixture, pool, providerFixture } from "../support/provider-fixture";

const req = createRequire(__filename);
const { API_KEY_PROJECT_ASSIGNMENT_PROVIDER } = req("../../dist/provider/resources/shared/providers.js");

const TYPE = "pulumi-nodejs:dynamic/opsmanager:ApiKeyProjectAssignment";
const PRIVATE_KEY = "0c5e7a91-assign-4b2d-9e6f-RECOGNIZABLE07";

let fixture: ProviderFixture;
let sim: Simulator;
let older: Simulator;
let text: string;
let groupCount = 0;

beforeAll(async () => {
  [sim, older] = await Promise.all([
    startSimulator({ seed: { keys: 2, privateKey: PRIVATE_KEY } }),
    startSimulator({ seed: { keys: 2, privateKey: PRIVATE_KEY }, projectKeyAssignAnswer: "noContent" }),
  ]);
  fixture = await providerFixture();
  text = API_KEY_PROJECT_ASSIGNMENT_PROVIDER;
});

afterAll(async () => {
  const hosts = [...(fixture?.hosts ?? [])];
  await fixture?.close();
  for (const h of hosts) expect(h.stdout + h.stderr).not.toContain(PRIVATE_KEY);
  await Promise.all([sim?.close(), older?.close()]);
});

beforeEach(() => {
  sim.faults.clear();
  sim.resetRequests();
  older.resetRequests();
});

/** A new host is a new `pulumi up` or `pulumi refresh`: it has read nothing from the server yet. */
const newHost = (server: Simulator = sim) =>
  fixture.newHost({
    "opsmanager:baseUrl": server.url,
    "opsmanager:publicKey": server.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });

/** A project of its own for each test, so that no test sees another's keys. */
function newGroup(server: Simulator = sim): string {
  groupCount += 1;
  const group = `5f00000000000000000a${groupCount.toString(16).padStart(4, "0")}`;
  server.state.addGroup(group);
  return group;
}

/** A key of the org with no role in any project. */
function newKey(server: Simulator = sim, projectRoles: Record<string, string[]> = {}) {
  const key = server.state.addApiKey({ roles: [{ orgId: server.orgId, roleName: "ORG_MEMBER" }] });
  const roles = Object.entries(projectRoles).flatMap(([groupId, names]) =>
    names.map((roleName) => ({ groupId, roleName })),
  );
  if (roles.length > 0) server.state.updateApiKey(key.id, { roles: [...key.roles, ...roles] });
  return key.id;
}

const withProvider = (props: Props): Props => ({ ...props, __provider: text });

/** The requests past authentication since the last reset, as `METHOD path status`. */
const calls = (server: Simulator = sim) =>
  server.requests
    .filter((q) => q.authenticated)
    .map((q) => `${q.method} ${q.path.replace(/^\/api\/public\/v1\.0/, "")} ${q.status}`);

/** The key's roles in the project, on the server, sorted. */
const rolesOn = (server: Simulator, groupId: string, keyId: string) =>
  (server.state.apiKey(keyId)?.roles ?? [])
    .filter((r) => r.groupId === groupId)
    .map((r) => r.roleName)
    .sort();

async function created(host: Host, name: string, inputs: Props) {
  const u = urn(TYPE, name);
  const checked = await host.check(u, {}, withProvider(inputs));
  expect(checked.failures).toEqual([]);
  const r = await host.create(u, withProvider(checked.inputs));
  return { urn: u, id: r.id, state: withProvider(r.properties), inputs: checked.inputs };
}

describe("create", () => {
  it("for a key with no role in the project: one PATCH with the roles as a set, nothing read", async () => {
    const [group, key, host] = [newGroup(), newKey(), await newHost()];
    sim.resetRequests();
    const a = await created(host, "fresh", {
      apiKeyId: key,
      groupId: group,
      roles: ["GROUP_READ_ONLY", "GROUP_DATA_ACCESS_READ_ONLY", "GROUP_READ_ONLY"],
    });
    expect(calls()).toEqual([`PATCH /groups/${group}/apiKeys/${key} 200`]);
    expect(sim.requests.find((q) => q.method === "PATCH")?.body).toEqual({
      roles: ["GROUP_DATA_ACCESS_READ_ONLY", "GROUP_READ_ONLY"],
    });
    expect(rolesOn(sim, group, key)).toEqual(["GROUP_DATA_ACCESS_READ_ONLY", "GROUP_READ_ONLY"]);
    expect(a.id).toBe(`${group}/${key}`);
    expect(strip(a.state)).toEqual({
      apiKeyId: key,
      groupId: group,
      roles: ["GROUP_DATA_ACCESS_READ_ONLY", "GROUP_READ_ONLY"],
      restoreOnDelete: false,
      previous: { recorded: false, roles: [] },
      stateVersion: 1,
    });
  });

  it("for an assignment that exists: one PATCH sets the declared roles, and its other projects stay", async () => {
    const [group, other] = [newGroup(), newGroup()];
    const key = newKey(sim, { [group]: ["GROUP_OWNER", "GROUP_READ_ONLY"], [other]: ["GROUP_OWNER"] });
    const host = await newHost();
    sim.resetRequests();
    const a = await created(host, "existing", { apiKeyId: key, groupId: group, roles: ["GROUP_READ_ONLY"] });
    expect(calls()).toEqual([`PATCH /groups/${group}/apiKeys/${key} 200`]);
    expect(rolesOn(sim, group, key)).toEqual(["GROUP_READ_ONLY"]);
    expect(rolesOn(sim, other, key)).toEqual(["GROUP_OWNER"]);
    expect(a.state.previous).toEqual({ recorded: false, roles: [] });
  });

  it("with restoreOnDelete, the project's listing is read first and what the key had there recorded", async () => {
    const group = newGroup();
    const had = newKey(sim, { [group]: ["GROUP_OWNER"] });
    const fresh = newKey();
    const host = await newHost();
    sim.resetRequests();
    const a = await created(host, "restorable", {
      apiKeyId: had,
      groupId: group,
      roles: ["GROUP_READ_ONLY"],
      restoreOnDelete: true,
    });
    expect(calls()).toEqual([
      `GET /groups/${group}/apiKeys 200`,
      `PATCH /groups/${group}/apiKeys/${had} 200`,
    ]);
    expect(a.state.previous).toEqual({ recorded: true, roles: ["GROUP_OWNER"] });
    // A key the shared listing lacks had no role there once a second listing, started after the
    // call, lacks it too: the first is the one the create above read.
    sim.resetRequests();
    const b = await created(host, "restorable-fresh", {
      apiKeyId: fresh,
      groupId: group,
      roles: ["GROUP_READ_ONLY"],
      restoreOnDelete: true,
    });
    expect(calls()).toEqual([
      `GET /groups/${group}/apiKeys 200`,
      `PATCH /groups/${group}/apiKeys/${fresh} 200`,
    ]);
    expect(b.state.previous).toEqual({ recorded: true, roles: [] });
    // Destroy puts GROUP_OWNER back with one PATCH, and takes the other key out with one DELETE.
    sim.resetRequests();
    // `pulumi destroy`: a process of its own.
    const destroy = await newHost();
    await destroy.delete(a.id, a.urn, a.state);
    await destroy.delete(b.id, b.urn, b.state);
    expect(calls()).toEqual([
      `PATCH /groups/${group}/apiKeys/${had} 200`,
      `DELETE /groups/${group}/apiKeys/${fresh} 200`,
    ]);
    expect(sim.requests.find((q) => q.method === "PATCH")?.body).toEqual({ roles: ["GROUP_OWNER"] });
    expect(rolesOn(sim, group, had)).toEqual(["GROUP_OWNER"]);
    expect(rolesOn(sim, group, fresh)).toEqual([]);
  });

  it("a key the organization does not have fails naming the key and what to check; a project it does not have, the project", async () => {
    const host = await newHost();
    const group = newGroup();
    const missing = "5f00000000000000000fffff";
    const error = await failureOf(
      created(host, "no-key", { apiKeyId: missing, groupId: group, roles: ["GROUP_OWNER"] }),
    );
    expect(error.message).toContain(
      `ApiKeyProjectAssignment (API key ${missing} in project ${group}): PATCH /groups/${group}/apiKeys/${missing} failed: 400 API_KEY_NOT_FOUND`,
    );
    expect(error.message).toContain(`check apiKeyId "${missing}"`);
    expect(error.message).toContain("a key created in the same program is passed as key.apiKeyId");
    const noGroup = "5f00000000000000000eeeee";
    const lost = await failureOf(
      created(host, "no-group", { apiKeyId: newKey(), groupId: noGroup, roles: ["GROUP_OWNER"] }),
    );
    expect(lost.message).toMatch(/404 GROUP_NOT_FOUND/);
    expect(lost.message).toContain(`check groupId "${noGroup}"`);
    expect(lost.message).not.toContain(PRIVATE_KEY);
  });
});

describe("preview and update", () => {
  it("check and diff send nothing; roles in another order are no change; a new set is an update; another key or project a replacement", async () => {
    const [group, key, host] = [newGroup(), newKey(), await newHost()];
    const a = await created(host, "diffed", {
      apiKeyId: key,
      groupId: group,
      roles: ["GROUP_OWNER", "GROUP_READ_ONLY"],
    });
    sim.resetRequests();
    const program = (change: Props) =>
      withProvider({ apiKeyId: key, groupId: group, roles: ["GROUP_READ_ONLY", "GROUP_OWNER"], ...change });
    const diff = async (change: Props) => {
      const checked = await host.check(a.urn, a.inputs, program(change));
      expect(checked.failures).toEqual([]);
      return host.diff(a.id, a.urn, a.state, withProvider(checked.inputs));
    };
    expect(await diff({})).toEqual({ changes: "DIFF_NONE", replaces: [], deleteBeforeReplace: false });
    expect(await diff({ roles: ["GROUP_OWNER"] })).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(await diff({ roles: [UNKNOWN] })).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(await diff({ restoreOnDelete: true })).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(await diff({ apiKeyId: UNKNOWN })).toEqual({
      changes: "DIFF_SOME",
      replaces: ["apiKeyId"],
      deleteBeforeReplace: false,
    });
    expect(await diff({ groupId: newGroup() })).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["groupId"],
    });
    expect(sim.requests).toEqual([]);
  });

  it("a change of roles is one PATCH carrying the whole set; restoreOnDelete alone sends nothing", async () => {
    const [group, key, host] = [newGroup(), newKey(), await newHost()];
    const a = await created(host, "updated", {
      apiKeyId: key,
      groupId: group,
      roles: ["GROUP_OWNER", "GROUP_READ_ONLY"],
    });
    sim.resetRequests();
    const news = withProvider({
      apiKeyId: key,
      groupId: group,
      roles: ["GROUP_BACKUP_ADMIN", "GROUP_READ_ONLY"],
    });
    const u = await host.update(a.id, a.urn, a.state, news);
    expect(calls()).toEqual([`PATCH /groups/${group}/apiKeys/${key} 200`]);
    expect(sim.requests.find((q) => q.method === "PATCH")?.body).toEqual({
      roles: ["GROUP_BACKUP_ADMIN", "GROUP_READ_ONLY"],
    });
    expect(rolesOn(sim, group, key)).toEqual(["GROUP_BACKUP_ADMIN", "GROUP_READ_ONLY"]);
    expect(u.properties).toMatchObject({
      roles: ["GROUP_BACKUP_ADMIN", "GROUP_READ_ONLY"],
      restoreOnDelete: false,
    });
    sim.resetRequests();
    const again = await host.update(a.id, a.urn, withProvider(u.properties), {
      ...news,
      restoreOnDelete: true,
    });
    expect(calls()).toEqual([]);
    expect(again.properties).toMatchObject({
      restoreOnDelete: true,
      previous: { recorded: false, roles: [] },
    });
  });
});

describe("refresh", () => {
  it("12 assignments of one project cost one listing of that project (both its pages) and one challenge, shared by all of them", async () => {
    const group = newGroup();
    const keys = Array.from({ length: 12 }, () => newKey());
    // Other keys of the project, so that its listing spans two pages of 500.
    for (let i = 0; i < 520; i++) newKey(sim, { [group]: ["GROUP_READ_ONLY"] });
    const host = await newHost();
    const made = await pool(keys, 6, (key, i) =>
      created(host, `many-${i}`, { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] }),
    );
    const states = made.map((r) => {
      if (r.status !== "fulfilled") throw r.reason;
      return r.value;
    });
    // Roles changed by hand on one key show as drift.
    sim.state.updateApiKey(keys[3]!, {
      roles: [
        { orgId: sim.orgId, roleName: "ORG_MEMBER" },
        { groupId: group, roleName: "GROUP_USER_ADMIN" },
      ],
    });
    const refresh = await newHost();
    sim.resetRequests();
    const reads = await pool(states, 12, (s) => refresh.read(s.id, s.urn, s.state));
    expect(
      reads.map((r) => (r.status === "fulfilled" ? [r.value.id, r.value.properties.roles] : r.reason)),
    ).toEqual(states.map((s, i) => [s.id, i === 3 ? ["GROUP_USER_ADMIN"] : ["GROUP_OWNER"]]));
    // A lookup is answered as soon as the page with its key is in: page 2 may still be on the wire.
    await vi.waitFor(() => expect(sim.requests.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(
      sim.requests
        .map(
          (q) =>
            `${q.method} ${q.path.replace(/^\/api\/public\/v1\.0/, "")} ${q.status} ${q.query.pageNum ?? ""}`,
        )
        .sort(),
    ).toEqual([
      `GET /groups/${group}/apiKeys 200 1`,
      `GET /groups/${group}/apiKeys 200 2`,
      `GET /groups/${group}/apiKeys 401 1`,
    ]);
    const drifted = reads[3]!.status === "fulfilled" ? reads[3]!.value : undefined;
    expect(strip(drifted!.inputs!)).toEqual({
      apiKeyId: keys[3],
      groupId: group,
      roles: ["GROUP_USER_ADMIN"],
    });
    const d = await refresh.diff(
      drifted!.id,
      states[3]!.urn,
      withProvider(drifted!.properties),
      withProvider({ apiKeyId: keys[3], groupId: group, roles: ["GROUP_OWNER"] }),
    );
    expect(d).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
  });

  it("an assignment removed by hand leaves the stack only when two consistent listings lack it", async () => {
    const group = newGroup();
    const [gone, back] = [newKey(), newKey()];
    const host = await newHost();
    const a = await created(host, "removed", { apiKeyId: gone, groupId: group, roles: ["GROUP_OWNER"] });
    const b = await created(host, "back", { apiKeyId: back, groupId: group, roles: ["GROUP_OWNER"] });
    sim.state.updateApiKey(gone, { roles: [{ orgId: sim.orgId, roleName: "ORG_MEMBER" }] });
    sim.resetRequests();
    const read = await (await newHost()).read(a.id, a.urn, a.state);
    expect(read.id).toBe("");
    expect(calls()).toEqual([`GET /groups/${group}/apiKeys 200`, `GET /groups/${group}/apiKeys 200`]);
    // Missing from the first listing only (taken away and given back meanwhile): it stays.
    sim.state.updateApiKey(back, { roles: [{ orgId: sim.orgId, roleName: "ORG_MEMBER" }] });
    sim.faults.add({
      method: "GET",
      pathPrefix: `/groups/${group}/apiKeys`,
      delayMs: 0,
      whenAnswered: () => {
        sim.state.updateApiKey(back, {
          roles: [
            { orgId: sim.orgId, roleName: "ORG_MEMBER" },
            { groupId: group, roleName: "GROUP_OWNER" },
          ],
        });
      },
    });
    sim.resetRequests();
    const kept = await (await newHost()).read(b.id, b.urn, b.state);
    expect([kept.id, kept.properties.roles]).toEqual([b.id, ["GROUP_OWNER"]]);
    expect(calls()).toEqual([`GET /groups/${group}/apiKeys 200`, `GET /groups/${group}/apiKeys 200`]);
  });

  it("state with the id alone (Resource.get) and state missing today's defaults refresh and diff cleanly", async () => {
    const [group, key] = [newGroup(), newKey()];
    const host = await newHost();
    const a = await created(host, "by-id", { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    const got = await (await newHost()).read(a.id, a.urn, withProvider({}));
    expect(strip(got.properties)).toEqual(strip(a.state));
    const bare = withProvider({ apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    const program = withProvider({ apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    expect((await host.diff(a.id, a.urn, bare, program)).changes).toBe("DIFF_NONE");
    const refreshed = await (await newHost()).read(a.id, a.urn, bare);
    expect(strip(refreshed.properties)).toEqual(strip(a.state));
  });
});

describe("delete", () => {
  it("is one DELETE; an assignment already gone, or a key already deleted, is no failure", async () => {
    const group = newGroup();
    const [key, doomed] = [newKey(), newKey()];
    const host = await newHost();
    const a = await created(host, "deleted", { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    const b = await created(host, "key-deleted", {
      apiKeyId: doomed,
      groupId: group,
      roles: ["GROUP_OWNER"],
    });
    // `pulumi destroy`: a process of its own.
    const destroy = await newHost();
    sim.resetRequests();
    await destroy.delete(a.id, a.urn, a.state);
    expect(calls()).toEqual([`DELETE /groups/${group}/apiKeys/${key} 200`]);
    expect(rolesOn(sim, group, key)).toEqual([]);
    sim.resetRequests();
    await destroy.delete(a.id, a.urn, a.state);
    expect(calls()).toEqual([`DELETE /groups/${group}/apiKeys/${key} 400`]);
    // Deleting a key removes its assignments: the assignment's delete finds nothing left to do.
    sim.state.removeApiKey(doomed);
    sim.resetRequests();
    await destroy.delete(
      b.id,
      b.urn,
      withProvider({
        ...b.state,
        restoreOnDelete: true,
        previous: { recorded: true, roles: ["GROUP_READ_ONLY"] },
      }),
    );
    expect(calls()).toEqual([`PATCH /groups/${group}/apiKeys/${doomed} 400`]);
    sim.resetRequests();
    await destroy.delete(b.id, b.urn, b.state);
    expect(calls()).toEqual([`DELETE /groups/${group}/apiKeys/${doomed} 400`]);
  });

  it("a replacement of the same key in the same project (pulumi up --replace) is not undone by the old one's delete", async () => {
    const [group, key, host] = [newGroup(), newKey(), await newHost()];
    const old = await created(host, "replaced", { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    // The next `pulumi up --replace`: the new resource first, then the old one deleted, in one host.
    const next = await newHost();
    sim.resetRequests();
    await created(next, "replaced", { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    await next.delete(old.id, old.urn, old.state);
    expect(calls()).toEqual([`PATCH /groups/${group}/apiKeys/${key} 200`]);
    expect(rolesOn(sim, group, key)).toEqual(["GROUP_OWNER"]);
    // A delete in a later deployment takes it away as usual.
    sim.resetRequests();
    await (await newHost()).delete(old.id, old.urn, old.state);
    expect(calls()).toEqual([`DELETE /groups/${group}/apiKeys/${key} 200`]);
  });

  it("a server error at delete names the call, the status and the code, and the assignment stays", async () => {
    const [group, key, host] = [newGroup(), newKey(), await newHost()];
    const a = await created(host, "refused", { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    sim.faults.add({ method: "DELETE", status: 409, errorCode: "CONFLICT" });
    const error = await failureOf((await newHost()).delete(a.id, a.urn, a.state));
    expect(error.message).toContain(
      `deleting ApiKeyProjectAssignment (API key ${key} in project ${group}): DELETE /groups/${group}/apiKeys/${key} failed: 409 CONFLICT`,
    );
    expect(rolesOn(sim, group, key)).toEqual(["GROUP_OWNER"]);
  });
});

describe("a server that answers the PATCH with 204 and no body (older documentation)", () => {
  it("creates and updates as with the key's answer", async () => {
    const [group, key, host] = [newGroup(older), newKey(older), await newHost(older)];
    older.resetRequests();
    const a = await created(host, "quiet", { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    const u = await host.update(
      a.id,
      a.urn,
      a.state,
      withProvider({ apiKeyId: key, groupId: group, roles: ["GROUP_READ_ONLY"] }),
    );
    expect(calls(older)).toEqual([
      `PATCH /groups/${group}/apiKeys/${key} 204`,
      `PATCH /groups/${group}/apiKeys/${key} 204`,
    ]);
    expect(u.properties.roles).toEqual(["GROUP_READ_ONLY"]);
    expect(rolesOn(older, group, key)).toEqual(["GROUP_READ_ONLY"]);
  });
});

describe("secrets", () => {
  it("the serialized provider, the outputs and the errors hold no credential", async () => {
    expect(text).not.toContain(PRIVATE_KEY);
    expect(text).toContain('require("pulumi-opsmanager/host")');
    const [group, key, host] = [newGroup(), newKey(), await newHost()];
    const a = await created(host, "secret", { apiKeyId: key, groupId: group, roles: ["GROUP_OWNER"] });
    expect(JSON.stringify(a.state).replace(text, "")).not.toContain(PRIVATE_KEY);
    sim.faults.add({ method: "GET", status: 403, errorCode: "IP_ADDRESS_NOT_ON_ACCESS_LIST" });
    const error = await failureOf((await newHost()).read(a.id, a.urn, a.state));
    expect(error.message).toMatch(/GET \/groups\/.*\/apiKeys failed: 403 IP_ADDRESS_NOT_ON_ACCESS_LIST/);
    expect(error.message).not.toContain(PRIVATE_KEY);
  });
});

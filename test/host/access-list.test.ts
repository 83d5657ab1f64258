/**
 * OrgApiKey's `accessList` through Pulumi's real dynamic-provider host against the deployed server
 * (the simulator's `deployed` profile): adoption reads the list once and POSTs only what is missing,
 * an update adds before it removes (the key never lacks an entry it keeps), a block's `/` crosses the
 * wire as `%2F` once, a refresh costs the shared key listing plus one read per managed list, entries
 * changed by hand show as drift, `restoreOnDelete` puts the old list back, and state written before the
 * list could be managed refreshes and diffs with no change and no access-list request.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../simulator/types";
import { type Host, type HostCallError, KEY_TYPE, type Props, strip, urn } from "../support/host";
import { simulatorWithHosts } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-acls-4e5f-a6b7-RECOGNIZABLE07";

const world = simulatorWithHosts(PRIVATE_KEY, { profile: "deployed", seed: { keys: 5 } });
let host: Host;
beforeAll(async () => {
  host = await world.newHost();
});

const listPath = (keyId: string) => `/orgs/${world.sim.orgId}/apiKeys/${keyId}/accessList`;
const API = "/api/public/v1.0";

/** Requests that reached the API (digest challenges left out), as `METHOD path` with their body. */
const sent = () =>
  world.sim.requests
    .filter((q) => q.status !== 401)
    .map((q) => ({ call: `${q.method} ${q.path.slice(API.length)}`, body: q.body }));

/** The entries the server holds for a key, as it spells them (address, else block), sorted. */
const serverList = (keyId: string) =>
  world.sim.state
    .accessList(keyId)
    .map((e) => e.ipAddress ?? e.cidrBlock)
    .sort();

function newKey(desc: string) {
  return world.sim.state.addApiKey({ desc });
}

async function addByHand(keyId: string, body: unknown[]) {
  await world.byHand.request({ method: "POST", path: listPath(keyId), body });
}

/** `pulumi up` of a resource in the stack: Check, Diff, and Update when Diff says so. */
async function up(resourceUrn: string, id: string, state: Props, oldInputs: Props, program: Props) {
  const checked = await host.check(
    resourceUrn,
    world.fixture.withKey(oldInputs),
    world.fixture.withKey(program),
  );
  expect(checked.failures).toEqual([]);
  const diff = await host.diff(id, resourceUrn, world.fixture.withKey(state), checked.inputs);
  if (diff.changes !== "DIFF_SOME") return { diff, state, inputs: checked.inputs };
  const updated = await host.update(id, resourceUrn, world.fixture.withKey(state), checked.inputs);
  return { diff, state: strip(updated.properties), inputs: checked.inputs };
}

/** Check then Create, as the engine does for a new resource. */
async function adopt(name: string, program: Props) {
  const checked = await host.check(urn(KEY_TYPE, name), {}, world.fixture.withKey(program));
  expect(checked.failures).toEqual([]);
  const created = await host.create(urn(KEY_TYPE, name), checked.inputs);
  return { state: strip(created.properties), inputs: checked.inputs };
}

describe("an adopted key's access list", () => {
  it("is read once, recorded, and only the missing entries POSTed in one array; outputs are canonical and sorted", async () => {
    const k = newKey("adopt with a list");
    await addByHand(k.id, [{ ipAddress: "203.0.113.7" }]);
    world.sim.resetRequests();
    const program = {
      orgId: world.sim.orgId,
      apiKeyId: k.id,
      accessList: ["2001:DB8::/32", "203.0.113.7/32", "10.0.0.0/24"],
    };
    const { state } = await adopt("adopt-list", program);
    expect(sent().filter((r) => r.call.includes("/accessList"))).toEqual([
      { call: `GET ${listPath(k.id)}`, body: undefined },
      {
        call: `POST ${listPath(k.id)}`,
        body: [{ cidrBlock: "10.0.0.0/24" }, { cidrBlock: "2001:db8::/32" }],
      },
    ]);
    expect(serverList(k.id)).toEqual(["10.0.0.0/24", "2001:db8::/32", "203.0.113.7"]);
    expect(state.accessList).toEqual(["10.0.0.0/24", "2001:db8::/32", "203.0.113.7"]);
    expect(state.accessListEntries).toEqual([
      {
        entry: "10.0.0.0/24",
        created: expect.stringMatching(/^\d{4}-/),
        lastUsed: "",
        lastUsedAddress: "",
        count: 0,
      },
      {
        entry: "2001:db8::/32",
        created: expect.stringMatching(/^\d{4}-/),
        lastUsed: "",
        lastUsedAddress: "",
        count: 0,
      },
      {
        entry: "203.0.113.7",
        created: expect.stringMatching(/^\d{4}-/),
        lastUsed: "",
        lastUsedAddress: "",
        count: 0,
      },
    ]);
    expect(state.adopted).toMatchObject({ accessList: ["203.0.113.7"] });
  });

  it("that already holds every declared entry costs one read and nothing else", async () => {
    const k = newKey("adopt, nothing to add");
    await addByHand(k.id, [{ ipAddress: "198.51.100.1" }, { cidrBlock: "10.1.0.0/16" }]);
    world.sim.resetRequests();
    await adopt("adopt-same", {
      orgId: world.sim.orgId,
      apiKeyId: k.id,
      accessList: ["10.1.0.0/16", "198.51.100.1"],
    });
    expect(
      sent()
        .filter((r) => r.call.includes("/accessList"))
        .map((r) => r.call),
    ).toEqual([`GET ${listPath(k.id)}`]);
  });

  it("without accessList in the program is never read", async () => {
    const k = newKey("adopt, list unmanaged");
    await addByHand(k.id, [{ ipAddress: "198.51.100.2" }]);
    world.sim.resetRequests();
    const { state } = await adopt("adopt-unmanaged", {
      orgId: world.sim.orgId,
      apiKeyId: k.id,
      desc: "unmanaged list",
    });
    expect(sent().filter((r) => r.call.includes("/accessList"))).toEqual([]);
    expect(state).not.toHaveProperty("accessList");
    expect(state).not.toHaveProperty("accessListEntries");
    expect(serverList(k.id)).toEqual(["198.51.100.2"]);
  });
});

describe("an access list changed in place", () => {
  it("adds first, in one POST, then removes one DELETE per entry, a block's / sent as %2F once; the key never lacks an entry it keeps", async () => {
    const k = newKey("update in place");
    const declared = {
      orgId: world.sim.orgId,
      apiKeyId: k.id,
      accessList: ["10.0.0.0/24", "192.0.2.1", "192.0.2.2"],
    };
    const keyUrn = urn(KEY_TYPE, "in-place");
    const first = await adopt("in-place", declared);

    // The server's list as each access-list request is answered.
    const seen: { call: string; list: string[] }[] = [];
    const watch = (q: RecordedRequest) =>
      seen.push({ call: `${q.method} ${q.path}`, list: serverList(k.id) });
    world.sim.faults.add({ pathPrefix: listPath(k.id), times: 3, whenAnswered: watch });
    world.sim.resetRequests();
    const program = { ...declared, accessList: ["192.0.2.2", "172.16.0.0/12", "2001:db8::7"] };
    const step = await up(keyUrn, k.id, first.state, first.inputs, program);
    world.sim.faults.clear();

    expect(step.diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(sent()).toEqual([
      {
        call: `POST ${listPath(k.id)}`,
        body: [{ cidrBlock: "172.16.0.0/12" }, { ipAddress: "2001:db8::7" }],
      },
      { call: `DELETE ${listPath(k.id)}/10.0.0.0%2F24`, body: undefined },
      { call: `DELETE ${listPath(k.id)}/192.0.2.1`, body: undefined },
    ]);
    // The raw path crossed the wire with %2F, not %252F and not a second /.
    expect(world.sim.requests.some((q) => q.path === `${API}${listPath(k.id)}/10.0.0.0%2F24`)).toBe(true);
    expect(seen).toHaveLength(3);
    for (const { list } of seen) expect(list).toContain("192.0.2.2");
    // Once the POST was answered, the list held the new entries and every old one: nothing removed yet.
    expect(seen[0]!.list).toEqual(["10.0.0.0/24", "172.16.0.0/12", "192.0.2.1", "192.0.2.2", "2001:db8::7"]);
    expect(serverList(k.id)).toEqual(["172.16.0.0/12", "192.0.2.2", "2001:db8::7"]);
    expect(step.state.accessList).toEqual(["172.16.0.0/12", "192.0.2.2", "2001:db8::7"]);
    expect((step.state.accessListEntries as { entry: string }[]).map((e) => e.entry)).toEqual(
      step.state.accessList,
    );
    // What the key had before management started stays what restoreOnDelete puts back.
    expect(step.state.adopted).toMatchObject({ accessList: [] });
  });

  it("10.0.0.1/32 for 10.0.0.1, or the entries reordered, is no change", async () => {
    const k = newKey("same set");
    const declared = { orgId: world.sim.orgId, apiKeyId: k.id, accessList: ["10.0.0.1", "::1"] };
    const { state, inputs } = await adopt("same-set", declared);
    world.sim.resetRequests();
    const step = await up(urn(KEY_TYPE, "same-set"), k.id, state, inputs, {
      ...declared,
      accessList: ["0:0:0:0:0:0:0:1/128", "10.0.0.1/32"],
    });
    expect(step.diff.changes).toBe("DIFF_NONE");
    expect(world.sim.requests).toEqual([]);
  });

  it("only removals send DELETEs and no POST; dropping accessList sends nothing and stops managing it", async () => {
    const k = newKey("removals only");
    const declared = { orgId: world.sim.orgId, apiKeyId: k.id, accessList: ["10.9.0.0/16", "10.8.0.1"] };
    const keyUrn = urn(KEY_TYPE, "removals");
    const first = await adopt("removals", declared);
    world.sim.resetRequests();
    const fewer = { ...declared, accessList: ["10.8.0.1"] };
    const step = await up(keyUrn, k.id, first.state, first.inputs, fewer);
    expect(sent().map((r) => r.call)).toEqual([`DELETE ${listPath(k.id)}/10.9.0.0%2F16`]);

    world.sim.resetRequests();
    const { accessList: _dropped, ...without } = fewer;
    const dropped = await up(keyUrn, k.id, step.state, step.inputs, without);
    expect(dropped.diff).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(sent()).toEqual([]);
    expect(dropped.state).not.toHaveProperty("accessList");
    expect(serverList(k.id)).toEqual(["10.8.0.1"]);
  });
});

describe("a refresh of keys whose access lists are managed", () => {
  it("costs the shared key listing, one read per list and one challenge; entries changed by hand show as drift", async () => {
    const keys = [newKey("refresh a"), newKey("refresh b"), newKey("refresh c")];
    const states: Props[] = [];
    for (const [i, k] of keys.entries()) {
      const { state } = await adopt(`refresh-${i}`, {
        orgId: world.sim.orgId,
        apiKeyId: k.id,
        accessList: [`192.0.2.${10 + i}`, "10.20.0.0/16"],
      });
      states.push(state);
    }
    // By hand: one entry added to key a, one removed from key b.
    await addByHand(keys[0]!.id, [{ cidrBlock: "198.51.100.0/24" }]);
    await world.byHand.request({ method: "DELETE", path: `${listPath(keys[1]!.id)}/10.20.0.0%2F16` });

    const refresh = await world.newHost();
    world.sim.resetRequests();
    const reads = await Promise.all(
      keys.map((k, i) =>
        refresh.read(k.id, urn(KEY_TYPE, `refresh-${i}`), world.fixture.withKey(states[i]!)),
      ),
    );
    const challenges = world.sim.requests.filter((q) => q.status === 401);
    const listings = world.sim.requests.filter(
      (q) => q.status !== 401 && q.path === `${API}/orgs/${world.sim.orgId}/apiKeys`,
    );
    const listReads = world.sim.requests.filter((q) => q.status !== 401 && q.path.endsWith("/accessList"));
    expect(challenges).toHaveLength(1);
    expect(listings).toHaveLength(1);
    expect(listReads.map((q) => q.method)).toEqual(["GET", "GET", "GET"]);
    expect(world.sim.requests).toHaveLength(1 + 1 + keys.length);

    expect(reads[0]!.inputs?.accessList).toEqual(["10.20.0.0/16", "192.0.2.10", "198.51.100.0/24"]);
    expect(reads[1]!.inputs?.accessList).toEqual(["192.0.2.11"]);
    expect(reads[2]!.inputs?.accessList).toEqual(["10.20.0.0/16", "192.0.2.12"]);
    expect(strip(reads[2]!.properties)).toEqual(states[2]);

    // The next preview shows the drift as an update of accessList, and `up` puts it right.
    const program = {
      orgId: world.sim.orgId,
      apiKeyId: keys[0]!.id,
      accessList: ["192.0.2.10", "10.20.0.0/16"],
    };
    const checked = await host.check(urn(KEY_TYPE, "refresh-0"), {}, world.fixture.withKey(program));
    const refreshed = strip(reads[0]!.properties);
    const d = await host.diff(
      keys[0]!.id,
      urn(KEY_TYPE, "refresh-0"),
      world.fixture.withKey(refreshed),
      checked.inputs,
    );
    expect(d).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    world.sim.resetRequests();
    await host.update(
      keys[0]!.id,
      urn(KEY_TYPE, "refresh-0"),
      world.fixture.withKey(refreshed),
      checked.inputs,
    );
    expect(sent().map((r) => r.call)).toEqual([`DELETE ${listPath(keys[0]!.id)}/198.51.100.0%2F24`]);
  });

  it("state written before the list could be managed refreshes and diffs with no change and no list read", async () => {
    const k = newKey("older stack");
    await addByHand(k.id, [{ ipAddress: "192.0.2.99" }]);
    const program = { orgId: world.sim.orgId, apiKeyId: k.id, desc: "older stack", roles: ["ORG_MEMBER"] };
    world.sim.state.updateApiKey(k.id, { roles: [{ orgId: world.sim.orgId, roleName: "ORG_MEMBER" }] });
    // As written before the list could be managed, and before state versions.
    const { stateVersion: _unversioned, ...state } = (await adopt("older", program)).state;
    const refresh = await world.newHost();
    world.sim.resetRequests();
    const read = await refresh.read(k.id, urn(KEY_TYPE, "older"), world.fixture.withKey(state));
    expect(strip(read.properties)).toEqual(state);
    expect(world.sim.requests.filter((q) => q.path.includes("/accessList"))).toEqual([]);
    const d = await refresh.diff(
      k.id,
      urn(KEY_TYPE, "older"),
      world.fixture.withKey(state),
      world.fixture.withKey(program),
    );
    expect(d.changes).toBe("DIFF_NONE");
  });
});

describe("restoreOnDelete of an adopted key", () => {
  it("puts back the list it had before management started: adds, then removes", async () => {
    const k = newKey("restore");
    await addByHand(k.id, [{ ipAddress: "198.51.100.50" }, { cidrBlock: "10.50.0.0/16" }]);
    const { state } = await adopt("restore", {
      orgId: world.sim.orgId,
      apiKeyId: k.id,
      accessList: ["10.50.0.0/16", "203.0.113.50"],
      restoreOnDelete: true,
    });
    expect(serverList(k.id)).toEqual(["10.50.0.0/16", "203.0.113.50"]);
    world.sim.resetRequests();
    // `pulumi destroy`: a process of its own.
    await (await world.newHost()).delete(k.id, urn(KEY_TYPE, "restore"), world.fixture.withKey(state));
    expect(sent()).toEqual([
      { call: `POST ${listPath(k.id)}`, body: [{ ipAddress: "198.51.100.50" }] },
      { call: `DELETE ${listPath(k.id)}/203.0.113.50`, body: undefined },
    ]);
    expect(serverList(k.id)).toEqual(["10.50.0.0/16", "198.51.100.50"]);
  });
});

describe("a server error on an entry", () => {
  it("a refused POST names the entries, the request and its code, and says nothing was removed", async () => {
    const k = newKey("post refused");
    const { state, inputs } = await adopt("post-refused", {
      orgId: world.sim.orgId,
      apiKeyId: k.id,
      accessList: ["192.0.2.70"],
    });
    world.sim.faults.add({
      method: "POST",
      pathPrefix: listPath(k.id),
      status: 400,
      errorCode: "INVALID_ATTRIBUTE",
    });
    world.sim.resetRequests();
    const program = { orgId: world.sim.orgId, apiKeyId: k.id, accessList: ["10.70.0.0/16", "192.0.2.71"] };
    const error = await up(urn(KEY_TYPE, "post-refused"), k.id, state, inputs, program).then(
      () => undefined,
      (e: HostCallError) => e,
    );
    world.sim.faults.clear();
    expect(error?.message).toMatch(
      new RegExp(
        `adding 10\\.70\\.0\\.0/16, 192\\.0\\.2\\.71 to its access list: POST ${listPath(k.id)} failed: 400 INVALID_ATTRIBUTE`,
      ),
    );
    expect(error?.message).toMatch(
      /Nothing was removed from the list; correct what the server refused, then run `pulumi up` again/,
    );
    // Sent once (a POST is never retried), and no DELETE after it.
    expect(sent().map((r) => r.call)).toEqual([`POST ${listPath(k.id)}`]);
    expect(serverList(k.id)).toEqual(["192.0.2.70"]);
  });

  it("names the entry, the request, the status, errorCode and detail, and what to do", async () => {
    const k = newKey("refused");
    const { state, inputs } = await adopt("refused", {
      orgId: world.sim.orgId,
      apiKeyId: k.id,
      accessList: ["192.0.2.60"],
    });
    world.sim.faults.add({
      method: "DELETE",
      pathPrefix: listPath(k.id),
      status: 400,
      errorCode: "API_KEY_ACCESS_LIST_ACCESS_DENIED",
    });
    const program = { orgId: world.sim.orgId, apiKeyId: k.id, accessList: ["192.0.2.61"] };
    const error = await up(urn(KEY_TYPE, "refused"), k.id, state, inputs, program).then(
      () => undefined,
      (e: HostCallError) => e,
    );
    world.sim.faults.clear();
    expect(error?.message).toMatch(
      new RegExp(
        `removing 192\\.0\\.2\\.60 from its access list: DELETE ${listPath(k.id)}/192\\.0\\.2\\.60 failed: 400 API_KEY_ACCESS_LIST_ACCESS_DENIED`,
      ),
    );
    expect(error?.message).toMatch(
      /only the API key itself or an Organization Owner \(ORG_OWNER\) may read or change/,
    );
    expect(error?.message).toMatch(
      /192\.0\.2\.61 were added first and stay; run `pulumi up` again to remove it/,
    );
    expect(serverList(k.id)).toEqual(["192.0.2.60", "192.0.2.61"]);
  });
});

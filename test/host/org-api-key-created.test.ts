/**
 * An OrgApiKey that names no existing key, followed through its life by Pulumi's real dynamic-provider
 * host against the deployed server: created with one POST, its private key kept by refresh and update,
 * rotated through `keepers` (the new key first, then the old one deleted), deleted on destroy; and a
 * create whose answer cannot be read, which must leave no key behind that nobody knows of.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpClient } from "../../provider/client";
import type { Fault } from "../../simulator/types";
import { type Host, KEY_TYPE, type Props, strip, urn } from "../support/host";
import { checkThenCreate, failureOf, simulatorWithHosts } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-made-4e5f-a6b7-RECOGNIZABLE07";

/** Every whole private key a create handed out: none may appear in anything a host printed. */
const world = simulatorWithHosts(PRIVATE_KEY, { seed: { keys: 4 } });
/** A new host is a new `pulumi up`: it has learned nothing of the server yet. */
const { handedOut, newHost } = world;

/** The requests since the last reset, as `METHOD status` (`challenge` for an unauthenticated one). */
const wire = () => world.sim.requests.map((q) => (q.authenticated ? `${q.method} ${q.status}` : "challenge"));

const orgKeyIds = () => world.sim.state.apiKeys(world.sim.orgId).map((k) => k.id);

let n = 0;
function program(extra: Props = {}): Props {
  n += 1;
  return { orgId: world.sim.orgId, desc: `deployer ${n}`, roles: ["ORG_MEMBER"], ...extra };
}

async function createKey(host: Host, name: string, inputs: Props) {
  const keyUrn = urn(KEY_TYPE, name);
  const created = await checkThenCreate(host, keyUrn, world.fixture.withKey(inputs));
  handedOut.push(created.properties.privateKey as string);
  return { urn: keyUrn, id: created.id, state: world.fixture.withKey(strip(created.properties)) };
}

describe("a created key, through the host", () => {
  it("is made with one POST carrying the attempt's mark and one PATCH of the declared desc (and the challenge), its whole private key a output that authenticates", async () => {
    const host = await newHost();
    const inputs = program({ roles: ["ORG_READ_ONLY", "ORG_MEMBER"] });
    world.sim.resetRequests();
    const key = await createKey(host, "made", inputs);
    expect(wire()).toEqual(["challenge", "POST 200", "PATCH 200"]);
    expect(world.sim.requests[1]!.body).toEqual({
      desc: expect.stringMatching(new RegExp(`^${inputs.desc} \\[pulumi create [0-9a-f]{16}\\]$`)),
      roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
    });
    expect(world.sim.requests[2]!.body).toEqual({ desc: inputs.desc });
    const onServer = world.sim.state.apiKey(key.id)!;
    expect(key.id).toMatch(/^[0-9a-f]{24}$/);
    expect(strip(key.state)).toEqual({
      orgId: world.sim.orgId,
      apiKeyId: key.id,
      publicKey: onServer.publicKey,
      desc: inputs.desc,
      roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
      privateKey: onServer.privateKey,
      projectRoles: [],
      restoreOnDelete: false,
      adopted: { desc: "", roles: [] },
      managed: { desc: true, roles: true, by: "created" },
      keepers: {},
      stateVersion: 2,
    });
    const user = new HttpClient({
      baseUrl: world.sim.apiRoot,
      username: key.state.publicKey as string,
      password: key.state.privateKey as string,
    });
    try {
      const listed = await user.request({ method: "GET", path: `/orgs/${world.sim.orgId}/apiKeys` });
      expect(listed.status).toBe(200);
    } finally {
      await user.close();
    }
  });

  it("a refresh keeps the private key and shows the rest as the server has it; the same program is then no change", async () => {
    const host = await newHost();
    const inputs = program({ keepers: { rotated: "2026-11" } });
    const key = await createKey(host, "refreshed", inputs);
    const secret = key.state.privateKey;
    world.sim.state.updateApiKey(key.id, { desc: "changed by hand" });
    const refresh = await newHost();
    world.sim.resetRequests();
    const read = await refresh.read(key.id, key.urn, key.state);
    // The organization's shared listing, read once: the key is on it.
    expect(wire()).toEqual(["challenge", "GET 200"]);
    expect(read.id).toBe(key.id);
    expect(strip(read.properties)).toMatchObject({
      desc: "changed by hand",
      privateKey: secret,
      keepers: { rotated: "2026-11" },
      managed: { by: "created" },
    });
    // The drift, as a preview after the refresh shows it: no key named, the keepers as declared.
    expect(strip(read.inputs!)).toEqual({
      orgId: world.sim.orgId,
      desc: "changed by hand",
      roles: ["ORG_MEMBER"],
      keepers: { rotated: "2026-11" },
    });
    world.sim.resetRequests();
    const same = await host.diff(key.id, key.urn, read.properties, world.fixture.withKey(inputs));
    expect(same).toEqual({ changes: "DIFF_SOME", replaces: [], deleteBeforeReplace: false });
    const updated = await host.update(key.id, key.urn, read.properties, world.fixture.withKey(inputs));
    expect(wire()).toEqual([`PATCH 200`]);
    expect(strip(updated.properties)).toMatchObject({ desc: inputs.desc, privateKey: secret });
    const after = await host.diff(key.id, key.urn, updated.properties, world.fixture.withKey(inputs));
    expect(after.changes).toBe("DIFF_NONE");
    expect(wire()).toEqual([`PATCH 200`]);
  });

  it("rotates through keepers: a replacement, the new key made first, then the old one deleted", async () => {
    const host = await newHost();
    const inputs = program({ keepers: { rotated: "2026-10" } });
    const old = await createKey(host, "rotated", inputs);
    const rotated = { ...inputs, keepers: { rotated: "2026-11" } };
    world.sim.resetRequests();
    const checked = await host.check(old.urn, old.state, world.fixture.withKey(rotated));
    expect(checked.failures).toEqual([]);
    const d = await host.diff(old.id, old.urn, old.state, checked.inputs);
    expect(d).toEqual({ changes: "DIFF_SOME", replaces: ["keepers"], deleteBeforeReplace: false });
    // Preview (check and diff) makes no request.
    expect(world.sim.requests).toEqual([]);
    // What the engine then does for a replacement that is not delete-before-replace.
    const next = await host.create(old.urn, checked.inputs);
    handedOut.push(next.properties.privateKey as string);
    expect(next.id).not.toBe(old.id);
    expect(orgKeyIds()).toEqual(expect.arrayContaining([old.id, next.id]));
    expect(next.properties.privateKey).toBe(world.sim.state.apiKey(next.id)!.privateKey);
    expect(next.properties.privateKey).not.toBe(old.state.privateKey);
    expect(next.properties.keepers).toEqual({ rotated: "2026-11" });
    await host.delete(old.id, old.urn, old.state);
    expect(wire()).toEqual(["POST 200", "PATCH 200", "DELETE 200"]);
    expect(world.sim.state.apiKey(old.id)).toBeUndefined();
    expect(world.sim.state.apiKey(next.id)).toBeDefined();
  });

  it("`pulumi up --replace` goes the same way: a new key, then the old one deleted", async () => {
    const host = await newHost();
    const inputs = program();
    const old = await createKey(host, "replaced", inputs);
    world.sim.resetRequests();
    const next = await checkThenCreate(host, old.urn, world.fixture.withKey(inputs));
    handedOut.push(next.properties.privateKey as string);
    await host.delete(old.id, old.urn, old.state);
    expect(wire()).toEqual(["POST 200", "PATCH 200", "DELETE 200"]);
    expect(world.sim.state.apiKey(old.id)).toBeUndefined();
    expect(world.sim.state.apiKey(next.id)?.desc).toBe(inputs.desc);
  });

  it("is deleted by destroy with one DELETE; a key already gone is no failure", async () => {
    const host = await newHost();
    const key = await createKey(host, "destroyed", program());
    const destroy = await newHost();
    world.sim.resetRequests();
    await destroy.delete(key.id, key.urn, key.state);
    expect(wire()).toEqual(["challenge", "DELETE 200"]);
    expect(world.sim.state.apiKey(key.id)).toBeUndefined();
    world.sim.resetRequests();
    await destroy.delete(key.id, key.urn, key.state);
    expect(wire()).toEqual(["DELETE 400"]);
  });

  it("switching between created and adopted is a replacement; naming the created key itself adopts it in place", async () => {
    const host = await newHost();
    const inputs = program();
    const key = await createKey(host, "switched", inputs);
    const other = world.sim.state
      .apiKeys(world.sim.orgId)
      .find((k) => k.publicKey !== world.sim.publicKey && k.id !== key.id)!;
    world.sim.resetRequests();
    const toOther = await host.diff(
      key.id,
      key.urn,
      key.state,
      world.fixture.withKey({ ...inputs, apiKeyId: other.id }),
    );
    expect(toOther).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["apiKeyId"],
      deleteBeforeReplace: false,
    });
    const byPublicKey = { ...inputs, publicKey: other.publicKey };
    expect(
      (await host.diff(key.id, key.urn, key.state, world.fixture.withKey(byPublicKey))).replaces,
    ).toEqual(["publicKey"]);
    // An adopted key's state against a program that names no key: a key to create, a replacement.
    const adopted = await host.create(
      urn(KEY_TYPE, "adopted"),
      world.fixture.withKey({ orgId: world.sim.orgId, apiKeyId: other.id }),
    );
    const toCreated = await host.diff(
      other.id,
      urn(KEY_TYPE, "adopted"),
      adopted.properties,
      world.fixture.withKey(program()),
    );
    expect(toCreated).toMatchObject({ changes: "DIFF_SOME", replaces: ["apiKeyId"] });
    world.sim.resetRequests();
    const itself = { ...inputs, apiKeyId: key.id };
    const d = await host.diff(key.id, key.urn, key.state, world.fixture.withKey(itself));
    expect(d).toEqual({ changes: "DIFF_SOME", replaces: [], deleteBeforeReplace: false });
    const updated = await host.update(key.id, key.urn, key.state, world.fixture.withKey(itself));
    expect(world.sim.requests).toEqual([]);
    expect(strip(updated.properties)).toMatchObject({ managed: { by: "apiKeyId" }, keepers: {} });
    expect(updated.properties.privateKey).toMatch(/^[*-]+.{4}$/);
    // Now adopted: destroy releases it.
    await host.delete(key.id, key.urn, world.fixture.withKey(strip(updated.properties)));
    expect(world.sim.requests).toEqual([]);
    expect(world.sim.state.apiKey(key.id)).toBeDefined();
  });

  it("check refuses what a mode does not allow, one failure per property, before any request", async () => {
    const host = await newHost();
    world.sim.resetRequests();
    const missing = await host.check(
      urn(KEY_TYPE, "bad"),
      {},
      world.fixture.withKey({ orgId: world.sim.orgId, restoreOnDelete: true }),
    );
    expect(missing.failures.map((f) => f.property)).toEqual(["desc", "roles", "restoreOnDelete"]);
    expect(missing.failures[0]!.reason).toMatch(/^desc is required to create a key/);
    expect(missing.failures[2]!.reason).toMatch(/a key this resource creates is deleted on destroy/);
    const adopted = await host.check(
      urn(KEY_TYPE, "bad"),
      {},
      world.fixture.withKey({ orgId: world.sim.orgId, publicKey: "abcdefgh", keepers: { a: "1" } }),
    );
    expect(adopted.failures).toEqual([
      { property: "keepers", reason: expect.stringMatching(/^keepers replace a key this resource creates/) },
    ]);
    const typed = await host.check(
      urn(KEY_TYPE, "bad"),
      {},
      world.fixture.withKey(program({ keepers: { a: 1 } })),
    );
    expect(typed.failures).toEqual([{ property: "keepers", reason: "keepers.a must be a string (got 1)" }]);
    expect(world.sim.requests).toEqual([]);
  });

  it("state of an adopted key written before keys could be created refreshes and diffs with no change", async () => {
    const host = await newHost();
    const target = world.sim.state.addApiKey({
      desc: "older",
      roles: [{ orgId: world.sim.orgId, roleName: "ORG_MEMBER" }],
    });
    const declared = { orgId: world.sim.orgId, apiKeyId: target.id, desc: "older", roles: ["ORG_MEMBER"] };
    const created = await host.create(urn(KEY_TYPE, "older"), world.fixture.withKey(declared));
    // As written before keys could be created, and before state versions.
    const { keepers: _none, stateVersion: _unversioned, ...older } = strip(created.properties);
    for (const state of [older, { ...older, managed: { desc: true, roles: true, by: "apiKeyId" } }]) {
      const d = await host.diff(
        target.id,
        urn(KEY_TYPE, "older"),
        world.fixture.withKey(state),
        world.fixture.withKey(declared),
      );
      expect(d.changes).toBe("DIFF_NONE");
      const read = await (await newHost()).read(
        target.id,
        urn(KEY_TYPE, "older"),
        world.fixture.withKey(state),
      );
      const again = await host.diff(
        target.id,
        urn(KEY_TYPE, "older"),
        read.properties,
        world.fixture.withKey(declared),
      );
      expect(again.changes).toBe("DIFF_NONE");
      expect(read.properties.privateKey).toMatch(/^\*/);
    }
  });
});

describe("a create whose answer cannot be read leaves no key behind", () => {
  let host: Host;
  beforeAll(async () => {
    host = await newHost({ "opsmanager:timeoutSeconds": "2" });
    // The digest session's first challenge, once, before the cases.
    await createKey(host, "warm", program());
  });
  beforeEach(() => {
    world.sim.faults.clear();
  });

  const acted: Array<[string, Fault]> = [
    ["answered 500 after making the key", { method: "POST", status: 500, actThenFail: true }],
    ["cut off after the server made the key, before any answer", { method: "POST", drop: "after" }],
    ["cut off in the middle of the answer", { method: "POST", drop: "mid" }],
    [
      "answered 200 with an HTML page after making the key",
      {
        method: "POST",
        actThenFail: true,
        raw: { status: 200, contentType: "text/html", body: "<html>OK</html>" },
      },
    ],
    [
      "answered 200 with JSON cut short after making the key",
      {
        method: "POST",
        actThenFail: true,
        raw: { status: 200, contentType: "application/json", body: '{"id":"5f' },
      },
    ],
  ];

  it.each(acted)(
    "%s: the key made is found, deleted, and the create fails saying so",
    async (_what, fault) => {
      const before = orgKeyIds();
      world.sim.resetRequests();
      world.sim.faults.add(fault);
      const inputs = program();
      const error = await failureOf(
        checkThenCreate(host, urn(KEY_TYPE, `lost-${n}`), world.fixture.withKey(inputs)),
      );
      const posts = world.sim.requests.filter((q) => q.method === "POST" && q.authenticated);
      expect(posts).toHaveLength(1);
      const deletes = world.sim.requests.filter((q) => q.method === "DELETE");
      expect(deletes).toHaveLength(1);
      const madeId = deletes[0]!.path.split("/").at(-1)!;
      expect(error.message).toContain(
        `OrgApiKey (new API key ${JSON.stringify(inputs.desc)} in organization ${world.sim.orgId}): POST /orgs/${world.sim.orgId}/apiKeys`,
      );
      expect(error.message).toContain(`The server made API key ${madeId}`);
      expect(error.message).toContain("the key with this create's mark");
      expect(error.message).toContain("it was deleted, and no key is left behind");
      expect(error.message).toContain("`pulumi up` can simply run again");
      expect(error.partial).toBeUndefined();
      expect(orgKeyIds()).toEqual(before);
      // Two consistent reads of the organization's keys, between the POST and the DELETE.
      expect(wire().filter((w) => w.startsWith("GET"))).toEqual(["GET 200", "GET 200"]);
    },
  );

  it("answered 500 without acting: no key was made, and the create fails saying none was left behind", async () => {
    const before = orgKeyIds();
    world.sim.resetRequests();
    world.sim.faults.add({ method: "POST", status: 500 });
    const inputs = program();
    const error = await failureOf(
      checkThenCreate(host, urn(KEY_TYPE, `none-${n}`), world.fixture.withKey(inputs)),
    );
    expect(error.message).toContain("The server made no key of this create");
    expect(error.message).toContain("No key was left behind");
    expect(wire()).toEqual(["POST 500", "GET 200", "GET 200"]);
    expect(orgKeyIds()).toEqual(before);
  });
});

import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as key from "../../provider/resources/org-api-key/org-api-key-methods";
import type { Simulator } from "../../simulator/types";
import { simulatorWithProvider, wire } from "./support";

let sim: Simulator;
beforeEach(async () => {
  if (sim) await sim.close();
  sim = await simulatorWithProvider({ seed: { keys: 20 } });
});
afterAll(async () => sim?.close());

function target() {
  const k = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
  sim.state.updateApiKey(k.id, {
    desc: "before",
    roles: [
      { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
    ],
  });
  return sim.state.apiKey(k.id)!;
}

describe("OrgApiKey check", () => {
  it("accepts good inputs and sorts roles as a set", async () => {
    const r = await key.check(
      {},
      {
        orgId: sim.orgId,
        apiKeyId: "5f00000000000000000000aa",
        roles: ["ORG_READ_ONLY", "ORG_MEMBER", "ORG_READ_ONLY"],
      },
    );
    expect(r.failures).toEqual([]);
    expect(r.inputs.roles).toEqual(["ORG_MEMBER", "ORG_READ_ONLY"]);
  });

  it("names each bad property and its rule", async () => {
    const r = await key.check(
      {},
      { orgId: "a/b", apiKeyId: "x", publicKey: "y", desc: "", roles: ["ORG_ADMIN"], restoreOnDelete: "yes" },
    );
    const byProperty = Object.fromEntries(r.failures.map((f) => [f.property, f.reason]));
    expect(byProperty.orgId).toMatch(/orgId must not contain '\/'/);
    expect(byProperty.desc).toMatch(/desc must not be empty/);
    expect(byProperty.roles).toMatch(
      /roles\[0\] must be an organization role: one of ORG_OWNER.*\(got "ORG_ADMIN"\)/,
    );
    expect(byProperty.restoreOnDelete).toMatch(/restoreOnDelete must be true or false/);
    expect(byProperty.apiKeyId).toMatch(/exactly one of apiKeyId and publicKey/);
    expect(sim.requests).toHaveLength(0);
  });

  it("a key to create (neither apiKeyId nor publicKey) needs its desc and roles", async () => {
    const r = await key.check({}, { orgId: sim.orgId });
    expect(r.failures).toEqual([
      { property: "desc", reason: expect.stringMatching(/^desc is required to create a key/) },
      { property: "roles", reason: expect.stringMatching(/^roles is required to create a key/) },
    ]);
    const made = await key.check({}, { orgId: sim.orgId, desc: "ci", roles: ["ORG_MEMBER"] });
    expect(made.failures).toEqual([]);
  });

  it("lets values that are not known yet pass", async () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const r = await key.check(
      {},
      { orgId: unknown, publicKey: unknown, roles: [unknown, "ORG_MEMBER"], desc: unknown },
    );
    expect(r.failures).toEqual([]);
  });
});

describe("OrgApiKey create (adoption)", () => {
  it("finds the key by public key and PATCHes only the fields that differ", async () => {
    const k = target();
    sim.resetRequests();
    const r = await key.create({
      orgId: sim.orgId,
      publicKey: k.publicKey,
      desc: "before",
      roles: ["ORG_READ_ONLY"],
    });
    expect(r.id).toBe(k.id);
    expect(wire(sim)).toEqual([`GET /orgs/${sim.orgId}/apiKeys`, `PATCH /orgs/${sim.orgId}/apiKeys/${k.id}`]);
    const patch = sim.requests.find((q) => q.method === "PATCH" && q.status === 200)!;
    expect(patch.body).toEqual({ roles: ["ORG_READ_ONLY"] });
    expect(r.outs).toMatchObject({
      apiKeyId: k.id,
      publicKey: k.publicKey,
      desc: "before",
      roles: ["ORG_READ_ONLY"],
      projectRoles: [{ groupId: sim.groupId, roleName: "GROUP_READ_ONLY" }],
      adopted: { desc: "before", roles: ["ORG_MEMBER"] },
    });
    expect(r.outs.privateKey).toMatch(/^\*{8}-/);
    expect(JSON.stringify(r.outs)).not.toContain(k.privateKey);
  });

  it("sends no PATCH when the key already is as declared", async () => {
    const k = target();
    sim.resetRequests();
    await key.create({ orgId: sim.orgId, apiKeyId: k.id, desc: "before", roles: ["ORG_MEMBER"] });
    expect(wire(sim).filter((l) => l.startsWith("PATCH"))).toEqual([]);
  });

  it("fails naming the org and the key when the org has no such key", async () => {
    await expect(key.create({ orgId: sim.orgId, publicKey: "nosuchkey" })).rejects.toThrow(
      new RegExp(`no API key with public key nosuchkey in organization ${sim.orgId}`),
    );
  });
});

describe("OrgApiKey diff", () => {
  const olds = {
    orgId: "o",
    apiKeyId: "k",
    publicKey: "p",
    desc: "d",
    roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
    restoreOnDelete: false,
  } as never;

  it("roles in another order or repeated are no change", async () => {
    const r = await key.diff("k", olds, {
      orgId: "o",
      apiKeyId: "k",
      roles: ["ORG_READ_ONLY", "ORG_MEMBER", "ORG_MEMBER"],
    } as never);
    expect(r).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("a new desc is an update", async () => {
    const r = await key.diff("k", olds, { orgId: "o", apiKeyId: "k", desc: "new" } as never);
    expect(r).toMatchObject({ changes: true, replaces: [] });
  });

  it("another org, key id or public key is a replacement", async () => {
    expect((await key.diff("k", olds, { orgId: "o2", apiKeyId: "k" } as never)).replaces).toEqual(["orgId"]);
    expect((await key.diff("k", olds, { orgId: "o", apiKeyId: "k2" } as never)).replaces).toEqual([
      "apiKeyId",
    ]);
    expect((await key.diff("k", olds, { orgId: "o", publicKey: "p2" } as never)).replaces).toEqual([
      "publicKey",
    ]);
  });

  it("dropping desc or roles from the program, or declaring one again, is an update, never a replacement", async () => {
    const managing = { ...(olds as object), managed: { desc: true, roles: true, by: "apiKeyId" } } as never;
    const dropped = await key.diff("k", managing, { orgId: "o", apiKeyId: "k", desc: "d" } as never);
    expect(dropped).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const unmanaged = {
      ...(olds as object),
      managed: { desc: false, roles: false, by: "apiKeyId" },
    } as never;
    const again = await key.diff("k", unmanaged, { orgId: "o", apiKeyId: "k", desc: "d" } as never);
    expect(again).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect((await key.diff("k", unmanaged, { orgId: "o", apiKeyId: "k" } as never)).changes).toBe(false);
  });

  it("naming the same key by public key instead of id is no change", async () => {
    expect((await key.diff("k", olds, { orgId: "o", publicKey: "p" } as never)).changes).toBe(false);
  });
});

describe("OrgApiKey update, read and delete", () => {
  it("update sends one PATCH carrying every managed field and returns full outputs", async () => {
    const k = target();
    const created = await key.create({
      orgId: sim.orgId,
      apiKeyId: k.id,
      desc: "before",
      roles: ["ORG_MEMBER"],
    });
    sim.resetRequests();
    const r = await key.update(k.id, created.outs, {
      orgId: sim.orgId,
      apiKeyId: k.id,
      desc: "after",
      roles: ["ORG_MEMBER"],
    });
    expect(wire(sim)).toEqual([`PATCH /orgs/${sim.orgId}/apiKeys/${k.id}`]);
    expect(sim.requests.find((q) => q.status === 200)!.body).toEqual({
      desc: "after",
      roles: ["ORG_MEMBER"],
    });
    expect(r.outs).toMatchObject({
      desc: "after",
      roles: ["ORG_MEMBER"],
      projectRoles: [{ groupId: sim.groupId }],
    });
    expect(Object.values(r.outs).every((v) => v !== undefined)).toBe(true);
  });

  it("read shows drift made outside Pulumi, as outputs and as inputs", async () => {
    const k = target();
    const created = await key.create({
      orgId: sim.orgId,
      apiKeyId: k.id,
      desc: "before",
      roles: ["ORG_MEMBER"],
    });
    sim.state.updateApiKey(k.id, {
      desc: "changed by hand",
      roles: [{ orgId: sim.orgId, roleName: "ORG_OWNER" }],
    });
    // A new process would list again; in one process the listing is shared, so read through a fresh runtime.
    const { configureFor } = await import("./support");
    configureFor(sim);
    const { resetServerMemoryForTests } = await import("../../provider/resources/shared/server-memory");
    resetServerMemoryForTests();
    const r = await key.read(k.id, created.outs);
    expect(r.props).toMatchObject({ desc: "changed by hand", roles: ["ORG_OWNER"] });
    expect(r.inputs).toEqual({
      orgId: sim.orgId,
      apiKeyId: k.id,
      desc: "changed by hand",
      roles: ["ORG_OWNER"],
    });
  });

  it("read of a key no longer listed says it is gone", async () => {
    const k = target();
    const created = await key.create({ orgId: sim.orgId, apiKeyId: k.id });
    sim.state.removeApiKey(k.id);
    // As in `pulumi refresh`: a new process, which lists the org afresh.
    const { resetServerMemoryForTests } = await import("../../provider/resources/shared/server-memory");
    resetServerMemoryForTests();
    const r = await key.read(k.id, created.outs);
    expect(r).toEqual({ id: "", props: {} });
  });

  it("a provider method that throws a TypeError keeps its frames under the message with the resource", async () => {
    const k = target();
    // State whose project roles hold a null, which update reads as a role: a provider bug's TypeError,
    // not an API error.
    const olds = {
      orgId: sim.orgId,
      apiKeyId: k.id,
      publicKey: k.publicKey,
      desc: "d",
      roles: [],
      projectRoles: [null],
    } as never;
    const error = (await key
      .update(k.id, olds, { orgId: sim.orgId, apiKeyId: k.id, desc: "new" })
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(
      new RegExp(`^OrgApiKey \\(API key id ${k.id} in organization ${sim.orgId}\\): `),
    );
    const [head, ...frames] = error.stack!.split("\n");
    expect(head).toBe(`TypeError: ${error.message}`);
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(/^\s+at /);
    // The frames are the original's: the first names the provider function that threw.
    expect(frames[0]).toMatch(/org-api-key\/key-calls\.ts/);
    expect(sim.requests.filter((r) => r.method === "PATCH")).toHaveLength(0);
  });

  it("delete leaves the key as it is by default", async () => {
    const k = target();
    const created = await key.create({ orgId: sim.orgId, apiKeyId: k.id, desc: "managed" });
    sim.resetRequests();
    await key.remove(k.id, created.outs);
    expect(sim.requests).toHaveLength(0);
    expect(sim.state.apiKey(k.id)!.desc).toBe("managed");
  });

  it("delete with restoreOnDelete puts back the adopted desc and roles", async () => {
    const k = target();
    const created = await key.create({
      orgId: sim.orgId,
      apiKeyId: k.id,
      desc: "managed",
      roles: ["ORG_OWNER"],
      restoreOnDelete: true,
    });
    // `pulumi destroy` is a process of its own: it created nothing (a delete after a create of the same
    // key in one process is the old resource's, after its replacement).
    const { resetServerMemoryForTests } = await import("../../provider/resources/shared/server-memory");
    resetServerMemoryForTests();
    await key.remove(k.id, created.outs);
    const after = sim.state.apiKey(k.id)!;
    expect(after.desc).toBe("before");
    expect(after.roles.filter((r) => r.orgId).map((r) => r.roleName)).toEqual(["ORG_MEMBER"]);
    expect(after.roles.filter((r) => r.groupId)).toHaveLength(1);
  });
});

describe("one listing serves many keys", () => {
  it("a failed listing gives each waiting key its own message, naming only that key", async () => {
    const keys = sim.state.apiKeys().slice(0, 8);
    sim.faults.add({ method: "GET", status: 404, errorCode: "ORG_NOT_FOUND", times: 1 });
    const errors = await Promise.all(
      keys.map((k) => key.create({ orgId: sim.orgId, publicKey: k.publicKey }).catch((e: Error) => e)),
    );
    errors.forEach((error, i) => {
      expect(error).toBeInstanceOf(Error);
      const message = (error as Error).message;
      expect(message.match(/OrgApiKey \(/g)).toHaveLength(1);
      expect(message).toContain(`public key ${keys[i]!.publicKey} in organization`);
      expect(message).toMatch(/GET \/orgs\/.*\/apiKeys failed: 404 ORG_NOT_FOUND/);
    });
  });

  it("adopting 10 keys of one org lists the org once", async () => {
    const keys = sim.state.apiKeys().slice(0, 10);
    sim.resetRequests();
    await Promise.all(keys.map((k) => key.create({ orgId: sim.orgId, publicKey: k.publicKey })));
    expect(wire(sim).filter((l) => l.startsWith("GET"))).toHaveLength(1);
  });
});

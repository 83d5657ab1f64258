/**
 * A key's create that loses its answer, through Pulumi's real dynamic-provider host against the deployed
 * server: its POST carried the attempt's mark as the key's desc, so the settling deletes the key with
 * that mark and no other, whoever made keys alike meanwhile (another resource of the deployment, another
 * stack, a person). It says that no key was left behind only when that is proven; when the key may still
 * come (the server never answered), the attempt is recorded in the stack and the next `pulumi up` (a new
 * host: a replacement) or `pulumi destroy` deletes the key with that mark.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Fault } from "../../simulator/types";
import { type Host, type HostCallError, KEY_TYPE, urn } from "../support/host";
import { checkThenCreate, failureOf, pool, simulatorWithHosts } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-alik-4e5f-a6b7-RECOGNIZABLE07";

const world = simulatorWithHosts(PRIVATE_KEY, { seed: { keys: 3 } });
/** A new host is a new `pulumi up`. */
const { handedOut, newHost } = world;

beforeEach(() => {
  world.sim.faults.clear();
  world.sim.resetRequests();
});

/** A key per team, each test's keys all described alike ("CI"), as users do. */
const team = (label: string) =>
  world.fixture.withKey({ orgId: world.sim.orgId, desc: `CI (${label})`, roles: ["ORG_MEMBER"] });

const deletes = () => world.sim.requests.filter((q) => q.method === "DELETE").map((q) => q.path);
const keysWithDescStarting = (desc: string) =>
  world.sim.state.apiKeys(world.sim.orgId).filter((k) => k.desc.startsWith(desc));

async function create(host: Host, name: string, props: ReturnType<typeof team>) {
  const made = await checkThenCreate(host, urn(KEY_TYPE, name), props);
  handedOut.push(made.properties.privateKey as string);
  return made;
}

describe("a lost create beside keys alike", () => {
  it("one after the other: the first key is not deleted, and is named as left alone; no key was left behind", async () => {
    const host = await newHost();
    const props = team("one after the other");
    const first = await create(host, "team-a", props);
    world.sim.faults.add({ method: "POST", status: 500 });
    const error = await failureOf(create(host, "team-b", props));
    expect(deletes()).toEqual([]);
    expect(world.sim.state.apiKey(first.id)?.desc).toBe(props.desc);
    expect(error.message).toContain(
      `One key looks like it but has not this create's desc, so another create or a person made it; it was left as it is: ${first.id} (public key ${first.properties.publicKey}, desc "${props.desc}").`,
    );
    expect(error.message).toContain("No key was left behind.");
    expect(error.partial).toBeUndefined();
  });

  it("at once (the engine's default parallelism): the key the other create made is not deleted, even before its answer is read", async () => {
    const host = await newHost();
    const props = team("at once");
    const second: Fault = { method: "POST", status: 500 };
    world.sim.faults.add({ method: "POST", whenAnswered: () => world.sim.faults.add(second) });
    const results = await pool(["team-a", "team-b"], 2, (name) => create(host, name, props));
    const made = results.filter((r) => r.status === "fulfilled");
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(made).toHaveLength(1);
    expect(failed).toHaveLength(1);
    const id = (made[0] as PromiseFulfilledResult<{ id: string }>).value.id;
    expect(world.sim.state.apiKey(id)).toBeDefined();
    expect(deletes()).toEqual([]);
    const message = (failed[0]!.reason as HostCallError).message;
    expect(message).not.toContain(`The server made API key ${id}`);
    expect(message).toContain("No key was left behind.");
  });

  it("both lose their answers after one made its key: that key alone is deleted, by its mark, and the other create made none", async () => {
    const host = await newHost();
    const props = team("both lost");
    const before = world.sim.state.apiKeys(world.sim.orgId).map((k) => k.id);
    const second: Fault = { method: "POST", status: 500 };
    let madeId = "";
    world.sim.faults.add({
      method: "POST",
      status: 500,
      actThenFail: true,
      whenAnswered: () => {
        madeId = world.sim.state.apiKeys(world.sim.orgId).find((k) => !before.includes(k.id))!.id;
        world.sim.faults.add(second);
      },
    });
    const results = await pool(["team-a", "team-b"], 2, (name) => create(host, name, props));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(deletes()).toEqual([`/api/public/v1.0/orgs/${world.sim.orgId}/apiKeys/${madeId}`]);
    expect(world.sim.state.apiKeys(world.sim.orgId).map((k) => k.id)).toEqual(before);
    const messages = results.map((r) => ((r as PromiseRejectedResult).reason as HostCallError).message);
    expect(messages.filter((m) => m.includes(`The server made API key ${madeId}`))).toHaveLength(1);
    expect(messages.filter((m) => m.includes("The server made no key of this create"))).toHaveLength(1);
  });

  it("a key made by someone else with the declared desc and roles, at the same moment, is named and kept", async () => {
    const host = await newHost();
    const props = team("same moment");
    let lookalike = "";
    world.sim.faults.add({
      method: "POST",
      status: 500,
      whenAnswered: () => {
        lookalike = world.sim.state.addApiKey({
          desc: props.desc as string,
          roles: [{ orgId: world.sim.orgId, roleName: "ORG_MEMBER" }],
        }).id;
      },
    });
    const error = await failureOf(create(host, "someone-else", props));
    expect(deletes()).toEqual([]);
    expect(world.sim.state.apiKey(lookalike)?.desc).toBe(props.desc);
    expect(error.message).toContain(`it was left as it is: ${lookalike} (public key`);
    expect(error.message).toContain("The server made no key of this create");
    world.sim.state.removeApiKey(lookalike);
  });
});

describe("a lost create whose key may still come", () => {
  it("a POST the server never answered: recorded in the stack with its mark; the next `pulumi up` replaces it and deletes the key the server made late, and no other", async () => {
    const host = await newHost({ "opsmanager:timeoutSeconds": "1" });
    const props = team("never answered");
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let acted = () => {};
    const made = new Promise<void>((r) => (acted = r));
    // The server takes the POST, and acts on it only once the client has given up and settled.
    world.sim.faults.add({ method: "POST", holdUntil: held, whenAnswered: () => acted() });
    const error = await failureOf(create(host, "late", props));
    expect(error.message).not.toContain("No key was left behind");
    expect(error.message).toContain("but the server never answered the POST, so it may still make that key.");
    expect(error.message).toContain(
      "The stack records this create: the resource's next `pulumi up` (or `pulumi destroy`) looks for that key by its desc and deletes it, so nothing is left to do by hand.",
    );
    const partial = error.partial!;
    expect(partial.id).toMatch(/^pending-create-[0-9a-f]{16}$/);
    // The provider text is recorded with it, so that the engine's later delete can load the provider.
    expect(partial.properties.__provider).toBe(props.__provider);
    const mark = (partial.properties.pendingCreate as { desc: string }).desc;
    expect(mark).toMatch(/^CI \(never answered\) \[pulumi create [0-9a-f]{16}\]$/);
    expect(partial.properties.apiKeyId).toBe("");
    expect(deletes()).toEqual([]);

    // The server makes the key after all; someone else made a key alike meanwhile.
    release();
    await made;
    const late = keysWithDescStarting(mark);
    expect(late).toHaveLength(1);
    const lookalike = world.sim.state.addApiKey({
      desc: props.desc as string,
      roles: [{ orgId: world.sim.orgId, roleName: "ORG_MEMBER" }],
    });

    // The next `pulumi up`: a refresh leaves the record, the diff is a replacement, a new key is made,
    // then the record's delete deletes the late key by its mark.
    const next = await newHost();
    const stored = partial.properties;
    const refreshed = await next.read(partial.id, urn(KEY_TYPE, "late"), stored);
    expect(refreshed.properties).toEqual(partial.properties);
    const diff = await next.diff(partial.id, urn(KEY_TYPE, "late"), stored, props);
    expect(diff.replaces).toEqual(["apiKeyId"]);
    world.sim.resetRequests();
    const replacement = await create(next, "late", props);
    await next.delete(partial.id, urn(KEY_TYPE, "late"), stored);
    expect(deletes()).toEqual([`/api/public/v1.0/orgs/${world.sim.orgId}/apiKeys/${late[0]!.id}`]);
    expect(world.sim.state.apiKey(late[0]!.id)).toBeUndefined();
    expect(world.sim.state.apiKey(lookalike.id)?.desc).toBe(props.desc);
    expect(world.sim.state.apiKey(replacement.id)?.desc).toBe(props.desc);
    world.sim.state.removeApiKey(lookalike.id);
  });

  it("`pulumi destroy` of a recorded create whose key never came deletes nothing", async () => {
    const host = await newHost({ "opsmanager:timeoutSeconds": "1" });
    const props = team("never came");
    let release = () => {};
    world.sim.faults.add({
      method: "POST",
      holdUntil: new Promise<void>((r) => (release = r)),
      drop: "before",
    });
    const error = await failureOf(create(host, "never", props));
    release();
    const partial = error.partial!;
    expect(partial.id).toMatch(/^pending-create-/);
    world.sim.resetRequests();
    await (await newHost()).delete(partial.id, urn(KEY_TYPE, "never"), partial.properties);
    expect(deletes()).toEqual([]);
    expect(world.sim.requests.map((q) => q.method).filter((m) => m !== "GET")).toEqual([]);
  });

  it("a POST answered 504 by a gateway, the server still at work: not proven, recorded; the key it makes later is deleted by destroy", async () => {
    const host = await newHost();
    const props = team("behind a gateway");
    world.sim.faults.add({ method: "POST", status: 504 });
    const error = await failureOf(create(host, "gateway", props));
    expect(error.message).not.toContain("No key was left behind");
    expect(error.message).toContain("The stack records this create");
    const partial = error.partial!;
    const mark = (partial.properties.pendingCreate as { desc: string }).desc;
    // The server behind the gateway made the key after all.
    const late = world.sim.state.addApiKey({
      desc: mark,
      roles: [{ orgId: world.sim.orgId, roleName: "ORG_MEMBER" }],
    });
    world.sim.resetRequests();
    await (await newHost()).delete(partial.id, urn(KEY_TYPE, "gateway"), partial.properties);
    expect(deletes()).toEqual([`/api/public/v1.0/orgs/${world.sim.orgId}/apiKeys/${late.id}`]);
  });

  it("a record whose desc carries no mark (state edited by hand) deletes nothing, and says why", async () => {
    const host = await newHost();
    const props = team("edited");
    const alike = world.sim.state.addApiKey({
      desc: props.desc as string,
      roles: [{ orgId: world.sim.orgId, roleName: "ORG_MEMBER" }],
    });
    const record = {
      orgId: world.sim.orgId,
      apiKeyId: "",
      publicKey: "",
      desc: props.desc,
      roles: [],
      privateKey: "",
      projectRoles: [],
      restoreOnDelete: false,
      adopted: { desc: "", roles: [] },
      managed: { desc: true, roles: true, by: "created" },
      keepers: {},
      pendingCreate: { desc: props.desc, sentAt: "2026-11-27T21:00:00.000Z" },
      stateVersion: 2,
      __provider: props.__provider,
    };
    world.sim.resetRequests();
    const error = await failureOf(
      host.delete("pending-create-0123456789abcdef", urn(KEY_TYPE, "edited"), record),
    );
    expect(error.message).toContain(
      "carries no create's mark, so no key can be proven to be its own and none is deleted",
    );
    expect(world.sim.requests).toEqual([]);
    expect(world.sim.state.apiKey(alike.id)).toBeDefined();
    world.sim.state.removeApiKey(alike.id);
  });

  it("a POST answered 500 without acting: no key was left behind, proven, and nothing is recorded", async () => {
    const host = await newHost();
    world.sim.faults.add({ method: "POST", status: 500 });
    const error = await failureOf(create(host, "proven", team("proven")));
    expect(error.message).toContain(
      "The server made no key of this create: it answered the POST, and the organization's key listing, read after, has no key with this create's desc",
    );
    expect(error.message).toContain("No key was left behind. `pulumi up` can simply run again.");
    expect(error.partial).toBeUndefined();
  });
});

/**
 * Creates of keys alike (the same desc and roles) in one deployment, through Pulumi's real
 * dynamic-provider host against the deployed server, when one create loses its answer: the settling of
 * that create never deletes a key another resource of the deployment made, whether the creates ran one
 * after the other or at once (the engine's default parallelism), and changes nothing when it cannot tie
 * a key to its own POST alone. It says that no key was left behind only when that is proven.
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

const deletes = () => world.sim.requests.filter((q) => q.method === "DELETE");

async function create(host: Host, name: string, props: ReturnType<typeof team>) {
  const made = await checkThenCreate(host, urn(KEY_TYPE, name), props);
  handedOut.push(made.properties.privateKey as string);
  return made;
}

describe("two keys alike in one deployment, one of whose creates loses its answer", () => {
  it("one after the other: the first key, in state, is not deleted by the second's settling", async () => {
    const host = await newHost();
    const props = team("one after the other");
    const first = await create(host, "team-a", props);
    world.sim.faults.add({ method: "POST", status: 500 });
    const error = await failureOf(create(host, "team-b", props));
    expect(deletes()).toEqual([]);
    expect(world.sim.state.apiKey(first.id)).toBeDefined();
    expect(error.message).not.toContain(first.id);
    expect(error.message).toContain("No key was left behind");
  });

  it("at once (the engine's default parallelism): the key the other create made is not deleted, even before its answer is read", async () => {
    const host = await newHost();
    const props = team("at once");
    // The first POST the server takes makes its key; only then is the second answered 500, without
    // acting: the key alike is on the server when the failed create lists the organization.
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
    expect(message).toContain("No key was left behind");
  });

  it("both lose their answers after one made its key: the key is named by both, and nothing is deleted", async () => {
    const host = await newHost();
    const props = team("both lost");
    const before = world.sim.state.apiKeys(world.sim.orgId).map((k) => k.id);
    const second: Fault = { method: "POST", status: 500 };
    world.sim.faults.add({
      method: "POST",
      status: 500,
      actThenFail: true,
      whenAnswered: () => world.sim.faults.add(second),
    });
    const results = await pool(["team-a", "team-b"], 2, (name) => create(host, name, props));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    const made = world.sim.state.apiKeys(world.sim.orgId).filter((k) => !before.includes(k.id));
    expect(made).toHaveLength(1);
    expect(deletes()).toEqual([]);
    for (const r of results) {
      const message = ((r as PromiseRejectedResult).reason as HostCallError).message;
      expect(message).toContain("cannot be tied to this create alone");
      expect(message).toContain(`${made[0]!.id} (public key ${made[0]!.publicKey}, desc "${props.desc}")`);
      expect(message).toContain(
        "Another create of this deployment with the same desc and roles lost its answer too",
      );
      expect(message).toContain("Nothing was changed");
    }
    world.sim.state.removeApiKey(made[0]!.id);
  });
});

/** An ObjectId made `offsetMs` from now, as a server whose clock is that far from its Date header's would. */
const idMadeAt = (offsetMs: number, tail: string) =>
  `${Math.floor((Date.now() + offsetMs) / 1000)
    .toString(16)
    .padStart(8, "0")}${tail}`;

describe("what a lost create says when the listing has no key alike in its window", () => {
  it("a POST the server never answered (a client timeout): not that no key was left behind, but that it may still be made, and what to check", async () => {
    const host = await newHost({ "opsmanager:timeoutSeconds": "1" });
    const props = team("never answered");
    // The server takes the POST but acts on it only long after the client has given up.
    world.sim.faults.add({ method: "POST", delayMs: 60_000 });
    const error = await failureOf(create(host, "late", props));
    expect(error.message).not.toContain("No key was left behind");
    expect(error.message).toContain(
      "the server never answered the POST, so it may still make the key after that read. Nothing was changed.",
    );
    expect(error.message).toContain(
      `Check the organization's API keys (Ops Manager: Organization, Access Manager, API Keys) for a key with desc "${props.desc}" and roles ORG_MEMBER made around `,
    );
    expect(deletes()).toEqual([]);
  });

  it("a key alike made outside the window (a Date header off by more than the slack) is named, not passed over, and kept", async () => {
    const host = await newHost();
    const props = team("clock off");
    let lookalike = "";
    world.sim.faults.add({
      method: "POST",
      status: 500,
      // The key the POST made, by a server whose clock is ten minutes from what its Date header says.
      whenAnswered: () => {
        lookalike = world.sim.state.addApiKey({
          id: idMadeAt(-600_000, "00000000000000c1"),
          desc: props.desc as string,
          roles: [{ orgId: world.sim.orgId, roleName: "ORG_MEMBER" }],
        }).id;
      },
    });
    const error = await failureOf(create(host, "skewed", props));
    const key = world.sim.state.apiKey(lookalike)!;
    expect(error.message).not.toContain("No key was left behind");
    expect(error.message).toContain(
      `but one key alike was made outside that window: ${lookalike} (public key ${key.publicKey}, desc "${props.desc}"). The window is read from the server's Date header; if that clock (or a proxy's) is off, one of them may be the key this create made. Nothing was changed.`,
    );
    expect(deletes()).toEqual([]);
    expect(world.sim.state.apiKey(lookalike)).toBeDefined();
    world.sim.state.removeApiKey(lookalike);
  });

  it("a POST answered 500, with no key alike listed after: no key was left behind", async () => {
    const host = await newHost();
    world.sim.faults.add({ method: "POST", status: 500 });
    const error = await failureOf(create(host, "proven", team("proven")));
    expect(error.message).toContain(
      "The server made no key of this create: it answered the POST, and the organization's key listing, read after, has no key with",
    );
    expect(error.message).toContain("No key was left behind: `pulumi up` can simply run again.");
  });
});

/**
 * Creates of keys alike (the same desc and roles) in one deployment, through Pulumi's real
 * dynamic-provider host against the deployed server, when one create loses its answer: the settling of
 * that create never deletes a key another resource of the deployment made, whether the creates ran one
 * after the other or at once (the engine's default parallelism), and changes nothing when it cannot tie
 * a key to its own POST alone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Fault, Simulator } from "../../simulator/types";
import { type Host, type HostCallError, KEY_TYPE, urn } from "../support/host";
import {
  checkThenCreate,
  failureOf,
  type ProviderFixture,
  pool,
  providerFixture,
} from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-alik-4e5f-a6b7-RECOGNIZABLE07";

let fixture: ProviderFixture;
let sim: Simulator;
const handedOut: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 3, privateKey: PRIVATE_KEY } });
  fixture = await providerFixture();
});

afterAll(async () => {
  const hosts = [...(fixture?.hosts ?? [])];
  await fixture?.close();
  for (const h of hosts) {
    expect(h.stdout + h.stderr).not.toContain(PRIVATE_KEY);
    for (const secret of handedOut) expect(h.stdout + h.stderr).not.toContain(secret);
  }
  await sim?.close();
});

beforeEach(() => {
  sim.faults.clear();
  sim.resetRequests();
});

/** A new host is a new `pulumi up`. */
const newHost = () =>
  fixture.newHost({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });

/** A key per team, each test's keys all described alike ("CI"), as users do. */
const team = (label: string) =>
  fixture.withKey({ orgId: sim.orgId, desc: `CI (${label})`, roles: ["ORG_MEMBER"] });

const deletes = () => sim.requests.filter((q) => q.method === "DELETE");

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
    sim.faults.add({ method: "POST", status: 500 });
    const error = await failureOf(create(host, "team-b", props));
    expect(deletes()).toEqual([]);
    expect(sim.state.apiKey(first.id)).toBeDefined();
    expect(error.message).not.toContain(first.id);
    expect(error.message).toContain("No key was left behind");
  });

  it("at once (the engine's default parallelism): the key the other create made is not deleted, even before its answer is read", async () => {
    const host = await newHost();
    const props = team("at once");
    // The first POST the server takes makes its key; only then is the second answered 500, without
    // acting: the key alike is on the server when the failed create lists the organization.
    const second: Fault = { method: "POST", status: 500 };
    sim.faults.add({ method: "POST", whenAnswered: () => sim.faults.add(second) });
    const results = await pool(["team-a", "team-b"], 2, (name) => create(host, name, props));
    const made = results.filter((r) => r.status === "fulfilled");
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(made).toHaveLength(1);
    expect(failed).toHaveLength(1);
    const id = (made[0] as PromiseFulfilledResult<{ id: string }>).value.id;
    expect(sim.state.apiKey(id)).toBeDefined();
    expect(deletes()).toEqual([]);
    const message = (failed[0]!.reason as HostCallError).message;
    expect(message).not.toContain(`The server made API key ${id}`);
    expect(message).toContain("No key was left behind");
  });

  it("both lose their answers after one made its key: the key is named by both, and nothing is deleted", async () => {
    const host = await newHost();
    const props = team("both lost");
    const before = sim.state.apiKeys(sim.orgId).map((k) => k.id);
    const second: Fault = { method: "POST", status: 500 };
    sim.faults.add({
      method: "POST",
      status: 500,
      actThenFail: true,
      whenAnswered: () => sim.faults.add(second),
    });
    const results = await pool(["team-a", "team-b"], 2, (name) => create(host, name, props));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    const made = sim.state.apiKeys(sim.orgId).filter((k) => !before.includes(k.id));
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
    sim.state.removeApiKey(made[0]!.id);
  });
});

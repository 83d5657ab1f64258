/**
 * An access-list entry the server spells otherwise than the provider (`2001:0DB8::1` added by hand; the
 * simulator, like a server that keeps what it was given, lists it as `2001:0db8::1`), removed by the
 * program, through Pulumi's real dynamic-provider host: the DELETE names the entry as the server lists
 * it, and a 404 counts as removed only when the list no longer shows the entry.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type Host, KEY_TYPE, type Props, strip, urn } from "../support/host";
import { failureOf, simulatorWithHosts } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-spel-4e5f-a6b7-RECOGNIZABLE07";
const API = "/api/public/v1.0";

const world = simulatorWithHosts(PRIVATE_KEY, { profile: "deployed", seed: { keys: 2 } });
const newHost = world.newHost;

beforeEach(() => world.sim.faults.clear());

const listPath = (keyId: string) => `/orgs/${world.sim.orgId}/apiKeys/${keyId}/accessList`;

/** Access-list requests that reached the API, as `METHOD path status` below the key's list. */
const listCalls = (keyId: string) =>
  world.sim.requests
    .filter((q) => q.authenticated && q.path.startsWith(`${API}${listPath(keyId)}`))
    .map((q) => `${q.method} ${q.path.slice(API.length + listPath(keyId).length) || "/"} ${q.status}`);

/** The entries the server holds for a key, as it spells them. */
const serverList = (keyId: string) =>
  world.sim.state
    .accessList(keyId)
    .map((e) => e.ipAddress ?? e.cidrBlock)
    .sort();

/** A key with `10.0.0.1` and, added by hand in upper case with a leading zero, `2001:0DB8::1`. */
async function keyWithHandEntry(desc: string) {
  const key = world.sim.state.addApiKey({ desc });
  await world.byHand.request({ method: "POST", path: listPath(key.id), body: [{ ipAddress: "10.0.0.1" }] });
  await world.byHand.request({
    method: "POST",
    path: listPath(key.id),
    body: [{ ipAddress: "2001:0DB8::1" }],
  });
  expect(serverList(key.id)).toEqual(["10.0.0.1", "2001:0db8::1"]);
  return key.id;
}

async function adopt(host: Host, name: string, program: Props) {
  const u = urn(KEY_TYPE, name);
  const checked = await host.check(u, {}, world.fixture.withKey(program));
  expect(checked.failures).toEqual([]);
  const created = await host.create(u, checked.inputs);
  return { urn: u, state: strip(created.properties) };
}

describe("an entry the server spells otherwise, removed by the program", () => {
  it("at adoption: the DELETE names it as the list read just before spells it, with no other request", async () => {
    const id = await keyWithHandEntry("spelt by hand, adopted");
    const host = await newHost();
    world.sim.resetRequests();
    const { state } = await adopt(host, "adopt-spelt", {
      orgId: world.sim.orgId,
      apiKeyId: id,
      accessList: ["10.0.0.1"],
    });
    expect(listCalls(id)).toEqual(["GET / 200", "DELETE /2001:0db8::1 200"]);
    expect(serverList(id)).toEqual(["10.0.0.1"]);
    expect(state.accessList).toEqual(["10.0.0.1"]);
  });

  it("at an update from state: the 404 to the provider's spelling is checked against the list, and the entry removed by the server's", async () => {
    const id = world.sim.state.addApiKey({ desc: "spelt by hand, updated" }).id;
    const host = await newHost();
    const program = { orgId: world.sim.orgId, apiKeyId: id, accessList: ["10.0.0.1"] };
    const { urn: u } = await adopt(host, "update-spelt", program);
    await world.byHand.request({ method: "POST", path: listPath(id), body: [{ ipAddress: "2001:0DB8::1" }] });
    // `pulumi refresh` records the entry added by hand, in the provider's spelling.
    const read = await (await newHost()).read(
      id,
      u,
      world.fixture.withKey({ ...program, accessList: ["10.0.0.1"] }),
    );
    expect(read.properties.accessList).toEqual(["10.0.0.1", "2001:db8::1"]);
    const up = await newHost();
    world.sim.resetRequests();
    const updated = await up.update(
      id,
      u,
      world.fixture.withKey(strip(read.properties)),
      world.fixture.withKey(program),
    );
    expect(listCalls(id)).toEqual(["DELETE /2001:db8::1 404", "GET / 200", "DELETE /2001:0db8::1 200"]);
    expect(serverList(id)).toEqual(["10.0.0.1"]);
    expect(updated.properties.accessList).toEqual(["10.0.0.1"]);
  });

  it("a 404 while the list still shows the entry is a failure that says so, never a removal", async () => {
    const id = await keyWithHandEntry("spelt by hand, refused");
    const host = await newHost();
    world.sim.faults.add({
      method: "DELETE",
      status: 404,
      errorCode: "API_KEY_ACCESS_LIST_NOT_FOUND",
      times: 2,
    });
    world.sim.resetRequests();
    const error = await failureOf(
      adopt(host, "refused-spelt", { orgId: world.sim.orgId, apiKeyId: id, accessList: ["10.0.0.1"] }),
    );
    expect(listCalls(id)).toEqual(["GET / 200", "DELETE /2001:0db8::1 404", "GET / 200"]);
    expect(error.message).toContain(
      "removing 2001:db8::1 from its access list: the server answered 404 to DELETE …/accessList/2001:0db8::1, yet its list still shows the entry (spelled 2001:0db8::1). The entry is still on the list.",
    );
    expect(error.message).toContain("then run `pulumi refresh` and `pulumi up`");
    expect(serverList(id)).toEqual(["10.0.0.1", "2001:0db8::1"]);
  });
});

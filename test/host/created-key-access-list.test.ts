/**
 * A key that OrgApiKey creates, given an access list, through Pulumi's real dynamic-provider host
 * against the deployed server: the create is one POST for the key and one POST for its whole list,
 * a refresh reads the list beside the shared key listing and keeps the private key, destroy is one
 * DELETE (the list goes with the key), and a list the server refuses leaves no key behind.
 */
import { describe, expect, it } from "vitest";
import { type HostCallError, KEY_TYPE, strip, urn } from "../support/host";
import { checkThenCreate, simulatorWithHosts } from "../support/provider-fixture";

const PRIVATE_KEY = "6f1d2c3b-cacl-4e5f-a6b7-RECOGNIZABLE07";
const API = "/api/public/v1.0";

const world = simulatorWithHosts(PRIVATE_KEY, { profile: "deployed", seed: { keys: 3 } });
const { handedOut, newHost } = world;

/** The requests since the last reset: `challenge`, or `METHOD path status` below the API root. */
const wire = () =>
  world.sim.requests.map((q) =>
    q.authenticated ? `${q.method} ${q.path.slice(API.length)} ${q.status}` : "challenge",
  );

const keysPath = () => `/orgs/${world.sim.orgId}/apiKeys`;

describe("a created key with an access list", () => {
  it("is one POST for the key, one PATCH of its declared desc and one POST for its whole list; refresh reads the list and keeps the private key; destroy is one DELETE", async () => {
    const host = await newHost();
    const keyUrn = urn(KEY_TYPE, "ci");
    const program = {
      orgId: world.sim.orgId,
      desc: "ci key with a list",
      roles: ["ORG_MEMBER"],
      accessList: ["10.1.0.0/16", "192.0.2.7/32", "2001:db8::1"],
    };
    world.sim.resetRequests();
    const created = await checkThenCreate(host, keyUrn, world.fixture.withKey(program));
    const id = created.id;
    handedOut.push(created.properties.privateKey as string);
    expect(wire()).toEqual([
      "challenge",
      `POST ${keysPath()} 200`,
      `PATCH ${keysPath()}/${id} 200`,
      `POST ${keysPath()}/${id}/accessList 200`,
    ]);
    expect(world.sim.requests[3]!.body).toEqual([
      { cidrBlock: "10.1.0.0/16" },
      { ipAddress: "192.0.2.7" },
      { ipAddress: "2001:db8::1" },
    ]);
    const state = strip(created.properties);
    expect(state).toMatchObject({
      apiKeyId: id,
      privateKey: world.sim.state.apiKey(id)!.privateKey,
      managed: { desc: true, roles: true, by: "created" },
      accessList: ["10.1.0.0/16", "192.0.2.7", "2001:db8::1"],
    });
    expect((state.accessListEntries as { entry: string }[]).map((e) => e.entry)).toEqual(state.accessList);

    // Refresh in a new deployment: the shared key listing, the key's list, one challenge.
    const refresh = await newHost();
    world.sim.resetRequests();
    const read = await refresh.read(id, keyUrn, world.fixture.withKey(state));
    expect(wire()).toEqual(["challenge", `GET ${keysPath()} 200`, `GET ${keysPath()}/${id}/accessList 200`]);
    expect(strip(read.properties)).toMatchObject({
      privateKey: state.privateKey,
      accessList: state.accessList,
    });
    expect(strip(read.inputs!)).toEqual({
      orgId: world.sim.orgId,
      desc: program.desc,
      roles: program.roles,
      accessList: state.accessList,
    });
    world.sim.resetRequests();
    const checked = await refresh.check(
      keyUrn,
      world.fixture.withKey(program),
      world.fixture.withKey(program),
    );
    const same = await refresh.diff(id, keyUrn, read.properties, checked.inputs);
    expect(same.changes).toBe("DIFF_NONE");
    expect(world.sim.requests).toEqual([]);

    const destroy = await newHost();
    world.sim.resetRequests();
    await destroy.delete(id, keyUrn, read.properties);
    expect(wire()).toEqual(["challenge", `DELETE ${keysPath()}/${id} 200`]);
    expect(world.sim.state.apiKey(id)).toBeUndefined();
  });

  it("a list the server refuses fails the create and deletes the key it made, so none is left behind", async () => {
    const host = await newHost();
    const before = world.sim.state.apiKeys(world.sim.orgId).map((k) => k.id);
    world.sim.faults.add({
      method: "POST",
      pathPrefix: `${keysPath()}/`,
      status: 400,
      errorCode: "INVALID_ATTRIBUTE",
    });
    world.sim.resetRequests();
    const error = await checkThenCreate(
      host,
      urn(KEY_TYPE, "refused-list"),
      world.fixture.withKey({
        orgId: world.sim.orgId,
        desc: "refused list",
        roles: ["ORG_MEMBER"],
        accessList: ["192.0.2.9"],
      }),
    ).then(
      () => undefined,
      (e: HostCallError) => e,
    );
    world.sim.faults.clear();
    // The key made is known by its list's path: the create never returned it.
    const listPost = world.sim.requests.find((q) => q.method === "POST" && q.path.endsWith("/accessList"));
    const madeId = listPost?.path.split("/").at(-2);
    expect(madeId).toMatch(/^[0-9a-f]{24}$/);
    const calls = wire().map((c) => (madeId === undefined ? c : c.replaceAll(madeId, "{made}")));
    expect(calls).toEqual([
      "challenge",
      `POST ${keysPath()} 200`,
      `PATCH ${keysPath()}/{made} 200`,
      `POST ${keysPath()}/{made}/accessList 400`,
      `DELETE ${keysPath()}/{made} 200`,
    ]);
    expect(error?.message).toMatch(
      /POST \/orgs\/\w+\/apiKeys\/\w+\/accessList failed: 400 INVALID_ATTRIBUTE/,
    );
    expect(error?.message).toMatch(/The key it made \(id \w{24}\) was deleted, so none is left behind/);
    expect(world.sim.state.apiKeys(world.sim.orgId).map((k) => k.id)).toEqual(before);
  });
});

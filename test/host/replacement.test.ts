/**
 * A replacement that manages the same key (OrgApiKey) or the same key in the same project
 * (ApiKeyProjectAssignment): a resource renamed without an alias, or `pulumi up --replace`. The engine
 * creates the replacement, then deletes the old resource, in one host process; a destroy is a process
 * of its own. Through Pulumi's real dynamic-provider host: the old resource's delete leaves the
 * replacement's declared values applied, and, when the run has read the old resource's state first
 * (`pulumi up --refresh`), the replacement carries what existed before the program managed it, which a
 * later destroy puts back.
 */
import { createRequire } from "node:module";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Host, KEY_TYPE, type Props, strip, urn } from "../support/host";
import { simulatorWithHosts } from "../support/provider-fixture";

const req = createRequire(__filename);
const { API_KEY_PROJECT_ASSIGNMENT_PROVIDER } = req("../../dist/provider/resources/shared/providers.js");

const ASSIGNMENT_TYPE = "pulumi-nodejs:dynamic/opsmanager:ApiKeyProjectAssignment";
const PRIVATE_KEY = "6f1d2c3b-repl-4e5f-a6b7-RECOGNIZABLE07";
const API = "/api/public/v1.0";

const world = simulatorWithHosts(PRIVATE_KEY, { seed: { keys: 2 } });
/** A new host is a new `pulumi up`, `pulumi refresh` or `pulumi destroy`. */
const { newHost } = world;
let assignmentText: string;

beforeAll(async () => {
  assignmentText = API_KEY_PROJECT_ASSIGNMENT_PROVIDER;
});

beforeEach(() => world.sim.resetRequests());

const withAssignment = (props: Props): Props => ({ ...props, __provider: assignmentText });

/** The requests past authentication since the last reset, as `METHOD path status`. */
const calls = () =>
  world.sim.requests
    .filter((q) => q.authenticated)
    .map((q) => `${q.method} ${q.path.slice(API.length)} ${q.status}`);

/** Check then Create, as the engine does for a new resource; the state as recorded, with its provider. */
async function created(host: Host, resourceUrn: string, inputs: Props) {
  const checked = await host.check(resourceUrn, {}, inputs);
  expect(checked.failures).toEqual([]);
  const made = await host.create(resourceUrn, checked.inputs);
  const state: Props = { ...strip(made.properties), __provider: inputs.__provider };
  return { urn: resourceUrn, id: made.id, state };
}

const orgRoles = (keyId: string) =>
  world.sim.state
    .apiKey(keyId)!
    .roles.filter((r) => r.orgId !== undefined)
    .map((r) => r.roleName)
    .sort();
const rolesIn = (groupId: string, keyId: string) =>
  world.sim.state
    .apiKey(keyId)!
    .roles.filter((r) => r.groupId === groupId)
    .map((r) => r.roleName)
    .sort();

describe("an OrgApiKey replaced by one adopting the same key", () => {
  /** A key described "original" with ORG_READ_ONLY, adopted by a first `pulumi up` that declares other values. */
  async function adoptedKey(name: string) {
    const key = world.sim.state.addApiKey({
      desc: "original",
      roles: [{ orgId: world.sim.orgId, roleName: "ORG_READ_ONLY" }],
    });
    const declared = world.fixture.withKey({
      orgId: world.sim.orgId,
      apiKeyId: key.id,
      desc: "managed by Pulumi",
      roles: ["ORG_MEMBER"],
      restoreOnDelete: true,
    });
    const old = await created(await newHost(), urn(KEY_TYPE, name), declared);
    expect(world.sim.state.apiKey(key.id)!.desc).toBe("managed by Pulumi");
    return { key, declared, old };
  }

  it("create then delete (rename without an alias): the old resource's delete does not undo the replacement", async () => {
    const { key, declared, old } = await adoptedKey("renamed-key");
    const up = await newHost();
    world.sim.resetRequests();
    await created(up, urn(KEY_TYPE, "renamed-key-2"), declared);
    await up.delete(old.id, old.urn, old.state);
    expect(calls().filter((c) => c.startsWith("PATCH"))).toEqual([]);
    expect(world.sim.state.apiKey(key.id)!.desc).toBe("managed by Pulumi");
    expect(orgRoles(key.id)).toEqual(["ORG_MEMBER"]);
  });

  it("with the old state read first in the run (pulumi up --refresh --replace): the replacement carries the original, which destroy puts back", async () => {
    const { key, declared, old } = await adoptedKey("replaced-key");
    const up = await newHost();
    const refreshed = await up.read(old.id, old.urn, old.state);
    const next = await created(up, old.urn, declared);
    await up.delete(old.id, old.urn, world.fixture.withKey(strip(refreshed.properties)));
    expect(next.state.adopted).toEqual({ desc: "original", roles: ["ORG_READ_ONLY"] });
    expect(world.sim.state.apiKey(key.id)!.desc).toBe("managed by Pulumi");
    expect(orgRoles(key.id)).toEqual(["ORG_MEMBER"]);
    world.sim.resetRequests();
    await (await newHost()).delete(next.id, next.urn, next.state);
    expect(calls()).toEqual([`PATCH /orgs/${world.sim.orgId}/apiKeys/${key.id} 200`]);
    expect(world.sim.state.apiKey(key.id)!.desc).toBe("original");
    expect(orgRoles(key.id)).toEqual(["ORG_READ_ONLY"]);
  });
});

/**
 * A project `group` holding a new key as `GROUP_READ_ONLY` (what existed before the program), and an
 * assignment that declares it `GROUP_OWNER` and restores on delete.
 */
function keyReadOnlyIn(group: string) {
  world.sim.state.addGroup(group);
  const key = world.sim.state.addApiKey({
    roles: [
      { orgId: world.sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: group, roleName: "GROUP_READ_ONLY" },
    ],
  });
  const declared = withAssignment({
    apiKeyId: key.id,
    groupId: group,
    roles: ["GROUP_OWNER"],
    restoreOnDelete: true,
  });
  return { key, declared };
}

describe("an ApiKeyProjectAssignment replaced by one of the same key in the same project", () => {
  it("with the old state read first in the run (pulumi up --refresh --replace): the replacement carries the roles the key had before, which destroy puts back", async () => {
    const group = "5f00000000000000000b0001";
    const { key, declared } = keyReadOnlyIn(group);
    const assignmentUrn = urn(ASSIGNMENT_TYPE, "replaced");
    const old = await created(await newHost(), assignmentUrn, declared);
    expect(old.state.previous).toEqual({ recorded: true, roles: ["GROUP_READ_ONLY"] });
    expect(rolesIn(group, key.id)).toEqual(["GROUP_OWNER"]);

    const up = await newHost();
    const refreshed = await up.read(old.id, assignmentUrn, old.state);
    const next = await created(up, assignmentUrn, declared);
    world.sim.resetRequests();
    await up.delete(old.id, assignmentUrn, withAssignment(strip(refreshed.properties)));
    // The old resource's delete leaves the replacement's roles as they are.
    expect(calls()).toEqual([]);
    expect(next.state.previous).toEqual({ recorded: true, roles: ["GROUP_READ_ONLY"] });
    expect(rolesIn(group, key.id)).toEqual(["GROUP_OWNER"]);

    world.sim.resetRequests();
    await (await newHost()).delete(next.id, assignmentUrn, next.state);
    expect(calls()).toEqual([`PATCH /groups/${group}/apiKeys/${key.id} 200`]);
    expect(rolesIn(group, key.id)).toEqual(["GROUP_READ_ONLY"]);
  });

  it("pulumi up --replace in the order the resource registers with restoreOnDelete (delete first): the old restore, then the replacement records the original, which destroy puts back", async () => {
    const group = "5f00000000000000000b0002";
    const { key, declared } = keyReadOnlyIn(group);
    const assignmentUrn = urn(ASSIGNMENT_TYPE, "replaced-first");
    const old = await created(await newHost(), assignmentUrn, declared);
    const up = await newHost();
    world.sim.resetRequests();
    await up.delete(old.id, assignmentUrn, old.state);
    const next = await created(up, assignmentUrn, declared);
    expect(calls()).toEqual([
      `PATCH /groups/${group}/apiKeys/${key.id} 200`,
      `PATCH /groups/${group}/apiKeys/${key.id} 200`,
    ]);
    expect(next.state.previous).toEqual({ recorded: true, roles: ["GROUP_READ_ONLY"] });
    expect(rolesIn(group, key.id)).toEqual(["GROUP_OWNER"]);
    await (await newHost()).delete(next.id, assignmentUrn, next.state);
    expect(rolesIn(group, key.id)).toEqual(["GROUP_READ_ONLY"]);
  });
});

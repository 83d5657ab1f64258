/**
 * A project's API keys through api/project-api-keys.ts, over real HTTP with digest authentication,
 * against the simulator's deployed profile: the listing read whole (every page, each key once, its
 * roles), the PATCH that assigns or sets roles (200 with the key or 204 without a body, read neither),
 * the DELETE that unassigns, and every refusal told in this API's terms.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isApiKeyGone } from "../../provider/api/api-key-gone";
import { AuthorizationError } from "../../provider/api/authorization-error";
import { InputError } from "../../provider/api/input-error";
import { readListingByPage, readListingPage } from "../../provider/api/listing-pages";
import {
  assignProjectApiKey,
  projectApiKeyListing,
  unassignProjectApiKey,
} from "../../provider/api/project-api-keys";
import type { Role } from "../../provider/api/types";
import { HttpClient } from "../../provider/client";
import { ApiError } from "../../provider/client/errors";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";

const GROUP = "5f00000000000000000000b1";

let sim: Simulator;
let quiet: Simulator;
const clients: HttpClient[] = [];

function clientOf(
  server: Simulator,
  credentials = { username: server.publicKey, password: server.privateKey },
) {
  const client = new HttpClient({ baseUrl: server.apiRoot, ...credentials, retry: { baseDelayMs: 1 } });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  [sim, quiet] = await Promise.all([
    startSimulator({ seed: { keys: 0 } }),
    startSimulator({ seed: { keys: 0 }, projectKeyAssignAnswer: "noContent" }),
  ]);
  sim.state.addGroup(GROUP);
  quiet.state.addGroup(GROUP);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([sim?.close(), quiet?.close()]);
});
beforeEach(() => {
  sim.faults.clear();
  sim.resetRequests();
  quiet.resetRequests();
});

const served = (server: Simulator) =>
  server.requests
    .filter((r) => r.authenticated)
    .map((r) => [r.method, r.path.replace(/^\/api\/public\/v1\.0/, ""), r.status]);

describe("a project's key listing", () => {
  it("reads every page once, each key once, with its roles in every project", async () => {
    const other = "5f00000000000000000000b2";
    sim.state.addGroup(other);
    const assigned = sim.state.addApiKeys(7).map((k, i) =>
      sim.state.updateApiKey(k.id, {
        roles: [
          ...k.roles,
          { groupId: GROUP, roleName: i % 2 === 0 ? "GROUP_READ_ONLY" : "GROUP_OWNER" },
          { groupId: other, roleName: "GROUP_OWNER" },
        ],
      }),
    );
    sim.state.addApiKeys(3);
    const client = clientOf(sim);
    sim.resetRequests();
    const seen: string[] = [];
    const roles = new Map<string, Role[]>();
    await readListingByPage(
      client,
      projectApiKeyListing(GROUP),
      (keys) => {
        for (const k of keys) {
          seen.push(k.id);
          roles.set(k.id, k.key().roles);
        }
      },
      { itemsPerPage: 3 },
    );
    expect(seen.sort()).toEqual(assigned.map((k) => k.id).sort());
    expect(roles.get(assigned[1]!.id)).toEqual(
      expect.arrayContaining([{ groupId: GROUP, roleName: "GROUP_OWNER" }]),
    );
    expect(served(sim).map(([m, p]) => `${m} ${p}`)).toEqual(Array(3).fill(`GET /groups/${GROUP}/apiKeys`));
    expect(
      sim.requests
        .filter((r) => r.authenticated)
        .map((r) => r.query.pageNum)
        .sort(),
    ).toEqual(["1", "2", "3"]);
    // The private key is redacted on every listed key, as everywhere else.
    await expect(
      readListingPage(client, projectApiKeyListing(GROUP)).then((p) =>
        p.results.map((k) => k.key().privateKey),
      ),
    ).resolves.toEqual(assigned.map(() => expect.stringMatching(/^\*{8}-\*{4}-\*{4}-/)));
  });

  it("a project the server does not know fails naming groupId", async () => {
    const error = await readListingPage(
      clientOf(sim),
      projectApiKeyListing("5f00000000000000000000bf"),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(
      /^GET \/groups\/5f00000000000000000000bf\/apiKeys failed: 404 GROUP_NOT_FOUND — .*check groupId "5f00000000000000000000bf"/,
    );
  });
});

describe("assigning and unassigning a key", () => {
  it("a PATCH carries the whole set of roles and takes the key's answer (200) without reading it", async () => {
    const key = sim.state.addApiKey({});
    await assignProjectApiKey(clientOf(sim), GROUP, key.id, ["GROUP_READ_ONLY", "GROUP_OWNER"]);
    expect(sim.requests.filter((r) => r.authenticated).map((r) => [r.method, r.body, r.status])).toEqual([
      ["PATCH", { roles: ["GROUP_READ_ONLY", "GROUP_OWNER"] }, 200],
    ]);
    await assignProjectApiKey(clientOf(sim), GROUP, key.id, ["GROUP_BACKUP_ADMIN"]);
    expect(sim.state.apiKey(key.id)!.roles.filter((r) => r.groupId === GROUP)).toEqual([
      { groupId: GROUP, roleName: "GROUP_BACKUP_ADMIN" },
    ]);
  });

  it("a 204 without a body (older servers) is success too", async () => {
    const key = quiet.state.addApiKey({});
    await assignProjectApiKey(clientOf(quiet), GROUP, key.id, ["GROUP_OWNER"]);
    expect(served(quiet)).toEqual([["PATCH", `/groups/${GROUP}/apiKeys/${key.id}`, 204]]);
    expect(quiet.state.apiKey(key.id)!.roles).toContainEqual({ groupId: GROUP, roleName: "GROUP_OWNER" });
  });

  it("a DELETE unassigns; a key not assigned, or gone, is API_KEY_NOT_FOUND, which isApiKeyGone reads", async () => {
    const key = sim.state.addApiKey({});
    sim.state.updateApiKey(key.id, { roles: [...key.roles, { groupId: GROUP, roleName: "GROUP_OWNER" }] });
    const client = clientOf(sim);
    await unassignProjectApiKey(client, GROUP, key.id);
    expect(sim.state.apiKey(key.id)!.roles.some((r) => r.groupId === GROUP)).toBe(false);
    const again = await unassignProjectApiKey(client, GROUP, key.id).catch((e: unknown) => e);
    expect(isApiKeyGone(again)).toBe(true);
    expect((again as Error).message).toContain(`check apiKeyId "${key.id}"`);
    expect(served(sim).map(([m, , s]) => `${m} ${s}`)).toEqual(["DELETE 200", "DELETE 400"]);
  });

  it("a bad project id, key id or role is refused before anything is sent", async () => {
    const client = clientOf(sim);
    const key = "5f00000000000000000000c1";
    for (const attempt of [
      () => assignProjectApiKey(client, "not-a-project", key, ["GROUP_OWNER"]),
      () => assignProjectApiKey(client, GROUP, "../orgs", ["GROUP_OWNER"]),
      () => assignProjectApiKey(client, GROUP, key, []),
      () => assignProjectApiKey(client, GROUP, key, ["ORG_OWNER" as never]),
      () => unassignProjectApiKey(client, GROUP, "5f00%2F"),
      async () => readListingPage(client, projectApiKeyListing("5f00/../orgs")),
      () => readListingPage(client, projectApiKeyListing(GROUP), { itemsPerPage: 501 }),
    ]) {
      await expect(attempt()).rejects.toBeInstanceOf(InputError);
    }
    expect(sim.requests).toHaveLength(0);
  });

  it("a key without Project Owner is refused with the role the operation needs, and nothing changes", async () => {
    const target = sim.state.addApiKey({});
    const reader = sim.state.addApiKey({ roles: [{ groupId: GROUP, roleName: "GROUP_READ_ONLY" }] });
    const client = clientOf(sim, { username: reader.publicKey, password: reader.privateKey });
    const error = await assignProjectApiKey(client, GROUP, target.id, ["GROUP_OWNER"]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^PATCH /groups/${GROUP}/apiKeys/${target.id} failed: 401 USER_UNAUTHORIZED — .*assigning an API key to a project or setting its roles there needs the Project Owner \\(GROUP_OWNER\\) or Project User Admin \\(GROUP_USER_ADMIN\\) role in project ${GROUP}`,
      ),
    );
    expect(sim.state.apiKey(target.id)!.roles.some((r) => r.groupId === GROUP)).toBe(false);
    // Its project role is enough to list the project's keys.
    await expect(readListingPage(client, projectApiKeyListing(GROUP))).resolves.toMatchObject({
      totalCount: expect.any(Number),
    });
  });
});

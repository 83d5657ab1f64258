/**
 * An organization API key's whole life in the simulator's `deployed` profile, as the Ops Manager
 * documentation, its error table and MongoDB's Go client show it: create (the one answer with the
 * whole private key), get one, delete, assignment to projects and unassignment, the limit of keys per
 * organization; a request log that never holds a private key; a state file that keeps it all and still
 * reads the files of the version before. In the `spec` profile, none of it: answered as a server
 * without those routes answers. The access list is in ./api-key-access-list.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpClient } from "../../provider/client";
import { ApiError } from "../../provider/client/errors";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";

let sim: Simulator;
let client: HttpClient;

beforeAll(async () => {
  sim = await startSimulator();
  client = new HttpClient({ baseUrl: sim.apiRoot, username: sim.publicKey, password: sim.privateKey });
});
afterAll(async () => {
  await client?.close();
  await sim?.close();
});
beforeEach(() => sim.resetRequests());

interface KeyBody {
  id: string;
  desc: string;
  privateKey: string;
  publicKey: string;
  roles: { orgId?: string; groupId?: string; roleName: string }[];
  links: { href: string; rel: string }[];
}

const keysPath = () => `/orgs/${sim.orgId}/apiKeys`;
const projectKeysPath = () => `/groups/${sim.groupId}/apiKeys`;

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function createKey(body: unknown = { desc: "ci deployer", roles: ["ORG_MEMBER"] }) {
  return client.request({ method: "POST", path: keysPath(), body });
}

async function refusalOf(method: "POST" | "PATCH" | "DELETE" | "GET", relPath: string, body?: unknown) {
  const error = await failure(client.request({ method, path: relPath, body }));
  return [error.status, error.errorCode];
}

describe("creating a key", () => {
  it("answers 200 with the whole private key once; every later read shows it redacted", async () => {
    const created = await createKey({ desc: "ci deployer", roles: ["ORG_MEMBER", "ORG_READ_ONLY"] });
    expect(created.status).toBe(200);
    const key = created.body as KeyBody;
    expect(key).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      desc: "ci deployer",
      privateKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      publicKey: expect.stringMatching(/^[a-z]{8}$/),
      roles: [
        { orgId: sim.orgId, roleName: "ORG_MEMBER" },
        { orgId: sim.orgId, roleName: "ORG_READ_ONLY" },
      ],
      links: [{ href: `${sim.apiRoot}${keysPath()}/${key.id}`, rel: "self" }],
    });
    expect(sim.state.apiKey(key.id)?.privateKey).toBe(key.privateKey);
    const redacted = `********-****-****-${key.privateKey.slice(-12)}`;
    const one = (await client.request({ method: "GET", path: `${keysPath()}/${key.id}` })).body as KeyBody;
    expect(one).toEqual({ ...key, privateKey: redacted });
    const listed = (await client.request({ method: "GET", path: keysPath() })).body as { results: KeyBody[] };
    expect(listed.results.find((k) => k.id === key.id)?.privateKey).toBe(redacted);
  });

  it("gives a created key an ObjectId whose first 8 hex digits are its creation time in seconds", async () => {
    const before = Math.floor(Date.now() / 1000);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(((await createKey()).body as KeyBody).id);
    const after = Math.floor(Date.now() / 1000);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      const seconds = Number.parseInt(id.slice(0, 8), 16);
      expect(seconds).toBeGreaterThanOrEqual(before);
      expect(seconds).toBeLessThanOrEqual(after);
    }
  });

  it("a new key's credentials authenticate at once, with the roles it was given", async () => {
    const key = (await createKey({ desc: "reader", roles: ["ORG_READ_ONLY"] })).body as KeyBody;
    const reader = new HttpClient({
      baseUrl: sim.apiRoot,
      username: key.publicKey,
      password: key.privateKey,
    });
    try {
      const listed = await reader.request({ method: "GET", path: keysPath() });
      expect(listed.status).toBe(200);
      const refused = await failure(
        reader.request({ method: "POST", path: keysPath(), body: { desc: "x", roles: ["ORG_OWNER"] } }),
      );
      expect([refused.status, refused.errorCode]).toEqual([401, "USER_UNAUTHORIZED"]);
    } finally {
      await reader.close();
    }
  });

  it("desc and roles are both required, desc is 1 to 250 characters, roles are organization roles", async () => {
    const count = sim.state.apiKeys(sim.orgId).length;
    const refused = async (body: unknown) => {
      const error = await failure(createKey(body));
      return [error.status, error.errorCode, error.parameters];
    };
    expect(await refused({ roles: ["ORG_MEMBER"] })).toEqual([400, "MISSING_ATTRIBUTE", ["desc"]]);
    expect(await refused({ desc: "no roles" })).toEqual([400, "MISSING_ATTRIBUTE", ["roles"]]);
    expect(await refused({ desc: "", roles: ["ORG_MEMBER"] })).toEqual([400, "INVALID_ATTRIBUTE", ["desc"]]);
    expect(await refused({ desc: "d".repeat(251), roles: ["ORG_MEMBER"] })).toEqual([
      400,
      "INVALID_ATTRIBUTE",
      ["desc"],
    ]);
    expect(await refused({ desc: "none", roles: [] })).toEqual([400, "INVALID_ATTRIBUTE", ["roles"]]);
    expect(await refused({ desc: "project", roles: ["GROUP_OWNER"] })).toEqual([
      400,
      "INVALID_ATTRIBUTE",
      ["roles"],
    ]);
    expect(await refused({ desc: "bad", roles: ["ORG_EMPEROR"] })).toEqual([
      400,
      "INVALID_ENUM_VALUE",
      ["ORG_EMPEROR", "roles"],
    ]);
    expect(await refused({ desc: "x", roles: ["ORG_MEMBER"], privateKey: "mine" })).toEqual([
      400,
      "INVALID_ATTRIBUTE",
      ["privateKey"],
    ]);
    expect(await refused(["ORG_MEMBER"])).toEqual([400, "INVALID_JSON", []]);
    const long = await createKey({ desc: "d".repeat(250), roles: ["ORG_MEMBER", "ORG_MEMBER"] });
    expect((long.body as KeyBody).roles).toEqual([{ orgId: sim.orgId, roleName: "ORG_MEMBER" }]);
    expect(sim.state.apiKeys(sim.orgId)).toHaveLength(count + 1);
  });

  it("an organization holds at most 500 keys: the 501st is refused 400 and not created", async () => {
    const org = "5f00000000000000000000c1";
    sim.state.addApiKeys(499, org);
    const path500 = `/orgs/${org}/apiKeys`;
    expect(
      (
        await client.request({
          method: "POST",
          path: path500,
          body: { desc: "500th", roles: ["ORG_MEMBER"] },
        })
      ).status,
    ).toBe(200);
    const error = await failure(
      client.request({ method: "POST", path: path500, body: { desc: "501st", roles: ["ORG_MEMBER"] } }),
    );
    expect([error.status, error.errorCode, error.parameters]).toEqual([
      400,
      "MAX_API_KEYS_PER_ORG_EXCEEDED",
      [500, org],
    ]);
    expect(sim.state.apiKeys(org)).toHaveLength(500);
  });

  it("an unknown organization is 404 ORG_NOT_FOUND", async () => {
    expect(
      await refusalOf("POST", "/orgs/5f00000000000000000000c9/apiKeys", { desc: "x", roles: ["ORG_MEMBER"] }),
    ).toEqual([404, "ORG_NOT_FOUND"]);
  });
});

describe("reading and deleting one key", () => {
  it("a key that is not there, or is another organization's, is 400 API_KEY_NOT_FOUND, as the error table has it", async () => {
    const other = sim.state.addApiKey({ orgId: "5f00000000000000000000c2" });
    for (const id of ["5f00000000000000000000ff", other.id]) {
      expect(await refusalOf("GET", `${keysPath()}/${id}`)).toEqual([400, "API_KEY_NOT_FOUND"]);
      expect(await refusalOf("DELETE", `${keysPath()}/${id}`)).toEqual([400, "API_KEY_NOT_FOUND"]);
    }
    expect(sim.state.apiKey(other.id)).toBeDefined();
  });

  it("a delete answers 200 without a body and takes the key's project assignments and access list with it", async () => {
    const key = (await createKey()).body as KeyBody;
    await client.request({
      method: "PATCH",
      path: `${projectKeysPath()}/${key.id}`,
      body: { roles: ["GROUP_READ_ONLY"] },
    });
    await client.request({
      method: "POST",
      path: `${keysPath()}/${key.id}/accessList`,
      body: [{ ipAddress: "198.51.100.7" }],
    });
    expect(sim.state.accessList(key.id)).toHaveLength(1);
    const deleted = await client.request({ method: "DELETE", path: `${keysPath()}/${key.id}` });
    expect([deleted.status, deleted.body]).toEqual([200, undefined]);
    expect(sim.state.apiKey(key.id)).toBeUndefined();
    expect(sim.state.accessList(key.id)).toEqual([]);
    const inProject = (await client.request({ method: "GET", path: projectKeysPath() })).body as {
      results: KeyBody[];
    };
    expect(inProject.results.map((k) => k.id)).not.toContain(key.id);
    expect(await refusalOf("GET", `${keysPath()}/${key.id}`)).toEqual([400, "API_KEY_NOT_FOUND"]);
    expect(await refusalOf("DELETE", `${keysPath()}/${key.id}`)).toEqual([400, "API_KEY_NOT_FOUND"]);
  });

  it("deleting needs Organization Owner; reading one needs any organization role", async () => {
    const target = (await createKey()).body as KeyBody;
    const member = (await createKey({ desc: "member", roles: ["ORG_MEMBER"] })).body as KeyBody;
    const asMember = new HttpClient({
      baseUrl: sim.apiRoot,
      username: member.publicKey,
      password: member.privateKey,
    });
    try {
      expect((await asMember.request({ method: "GET", path: `${keysPath()}/${target.id}` })).status).toBe(
        200,
      );
      const refused = await failure(
        asMember.request({ method: "DELETE", path: `${keysPath()}/${target.id}` }),
      );
      expect([refused.status, refused.errorCode]).toEqual([401, "USER_UNAUTHORIZED"]);
      expect(sim.state.apiKey(target.id)).toBeDefined();
    } finally {
      await asMember.close();
    }
  });

  it("other methods on the key routes are 405 METHOD_NOT_ALLOWED", async () => {
    const key = (await createKey()).body as KeyBody;
    for (const relPath of [keysPath(), `${keysPath()}/${key.id}`, projectKeysPath()]) {
      const error = await failure(client.request({ method: "PUT", path: relPath, body: {} }));
      expect([relPath, error.status, error.errorCode]).toEqual([relPath, 405, "METHOD_NOT_ALLOWED"]);
    }
    expect(await refusalOf("GET", `${projectKeysPath()}/${key.id}`)).toEqual([405, "METHOD_NOT_ALLOWED"]);
  });
});

describe("assigning a key to a project", () => {
  it("a PATCH sets the key's roles in the project and answers 200 with the key; a second PATCH replaces them", async () => {
    const key = (await createKey()).body as KeyBody;
    const assignPath = `${projectKeysPath()}/${key.id}`;
    const first = await client.request({
      method: "PATCH",
      path: assignPath,
      body: { roles: ["GROUP_READ_ONLY", "GROUP_DATA_ACCESS_READ_ONLY"] },
    });
    expect(first.status).toBe(200);
    expect((first.body as KeyBody).roles).toEqual([
      { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
      { groupId: sim.groupId, roleName: "GROUP_DATA_ACCESS_READ_ONLY" },
    ]);
    expect((first.body as KeyBody).privateKey).toBe(`********-****-****-${key.privateKey.slice(-12)}`);
    const second = await client.request({
      method: "PATCH",
      path: assignPath,
      body: { roles: ["GROUP_OWNER"] },
    });
    // "Any roles not in this array are removed."
    expect((second.body as KeyBody).roles).toEqual([
      { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: sim.groupId, roleName: "GROUP_OWNER" },
    ]);
    expect(sim.requests.filter((r) => r.method === "PATCH").map((r) => [r.path, r.body, r.status])).toEqual([
      [`/api/public/v1.0${assignPath}`, { roles: ["GROUP_READ_ONLY", "GROUP_DATA_ACCESS_READ_ONLY"] }, 200],
      [`/api/public/v1.0${assignPath}`, { roles: ["GROUP_OWNER"] }, 200],
    ]);
  });

  it("the project's listing is paged and holds the assigned keys with all their roles; an unassigned key leaves it", async () => {
    const group = "5f00000000000000000000d1";
    sim.state.addGroup(group);
    const keys: KeyBody[] = [];
    for (const desc of ["a", "b", "c"]) {
      const key = (await createKey({ desc, roles: ["ORG_MEMBER"] })).body as KeyBody;
      await client.request({
        method: "PATCH",
        path: `/groups/${group}/apiKeys/${key.id}`,
        body: { roles: ["GROUP_READ_ONLY"] },
      });
      keys.push(key);
    }
    const page = await client.request({
      method: "GET",
      path: `/groups/${group}/apiKeys`,
      query: { pageNum: 2, itemsPerPage: 1 },
    });
    const base = `${sim.apiRoot}/groups/${group}/apiKeys`;
    expect(page.body).toEqual({
      links: [
        { href: `${base}?pageNum=2&itemsPerPage=1`, rel: "self" },
        { href: `${base}?pageNum=1&itemsPerPage=1`, rel: "previous" },
        { href: `${base}?pageNum=3&itemsPerPage=1`, rel: "next" },
      ],
      results: [
        {
          ...keys[1],
          privateKey: `********-****-****-${keys[1]!.privateKey.slice(-12)}`,
          roles: [
            { orgId: sim.orgId, roleName: "ORG_MEMBER" },
            { groupId: group, roleName: "GROUP_READ_ONLY" },
          ],
        },
      ],
      totalCount: 3,
    });
    const unassigned = await client.request({
      method: "DELETE",
      path: `/groups/${group}/apiKeys/${keys[1]!.id}`,
    });
    expect([unassigned.status, unassigned.body]).toEqual([200, undefined]);
    expect(sim.state.apiKey(keys[1]!.id)?.roles).toEqual([{ orgId: sim.orgId, roleName: "ORG_MEMBER" }]);
    const after = (await client.request({ method: "GET", path: `/groups/${group}/apiKeys` })).body as {
      results: KeyBody[];
      totalCount: number;
    };
    expect([after.results.map((k) => k.id), after.totalCount]).toEqual([[keys[0]!.id, keys[2]!.id], 2]);
    // A key the project does not have is, for the project, no key at all.
    expect(await refusalOf("DELETE", `/groups/${group}/apiKeys/${keys[1]!.id}`)).toEqual([
      400,
      "API_KEY_NOT_FOUND",
    ]);
  });

  it("unassigning from one project keeps the key's roles in the others", async () => {
    const group = "5f00000000000000000000d2";
    sim.state.addGroup(group);
    const key = (await createKey()).body as KeyBody;
    await client.request({
      method: "PATCH",
      path: `/groups/${group}/apiKeys/${key.id}`,
      body: { roles: ["GROUP_OWNER"] },
    });
    await client.request({
      method: "PATCH",
      path: `${projectKeysPath()}/${key.id}`,
      body: { roles: ["GROUP_READ_ONLY"] },
    });
    await client.request({ method: "DELETE", path: `/groups/${group}/apiKeys/${key.id}` });
    expect(sim.state.apiKey(key.id)?.roles).toEqual([
      { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
    ]);
  });

  it("roles must be a non-empty array of project role names", async () => {
    const key = (await createKey()).body as KeyBody;
    const assignPath = `${projectKeysPath()}/${key.id}`;
    const refused = async (body: unknown) => {
      const error = await failure(client.request({ method: "PATCH", path: assignPath, body }));
      return [error.status, error.errorCode, error.parameters];
    };
    expect(await refused({})).toEqual([400, "MISSING_ATTRIBUTE", ["roles"]]);
    expect(await refused({ roles: [] })).toEqual([400, "INVALID_ATTRIBUTE", ["roles"]]);
    expect(await refused({ roles: ["ORG_OWNER"] })).toEqual([400, "INVALID_ATTRIBUTE", ["roles"]]);
    expect(await refused({ roles: ["GROUP_EMPEROR"] })).toEqual([
      400,
      "INVALID_ENUM_VALUE",
      ["GROUP_EMPEROR", "roles"],
    ]);
    expect(await refused({ roles: ["GROUP_OWNER"], desc: "x" })).toEqual([
      400,
      "INVALID_ATTRIBUTE",
      ["desc"],
    ]);
    expect(sim.state.apiKey(key.id)?.roles).toEqual([{ orgId: sim.orgId, roleName: "ORG_MEMBER" }]);
  });

  it("an unknown key is 400 API_KEY_NOT_FOUND, an unknown project 404 GROUP_NOT_FOUND", async () => {
    const body = { roles: ["GROUP_OWNER"] };
    expect(await refusalOf("PATCH", `${projectKeysPath()}/5f00000000000000000000fe`, body)).toEqual([
      400,
      "API_KEY_NOT_FOUND",
    ]);
    const key = (await createKey()).body as KeyBody;
    expect(await refusalOf("PATCH", `/groups/5f00000000000000000000d9/apiKeys/${key.id}`, body)).toEqual([
      404,
      "GROUP_NOT_FOUND",
    ]);
    expect(await refusalOf("GET", "/groups/5f00000000000000000000d9/apiKeys")).toEqual([
      404,
      "GROUP_NOT_FOUND",
    ]);
  });

  it("assigning needs Project Owner in the project (an Organization Owner has it); a caller outside the project is 401 NOT_IN_GROUP", async () => {
    const target = (await createKey()).body as KeyBody;
    const member = (await createKey({ desc: "member", roles: ["ORG_MEMBER"] })).body as KeyBody;
    const asMember = new HttpClient({
      baseUrl: sim.apiRoot,
      username: member.publicKey,
      password: member.privateKey,
    });
    try {
      const body = { roles: ["GROUP_OWNER"] };
      const outside = await failure(
        asMember.request({ method: "PATCH", path: `${projectKeysPath()}/${target.id}`, body }),
      );
      expect([outside.status, outside.errorCode]).toEqual([401, "NOT_IN_GROUP"]);
      await client.request({
        method: "PATCH",
        path: `${projectKeysPath()}/${member.id}`,
        body: { roles: ["GROUP_READ_ONLY"] },
      });
      const reader = await failure(
        asMember.request({ method: "PATCH", path: `${projectKeysPath()}/${target.id}`, body }),
      );
      expect([reader.status, reader.errorCode]).toEqual([401, "USER_UNAUTHORIZED"]);
      expect((await asMember.request({ method: "GET", path: projectKeysPath() })).status).toBe(200);
      expect(sim.state.apiKey(target.id)?.roles).toEqual([{ orgId: sim.orgId, roleName: "ORG_MEMBER" }]);
    } finally {
      await asMember.close();
    }
  });

  it('with projectKeyAssignAnswer "noContent" the assignment answers 204 without a body, as older servers do, and still assigns', async () => {
    const older = await startSimulator({ projectKeyAssignAnswer: "noContent" });
    const olderClient = new HttpClient({
      baseUrl: older.apiRoot,
      username: older.publicKey,
      password: older.privateKey,
    });
    try {
      const key = (
        await olderClient.request({
          method: "POST",
          path: `/orgs/${older.orgId}/apiKeys`,
          body: { desc: "k", roles: ["ORG_MEMBER"] },
        })
      ).body as KeyBody;
      const assigned = await olderClient.request({
        method: "PATCH",
        path: `/groups/${older.groupId}/apiKeys/${key.id}`,
        body: { roles: ["GROUP_OWNER"] },
      });
      expect([assigned.status, assigned.body]).toEqual([204, undefined]);
      expect(older.state.apiKey(key.id)?.roles).toContainEqual({
        groupId: older.groupId,
        roleName: "GROUP_OWNER",
      });
      const refused = await failure(
        olderClient.request({
          method: "PATCH",
          path: `/groups/${older.groupId}/apiKeys/${key.id}`,
          body: { roles: [] },
        }),
      );
      expect([refused.status, refused.errorCode]).toEqual([400, "INVALID_ATTRIBUTE"]);
    } finally {
      await olderClient.close();
      await older.close();
    }
  });
});

describe("the request log never holds a whole private key", () => {
  it("not after a create, nor when a client sends a key's private key in a body, a query, a header or a path", async () => {
    const created = await createKey();
    const key = created.body as KeyBody;
    const secret = key.privateKey;
    expect(JSON.stringify(sim.requests)).not.toContain(secret);
    // A careless client echoing the secret anywhere in a request.
    await client.request({
      method: "PATCH",
      path: `${keysPath()}/${key.id}`,
      body: { desc: `key ${secret}` },
    });
    await client.request({ method: "GET", path: keysPath(), query: { note: secret } });
    await failure(client.request({ method: "GET", path: `${keysPath()}/${secret}` }));
    await failure(client.request({ method: "GET", path: `${keysPath()}/${key.id}/accessList/${secret}` }));
    await fetch(`${sim.apiRoot}${keysPath()}`, { headers: { "x-note": secret } });
    expect(sim.requests.length).toBeGreaterThanOrEqual(6);
    const log = JSON.stringify(sim.requests);
    expect(log).not.toContain(secret);
    expect(log).toContain("[REDACTED]");
    // Still scrubbed once the key is deleted.
    await client.request({ method: "DELETE", path: `${keysPath()}/${key.id}` });
    await client.request({ method: "GET", path: keysPath(), query: { note: secret } });
    expect(JSON.stringify(sim.requests)).not.toContain(secret);
  });
});

describe("the spec profile answers the endpoints beyond the spec as a server without them", () => {
  let spec: Simulator;
  let specClient: HttpClient;
  beforeAll(async () => {
    spec = await startSimulator({ profile: "spec" });
    specClient = new HttpClient({
      baseUrl: spec.apiRoot,
      username: spec.publicKey,
      password: spec.privateKey,
    });
  });
  afterAll(async () => {
    await specClient?.close();
    await spec?.close();
  });

  it("405 on the spec's own key paths, 404 RESOURCE_NOT_FOUND elsewhere, and nothing changes", async () => {
    const [key] = spec.state.apiKeys(spec.orgId).filter((k) => k.publicKey !== spec.publicKey);
    const before = JSON.stringify(spec.state.apiKeys());
    const calls: [string, "GET" | "POST" | "PATCH" | "DELETE", string, unknown][] = [
      ["create", "POST", `/orgs/${spec.orgId}/apiKeys`, { desc: "x", roles: ["ORG_MEMBER"] }],
      ["get one", "GET", `/orgs/${spec.orgId}/apiKeys/${key!.id}`, undefined],
      ["delete", "DELETE", `/orgs/${spec.orgId}/apiKeys/${key!.id}`, undefined],
      ["access list", "GET", `/orgs/${spec.orgId}/apiKeys/${key!.id}/accessList`, undefined],
      [
        "access list add",
        "POST",
        `/orgs/${spec.orgId}/apiKeys/${key!.id}/accessList`,
        [{ ipAddress: "192.0.2.1" }],
      ],
      [
        "access list entry",
        "DELETE",
        `/orgs/${spec.orgId}/apiKeys/${key!.id}/accessList/192.0.2.0%2F24`,
        undefined,
      ],
      ["project keys", "GET", `/groups/${spec.groupId}/apiKeys`, undefined],
      ["assign", "PATCH", `/groups/${spec.groupId}/apiKeys/${key!.id}`, { roles: ["GROUP_OWNER"] }],
      ["unassign", "DELETE", `/groups/${spec.groupId}/apiKeys/${key!.id}`, undefined],
    ];
    const answers: unknown[] = [];
    for (const [name, method, relPath, body] of calls) {
      const error = await failure(specClient.request({ method, path: relPath, body }));
      answers.push([name, error.status, error.errorCode]);
    }
    expect(answers).toEqual([
      ["create", 405, "METHOD_NOT_ALLOWED"],
      ["get one", 405, "METHOD_NOT_ALLOWED"],
      ["delete", 405, "METHOD_NOT_ALLOWED"],
      ["access list", 404, "RESOURCE_NOT_FOUND"],
      ["access list add", 404, "RESOURCE_NOT_FOUND"],
      ["access list entry", 404, "RESOURCE_NOT_FOUND"],
      ["project keys", 404, "RESOURCE_NOT_FOUND"],
      ["assign", 404, "RESOURCE_NOT_FOUND"],
      ["unassign", 404, "RESOURCE_NOT_FOUND"],
    ]);
    expect(JSON.stringify(spec.state.apiKeys())).toBe(before);
    expect(spec.state.accessList(key!.id)).toEqual([]);
  });
});

describe("the state file", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-key-life-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps created keys, their access lists and their project assignments across a restart", async () => {
    const stateFile = path.join(dir, "life.json");
    const first = await startSimulator({ stateFile });
    const firstClient = new HttpClient({
      baseUrl: first.apiRoot,
      username: first.publicKey,
      password: first.privateKey,
    });
    let key: KeyBody;
    try {
      key = (
        await firstClient.request({
          method: "POST",
          path: `/orgs/${first.orgId}/apiKeys`,
          body: { desc: "kept", roles: ["ORG_MEMBER"] },
        })
      ).body as KeyBody;
      await firstClient.request({
        method: "POST",
        path: `/orgs/${first.orgId}/apiKeys/${key.id}/accessList`,
        body: [{ ipAddress: "198.51.100.7" }, { cidrBlock: "192.0.2.0/24" }],
      });
      await firstClient.request({
        method: "PATCH",
        path: `/groups/${first.groupId}/apiKeys/${key.id}`,
        body: { roles: ["GROUP_READ_ONLY"] },
      });
    } finally {
      await firstClient.close();
      await first.close();
    }
    const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as {
      version: number;
      accessLists: Record<string, unknown[]>;
    };
    expect(saved.version).toBe(2);
    expect(Object.keys(saved.accessLists)).toEqual([key.id]);
    const second = await startSimulator({ stateFile });
    const secondClient = new HttpClient({
      baseUrl: second.apiRoot,
      username: key.publicKey,
      password: key.privateKey,
    });
    try {
      const list = (
        await secondClient.request({
          method: "GET",
          path: `/orgs/${second.orgId}/apiKeys/${key.id}/accessList`,
        })
      ).body as {
        results: { cidrBlock: string; ipAddress?: string }[];
      };
      expect(list.results.map((e) => [e.cidrBlock, e.ipAddress])).toEqual([
        ["198.51.100.7/32", "198.51.100.7"],
        ["192.0.2.0/24", undefined],
      ]);
      expect(second.state.apiKey(key.id)?.roles).toEqual([
        { orgId: second.orgId, roleName: "ORG_MEMBER" },
        { groupId: second.groupId, roleName: "GROUP_READ_ONLY" },
      ]);
    } finally {
      await secondClient.close();
      await second.close();
    }
  });

  it("reads a version 1 file, written before keys had access lists, and writes it back as version 2", async () => {
    const stateFile = path.join(dir, "v1.json");
    const orgId = "5f0000000000000000000001";
    const groupId = "5f0000000000000000000002";
    // As the version before this one wrote it: no accessLists, version 1.
    const v1 = {
      format: "ops-manager-simulator-state",
      version: 1,
      orgId,
      groupId,
      adminKeyId: "5f0000000000000000000003",
      prng: 12345,
      generated: 1,
      orgs: [orgId],
      groups: [groupId],
      apiKeys: [
        {
          id: "5f0000000000000000000003",
          orgId,
          desc: "simulator admin key",
          publicKey: "simadmin",
          privateKey: "00000000-sim0-4000-8000-000000000001",
          roles: [
            { orgId, roleName: "ORG_OWNER" },
            { groupId, roleName: "GROUP_OWNER" },
          ],
        },
        {
          id: "5f00000000000000000000a1",
          orgId,
          desc: "generated key 1",
          publicKey: "oldkeyaa",
          privateKey: "11111111-2222-4333-8444-555555555555",
          roles: [
            { orgId, roleName: "ORG_MEMBER" },
            { groupId, roleName: "GROUP_READ_ONLY" },
          ],
        },
      ],
      jobs: [],
    };
    fs.writeFileSync(stateFile, JSON.stringify(v1));
    const sim1 = await startSimulator({ stateFile });
    const c = new HttpClient({ baseUrl: sim1.apiRoot, username: sim1.publicKey, password: sim1.privateKey });
    try {
      const inProject = (await c.request({ method: "GET", path: `/groups/${groupId}/apiKeys` })).body as {
        results: KeyBody[];
      };
      expect(inProject.results.map((k) => k.id)).toEqual([
        "5f0000000000000000000003",
        "5f00000000000000000000a1",
      ]);
      const list = await c.request({
        method: "GET",
        path: `/orgs/${orgId}/apiKeys/5f00000000000000000000a1/accessList`,
      });
      expect((list.body as { totalCount: number }).totalCount).toBe(0);
      await c.request({
        method: "POST",
        path: `/orgs/${orgId}/apiKeys/5f00000000000000000000a1/accessList`,
        body: [{ ipAddress: "203.0.113.5" }],
      });
    } finally {
      await c.close();
      await sim1.close();
    }
    const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as {
      version: number;
      apiKeys: unknown[];
      accessLists: Record<string, { cidrBlock: string }[]>;
    };
    expect(saved.version).toBe(2);
    expect(saved.apiKeys).toEqual(v1.apiKeys);
    expect(saved.accessLists["5f00000000000000000000a1"]?.map((e) => e.cidrBlock)).toEqual([
      "203.0.113.5/32",
    ]);
  });
});

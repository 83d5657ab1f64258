/**
 * An organization API key's access list in the simulator's `deployed` profile, as the Ops Manager
 * documentation, its error table and MongoDB's Go client show it: a POST of an array that only adds and
 * answers the whole list, an address shown as both `ipAddress` and `x/32`, entries named in the path
 * with `/` written `%2F` (a double escape names nothing), and the error table's codes.
 */
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

interface Entry {
  cidrBlock: string;
  ipAddress?: string;
  count: number;
  created: string;
  links: { href: string; rel: string }[];
}
interface EntryPage {
  links: { href: string; rel: string }[];
  results: Entry[];
  totalCount: number;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function newKey(): Promise<{ id: string; publicKey: string; privateKey: string; listPath: string }> {
  const key = (
    await client.request({
      method: "POST",
      path: `/orgs/${sim.orgId}/apiKeys`,
      body: { desc: "with an access list", roles: ["ORG_MEMBER"] },
    })
  ).body as { id: string; publicKey: string; privateKey: string };
  return { ...key, listPath: `/orgs/${sim.orgId}/apiKeys/${key.id}/accessList` };
}

async function add(listPath: string, body: unknown) {
  return client.request({ method: "POST", path: listPath, body });
}

describe("adding entries", () => {
  it("a POST of an array answers the whole list; an address comes back as ipAddress and its /32 block", async () => {
    const key = await newKey();
    const answer = await add(key.listPath, [{ ipAddress: "198.51.100.7" }]);
    expect(answer.status).toBe(200);
    const base = `${sim.apiRoot}${key.listPath}`;
    expect(answer.body).toEqual({
      links: [{ href: `${base}?pageNum=1&itemsPerPage=100`, rel: "self" }],
      results: [
        {
          cidrBlock: "198.51.100.7/32",
          count: 0,
          created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          ipAddress: "198.51.100.7",
          links: [{ href: `${base}/198.51.100.7`, rel: "self" }],
        },
      ],
      totalCount: 1,
    });
    const second = (await add(key.listPath, [{ cidrBlock: "192.0.2.0/24" }, { ipAddress: "2001:db8::1" }]))
      .body as EntryPage;
    // Only adds: the first entry is still there.
    expect(second.results.map((e) => [e.cidrBlock, e.ipAddress, e.links[0]?.href])).toEqual([
      ["198.51.100.7/32", "198.51.100.7", `${base}/198.51.100.7`],
      ["192.0.2.0/24", undefined, `${base}/192.0.2.0%2F24`],
      ["2001:db8::1/128", "2001:db8::1", `${base}/2001%3Adb8%3A%3A1`],
    ]);
    expect(second.totalCount).toBe(3);
    expect(
      sim.requests.filter((r) => r.authenticated && r.path.endsWith("/accessList")).map((r) => r.body),
    ).toEqual([
      [{ ipAddress: "198.51.100.7" }],
      [{ cidrBlock: "192.0.2.0/24" }, { ipAddress: "2001:db8::1" }],
    ]);
  });

  it("an entry already on the list is accepted and kept as it was; a block of one address is that address", async () => {
    const key = await newKey();
    const first = (await add(key.listPath, [{ ipAddress: "203.0.113.9" }])).body as EntryPage;
    const again = (await add(key.listPath, [{ cidrBlock: "203.0.113.9/32" }, { ipAddress: "203.0.113.10" }]))
      .body as EntryPage;
    expect(again.results.map((e) => [e.ipAddress, e.cidrBlock])).toEqual([
      ["203.0.113.9", "203.0.113.9/32"],
      ["203.0.113.10", "203.0.113.10/32"],
    ]);
    expect(again.results[0]).toEqual(first.results[0]);
    expect(sim.state.accessList(key.id)).toHaveLength(2);
  });

  it("the error table's refusals: both fields, neither, duplicates in one request, an address not allowed; nothing is added", async () => {
    const key = await newKey();
    const refused = async (body: unknown) => {
      const error = await failure(add(key.listPath, body));
      return [error.status, error.errorCode];
    };
    expect(await refused([{ ipAddress: "192.0.2.1", cidrBlock: "192.0.2.1/32" }])).toEqual([
      400,
      "BAD_WHITELIST_ADD_REQUEST",
    ]);
    expect(await refused([{}])).toEqual([400, "MISSING_ONE_OF_ATTRIBUTES"]);
    expect(await refused([{ ipAddress: "192.0.2.1" }, { cidrBlock: "192.0.2.1/32" }])).toEqual([
      400,
      "DUPLICATE_ADDRESSES_IN_INPUT",
    ]);
    expect(await refused([{ ipAddress: "0.0.0.0" }])).toEqual([
      400,
      "CANNOT_ADD_IP_ADDRESS_TO_API_KEY_WHITELIST",
    ]);
    expect(await refused({ ipAddress: "192.0.2.1" })).toEqual([400, "INVALID_JSON"]);
    expect(await refused(["192.0.2.1"])).toEqual([400, "INVALID_JSON"]);
    expect(await refused([{ ipAddress: "192.0.2.1", comment: "x" }])).toEqual([400, "INVALID_ATTRIBUTE"]);
    expect(await refused([{ ipAddress: "192.0.2.256" }])).toEqual([400, "INVALID_ATTRIBUTE"]);
    expect(await refused([{ cidrBlock: "192.0.2.0/33" }])).toEqual([400, "INVALID_ATTRIBUTE"]);
    expect(await refused([{ cidrBlock: "192.0.2.0" }])).toEqual([400, "INVALID_ATTRIBUTE"]);
    const hostBits = await failure(add(key.listPath, [{ cidrBlock: "192.0.2.5/24" }]));
    expect([hostBits.errorCode, hostBits.detail]).toEqual([
      "INVALID_ATTRIBUTE",
      "Invalid attribute cidrBlock specified: 192.0.2.5/24 has host bits set; the block is 192.0.2.0/24.",
    ]);
    // One bad entry refuses the whole request.
    expect(await refused([{ ipAddress: "192.0.2.1" }, { ipAddress: "nope" }])).toEqual([
      400,
      "INVALID_ATTRIBUTE",
    ]);
    expect(sim.state.accessList(key.id)).toEqual([]);
  });

  it("a 409 ADDRESS_ALREADY_IN_ACCESS_LIST, which the simulator does not answer by itself, can be injected", async () => {
    const key = await newKey();
    sim.faults.add({
      method: "POST",
      pathPrefix: key.listPath,
      status: 409,
      errorCode: "ADDRESS_ALREADY_IN_ACCESS_LIST",
    });
    const error = await failure(add(key.listPath, [{ ipAddress: "192.0.2.1" }]));
    expect([error.status, error.errorCode]).toEqual([409, "ADDRESS_ALREADY_IN_ACCESS_LIST"]);
    expect(sim.state.accessList(key.id)).toEqual([]);
  });
});

describe("one entry, named in the path", () => {
  it("a block is named with %2F for its slash; a double-escaped %252F names nothing (404 API_KEY_ACCESS_LIST_NOT_FOUND)", async () => {
    const key = await newKey();
    await add(key.listPath, [{ cidrBlock: "192.0.2.0/24" }, { ipAddress: "198.51.100.7" }]);
    const block = await client.request({ method: "GET", path: `${key.listPath}/192.0.2.0%2F24` });
    expect(block.body).toEqual({
      cidrBlock: "192.0.2.0/24",
      count: 0,
      created: expect.any(String),
      links: [{ href: `${sim.apiRoot}${key.listPath}/192.0.2.0%2F24`, rel: "self" }],
    });
    const address = (await client.request({ method: "GET", path: `${key.listPath}/198.51.100.7` }))
      .body as Entry;
    expect([address.ipAddress, address.cidrBlock]).toEqual(["198.51.100.7", "198.51.100.7/32"]);
    const byBlock = (await client.request({ method: "GET", path: `${key.listPath}/198.51.100.7%2F32` })).body;
    expect(byBlock).toEqual(address);

    for (const method of ["GET", "DELETE"] as const) {
      const doubled = await failure(client.request({ method, path: `${key.listPath}/192.0.2.0%252F24` }));
      expect([doubled.status, doubled.errorCode, doubled.parameters]).toEqual([
        404,
        "API_KEY_ACCESS_LIST_NOT_FOUND",
        ["192.0.2.0%2F24"],
      ]);
    }
    expect(sim.state.accessList(key.id)).toHaveLength(2);
    // An unescaped slash is a path one segment longer: no such resource.
    const unescaped = await failure(client.request({ method: "GET", path: `${key.listPath}/192.0.2.0/24` }));
    expect([unescaped.status, unescaped.errorCode]).toEqual([404, "RESOURCE_NOT_FOUND"]);
  });

  it("a DELETE answers 200 with an empty document and removes only that entry; a second DELETE is 404", async () => {
    const key = await newKey();
    await add(key.listPath, [{ cidrBlock: "192.0.2.0/24" }, { ipAddress: "198.51.100.7" }]);
    const deleted = await client.request({ method: "DELETE", path: `${key.listPath}/192.0.2.0%2F24` });
    expect([deleted.status, deleted.body]).toEqual([200, {}]);
    expect(sim.state.accessList(key.id).map((e) => e.cidrBlock)).toEqual(["198.51.100.7/32"]);
    const again = await failure(client.request({ method: "DELETE", path: `${key.listPath}/192.0.2.0%2F24` }));
    expect([again.status, again.errorCode]).toEqual([404, "API_KEY_ACCESS_LIST_NOT_FOUND"]);
    expect(sim.requests.filter((r) => r.authenticated && r.method === "DELETE").map((r) => r.path)).toEqual([
      `/api/public/v1.0${key.listPath}/192.0.2.0%2F24`,
      `/api/public/v1.0${key.listPath}/192.0.2.0%2F24`,
    ]);
  });
});

describe("the list", () => {
  it("is paged like the keys: links to the pages before and after, the whole count", async () => {
    const key = await newKey();
    await add(
      key.listPath,
      ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map((ipAddress) => ({ ipAddress })),
    );
    const page = (
      await client.request({ method: "GET", path: key.listPath, query: { pageNum: 2, itemsPerPage: 1 } })
    ).body as EntryPage;
    const base = `${sim.apiRoot}${key.listPath}`;
    expect(page.links).toEqual([
      { href: `${base}?pageNum=2&itemsPerPage=1`, rel: "self" },
      { href: `${base}?pageNum=1&itemsPerPage=1`, rel: "previous" },
      { href: `${base}?pageNum=3&itemsPerPage=1`, rel: "next" },
    ]);
    expect([page.results.map((e) => e.ipAddress), page.totalCount]).toEqual([["192.0.2.2"], 3]);
    const bad = await failure(
      client.request({ method: "GET", path: key.listPath, query: { itemsPerPage: 501 } }),
    );
    expect([bad.status, bad.errorCode]).toEqual([400, "INVALID_QUERY_PARAMETER"]);
  });

  it("of a key that is not there is 400 API_KEY_NOT_FOUND; other methods are 405", async () => {
    const missing = `/orgs/${sim.orgId}/apiKeys/5f00000000000000000000fd/accessList`;
    const error = await failure(client.request({ method: "GET", path: missing }));
    expect([error.status, error.errorCode]).toEqual([400, "API_KEY_NOT_FOUND"]);
    const key = await newKey();
    for (const relPath of [key.listPath, `${key.listPath}/192.0.2.1`]) {
      const wrong = await failure(client.request({ method: "PATCH", path: relPath, body: [] }));
      expect([wrong.status, wrong.errorCode]).toEqual([405, "METHOD_NOT_ALLOWED"]);
    }
  });

  it("is open to the key itself and to Organization Owners; another key gets 400 API_KEY_ACCESS_LIST_ACCESS_DENIED", async () => {
    const key = await newKey();
    const other = await newKey();
    await add(key.listPath, [{ ipAddress: "192.0.2.1" }]);
    const asItself = new HttpClient({
      baseUrl: sim.apiRoot,
      username: key.publicKey,
      password: key.privateKey,
    });
    const asOther = new HttpClient({
      baseUrl: sim.apiRoot,
      username: other.publicKey,
      password: other.privateKey,
    });
    try {
      const own = (await asItself.request({ method: "GET", path: key.listPath })).body as EntryPage;
      expect(own.totalCount).toBe(1);
      const denied = await failure(asOther.request({ method: "GET", path: key.listPath }));
      expect([denied.status, denied.errorCode]).toEqual([400, "API_KEY_ACCESS_LIST_ACCESS_DENIED"]);
      const deniedAdd = await failure(
        asOther.request({ method: "POST", path: key.listPath, body: [{ ipAddress: "192.0.2.9" }] }),
      );
      expect([deniedAdd.status, deniedAdd.errorCode]).toEqual([400, "API_KEY_ACCESS_LIST_ACCESS_DENIED"]);
      expect(sim.state.accessList(key.id)).toHaveLength(1);
    } finally {
      await asItself.close();
      await asOther.close();
    }
  });
});

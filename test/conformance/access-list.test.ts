/**
 * The provider's access-list module (provider/api/access-list.ts) reading MongoDB's Go client's
 * published access-list bodies (./bodies/api-key-life), served byte for byte behind digest
 * authentication: the page and the POST's whole-list answer read as canonical entries with what the
 * server says of each, the POST sent as an array of `{ipAddress}` (never both fields, which the error
 * table refuses), a block removed at its `%2F` path, and the error table's answers told with their
 * codes and what to do.
 */
import { describe, expect, it } from "vitest";
import {
  addToAccessList,
  isAccessListEntryGone,
  listAccessList,
  removeFromAccessList,
} from "../../provider/api/access-list";
import type { HttpClient } from "../../provider/client";
import { ApiError } from "../../provider/client/errors";
import {
  accessListAccessDenied,
  accessListEntryNotFound,
  addressAlreadyInAccessList,
  badAccessListAddRequest,
  GO_ACCESS_LIST_KEY_ID,
  GO_LIFE_ORG_ID,
  goAccessListCreateAnswer,
  goAccessListDeleteAnswer,
  goAccessListPage,
  LIFE_PATHS,
} from "./bodies/api-key-life";
import type { VerbatimServer } from "./support/verbatim-server";
import { verbatimSuite } from "./support/verbatim-suite";

let server: VerbatimServer;
let client: HttpClient;

verbatimSuite((started, clientOf) => {
  server = started;
  client = clientOf();
});

const ORG = GO_LIFE_ORG_ID;
const KEY = GO_ACCESS_LIST_KEY_ID;

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the Go client's access-list bodies through provider/api/access-list.ts", () => {
  it("the page reads as canonical entries with created, lastUsed, lastUsedAddress and count, in one GET", async () => {
    server.serve("GET", LIFE_PATHS.accessList, goAccessListPage);
    const entries = await listAccessList(client, ORG, KEY);
    expect(entries).toEqual([
      {
        entry: "147.58.184.16",
        kind: "address",
        cidrBlock: "147.58.184.16/32",
        ipAddress: "147.58.184.16",
        created: "2019-01-24T16:34:57Z",
        lastUsed: "2019-01-24T20:18:25Z",
        lastUsedAddress: "147.58.184.16",
        count: 0,
      },
      {
        entry: "84.255.48.125",
        kind: "address",
        cidrBlock: "84.255.48.125/32",
        ipAddress: "84.255.48.125",
        created: "2019-01-24T16:26:37Z",
        lastUsed: "2019-01-24T20:18:25Z",
        lastUsedAddress: "84.255.48.125",
        count: 0,
      },
    ]);
    expect(server.authenticated().map((r) => [r.method, r.path, r.query])).toEqual([
      ["GET", LIFE_PATHS.accessList, { pageNum: "1", itemsPerPage: "500" }],
    ]);
  });

  it("the POST sends an array of {ipAddress} only, and reads the whole-list answer as complete", async () => {
    server.serve("POST", LIFE_PATHS.accessList, goAccessListCreateAnswer);
    const after = await addToAccessList(client, ORG, KEY, ["77.54.32.11"]);
    expect(JSON.parse(server.authenticated()[0]!.body)).toEqual([{ ipAddress: "77.54.32.11" }]);
    expect(after.complete).toBe(true);
    expect(after.entries.map((e) => e.entry)).toEqual(["147.58.184.16", "77.54.32.11"]);
  });

  it("a block is removed at its %2F path and an address at its own, answers without a body", async () => {
    server.serve("DELETE", LIFE_PATHS.blockEntry, goAccessListDeleteAnswer);
    server.serve("DELETE", LIFE_PATHS.addressEntry, goAccessListDeleteAnswer);
    await removeFromAccessList(client, ORG, KEY, "192.0.2.0/24");
    await removeFromAccessList(client, ORG, KEY, "147.58.184.16");
    expect(server.authenticated().map((r) => [r.method, r.path, r.status])).toEqual([
      ["DELETE", LIFE_PATHS.blockEntry, 200],
      ["DELETE", LIFE_PATHS.addressEntry, 200],
    ]);
  });

  it("an entry not in canonical spelling is refused before any request", async () => {
    await expect(removeFromAccessList(client, ORG, KEY, "192.0.2.5/24")).rejects.toThrow(
      /canonical spelling/,
    );
    await expect(addToAccessList(client, ORG, KEY, ["10.0.0.1/32"])).rejects.toThrow(/canonical spelling/);
    expect(server.requests).toEqual([]);
  });

  it("the error table's answers keep their codes and say what to do", async () => {
    server.serve("DELETE", LIFE_PATHS.blockEntry, accessListEntryNotFound);
    const gone = await failure(removeFromAccessList(client, ORG, KEY, "192.0.2.0/24"));
    expect(isAccessListEntryGone(gone)).toBe(true);
    expect(gone.message).toContain(
      `DELETE ${LIFE_PATHS.blockEntry} failed: 404 API_KEY_ACCESS_LIST_NOT_FOUND`,
    );
    expect(gone.message).toContain("the key's access list has no such entry");

    server.serve("GET", LIFE_PATHS.accessList, accessListAccessDenied);
    const denied = await failure(listAccessList(client, ORG, KEY));
    expect(denied.errorCode).toBe("API_KEY_ACCESS_LIST_ACCESS_DENIED");
    expect(denied.message).toMatch(/only the API key itself or an Organization Owner \(ORG_OWNER\)/);
    expect(isAccessListEntryGone(denied)).toBe(false);

    for (const answer of [badAccessListAddRequest, addressAlreadyInAccessList]) {
      server.reset();
      server.serve("POST", LIFE_PATHS.accessList, answer);
      const refused = await failure(addToAccessList(client, ORG, KEY, ["147.58.184.16"]));
      expect(refused.errorCode).toBe(JSON.parse(answer.body).errorCode);
      expect(refused.message).toContain(`POST ${LIFE_PATHS.accessList} failed: ${answer.status}`);
      // Not idempotent: never sent twice.
      expect(server.authenticated()).toHaveLength(1);
    }
  });
});

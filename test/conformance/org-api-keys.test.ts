/**
 * Organization API keys as the public record shows them, read by our API layer over real HTTP with
 * digest authentication, and adopted through Pulumi's real dynamic-provider host.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patchOrgApiKey } from "../../provider/api/api-keys";
import type { HttpClient } from "../../provider/client";
import { type Host, KEY_TYPE, urn } from "../support/host";
import { allOrgKeys, orgKeysPage } from "../support/listing";
import { checkThenCreate, type ProviderFixture, providerFixture } from "../support/provider-fixture";
import {
  DOCS_GROUP_ID,
  DOCS_KEY_ID,
  DOCS_ORG_ID,
  docsListPage,
  docsPatchAnswer,
  GO_KEY,
  GO_ORG_ID,
  goListPage,
  goPageTwoOfThree,
  goPatchAnswer,
} from "./bodies/org-api-keys";
import type { VerbatimServer } from "./support/verbatim-server";
import { verbatimSuite } from "./support/verbatim-suite";

let server: VerbatimServer;
let client: HttpClient;

verbatimSuite((started, clientOf) => {
  server = started;
  client = clientOf();
});

/** The Go client's two listed keys, as its test expects them decoded. */
const goKeys = [
  {
    id: "5c47503320eef5699e1cce8d",
    desc: "test-apikey",
    privateKey: "********-****-****-db2c132ca78d",
    publicKey: "ewmaqvdo",
    roles: [
      { groupId: "1", roleName: "GROUP_OWNER" },
      { orgId: "1", roleName: "ORG_MEMBER" },
    ],
  },
  {
    id: "5c47503320eef5699e1cce8f",
    desc: "test-apikey-2",
    privateKey: "********-****-****-db2c132ca78f",
    publicKey: "ewmaqvde",
    roles: [
      { groupId: "1", roleName: "GROUP_OWNER" },
      { orgId: "1", roleName: "ORG_MEMBER" },
    ],
  },
];

describe("list pages of organization API keys through the API layer", () => {
  it("a page without links reads as the Go client's test expects it, project and organization roles kept apart", async () => {
    server.serve("GET", `/orgs/${GO_ORG_ID}/apiKeys`, goListPage);
    const page = await orgKeysPage(client, GO_ORG_ID);
    expect(page).toEqual({ results: goKeys, totalCount: 2 });
    const [get] = server.authenticated();
    expect(get).toMatchObject({ method: "GET", query: { pageNum: "1", itemsPerPage: "500" }, status: 200 });
  });

  it("a whole listing of one page without links is read in one request a read, and read twice", async () => {
    server.serve("GET", `/orgs/${GO_ORG_ID}/apiKeys`, goListPage);
    expect(await allOrgKeys(client, GO_ORG_ID)).toEqual(goKeys);
    expect(server.authenticated().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /orgs/${GO_ORG_ID}/apiKeys`,
      `GET /orgs/${GO_ORG_ID}/apiKeys`,
    ]);
  });

  it("links on the page and on each key are not read, even where they name another key", async () => {
    server.serve("GET", `/orgs/${DOCS_ORG_ID}/apiKeys`, docsListPage);
    expect(await allOrgKeys(client, DOCS_ORG_ID)).toEqual([
      {
        id: DOCS_KEY_ID,
        desc: "Test Docs Service User",
        privateKey: "********-****-****-db2c132ca78d",
        publicKey: "{PUBLIC-KEY}",
        roles: [
          { groupId: DOCS_GROUP_ID, roleName: "GROUP_OWNER" },
          { groupId: DOCS_GROUP_ID, roleName: "GROUP_READ_ONLY" },
          { orgId: DOCS_ORG_ID, roleName: "ORG_MEMBER" },
        ],
      },
    ]);
  });

  it("page 2 of a three-key listing, one key a page, gives its key and the whole count", async () => {
    server.serve("GET", `/orgs/${GO_ORG_ID}/apiKeys`, goPageTwoOfThree);
    const page = await orgKeysPage(client, GO_ORG_ID, { pageNum: 2, itemsPerPage: 1 });
    expect(page).toEqual({ results: [goKeys[0]], totalCount: 3 });
    expect(server.authenticated()[0]!.query).toEqual({ pageNum: "2", itemsPerPage: "1" });
  });
});

describe("PATCH answers through the API layer", () => {
  it("an answer with a project role mixed in gives the key with both kinds of role", async () => {
    const path = `/orgs/${GO_ORG_ID}/apiKeys/${GO_KEY.id}`;
    server.serve("PATCH", path, goPatchAnswer);
    const key = await patchOrgApiKey(client, GO_ORG_ID, GO_KEY.id, { desc: "test-apiKey" });
    expect(key).toEqual(goKeys[0]);
    const patches = server.authenticated().filter((r) => r.method === "PATCH");
    expect(patches.map((r) => [r.path, JSON.parse(r.body)])).toEqual([[path, { desc: "test-apiKey" }]]);
  });

  it("an answer with a self link gives the key without it", async () => {
    const id = "5c47ba5127d9d61b9fd8a27b";
    server.serve("PATCH", `/orgs/${DOCS_ORG_ID}/apiKeys/${id}`, docsPatchAnswer);
    const change = {
      desc: "Updated API key description for test purposes",
      roles: ["ORG_MEMBER" as const, "ORG_READ_ONLY" as const],
    };
    expect(await patchOrgApiKey(client, DOCS_ORG_ID, id, change)).toEqual({
      id,
      desc: change.desc,
      privateKey: "********-****-****-db2c132ca78d",
      publicKey: "{PUBLIC-KEY}",
      roles: [
        { orgId: DOCS_ORG_ID, roleName: "ORG_MEMBER" },
        { orgId: DOCS_ORG_ID, roleName: "ORG_READ_ONLY" },
      ],
    });
    expect(JSON.parse(server.authenticated().find((r) => r.method === "PATCH")!.body)).toEqual(change);
  });
});

describe("adoption through the real dynamic-provider host", () => {
  let fixture: ProviderFixture;
  let host: Host;

  beforeAll(async () => {
    fixture = await providerFixture();
    host = await fixture.newHost({
      "opsmanager:baseUrl": server.origin,
      "opsmanager:publicKey": server.publicKey,
      "opsmanager:privateKey": server.privateKey,
    });
  });
  afterAll(async () => {
    await fixture?.close(server.privateKey);
  });

  it("a key PATCHed with a project role in the answer has roles and projectRoles as the answer says", async () => {
    server.serve("GET", `/orgs/${GO_ORG_ID}/apiKeys`, goListPage);
    server.serve("PATCH", `/orgs/${GO_ORG_ID}/apiKeys/${GO_KEY.id}`, goPatchAnswer);
    const created = await checkThenCreate(
      host,
      urn(KEY_TYPE, "go-key"),
      fixture.withKey({ orgId: GO_ORG_ID, publicKey: GO_KEY.publicKey, desc: "test-apiKey" }),
    );
    expect(created.id).toBe(GO_KEY.id);
    const { __provider, ...outs } = created.properties;
    expect(outs).toEqual({
      orgId: GO_ORG_ID,
      publicKey: GO_KEY.publicKey,
      apiKeyId: GO_KEY.id,
      // The answer to the PATCH says "test-apikey" (as in the Go test): outputs say what the server holds.
      desc: "test-apikey",
      roles: ["ORG_MEMBER"],
      projectRoles: [{ groupId: "1", roleName: "GROUP_OWNER" }],
      privateKey: "********-****-****-db2c132ca78d",
      restoreOnDelete: false,
      adopted: { desc: "test-apikey", roles: ["ORG_MEMBER"] },
      managed: { desc: true, roles: false, by: "publicKey" },
      keepers: {},
      stateVersion: 2,
    });
    expect(server.authenticated().map((r) => [r.method, r.path, r.body && JSON.parse(r.body)])).toEqual([
      ["GET", `/orgs/${GO_ORG_ID}/apiKeys`, ""],
      ["PATCH", `/orgs/${GO_ORG_ID}/apiKeys/${GO_KEY.id}`, { desc: "test-apiKey" }],
    ]);
  });

  it("a key that already is as declared is adopted from a page with links, without a PATCH", async () => {
    server.serve("GET", `/orgs/${DOCS_ORG_ID}/apiKeys`, docsListPage);
    const created = await checkThenCreate(
      host,
      urn(KEY_TYPE, "docs-key"),
      fixture.withKey({
        orgId: DOCS_ORG_ID,
        apiKeyId: DOCS_KEY_ID,
        desc: "Test Docs Service User",
        roles: ["ORG_MEMBER"],
      }),
    );
    expect(created.id).toBe(DOCS_KEY_ID);
    expect(created.properties).toMatchObject({
      apiKeyId: DOCS_KEY_ID,
      publicKey: "{PUBLIC-KEY}",
      desc: "Test Docs Service User",
      roles: ["ORG_MEMBER"],
      projectRoles: [
        { groupId: DOCS_GROUP_ID, roleName: "GROUP_OWNER" },
        { groupId: DOCS_GROUP_ID, roleName: "GROUP_READ_ONLY" },
      ],
    });
    expect(server.authenticated().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /orgs/${DOCS_ORG_ID}/apiKeys`,
    ]);
  });
});

/**
 * A project's API keys as the public record shows them (./bodies/api-key-life: MongoDB's Go client's
 * bodies, each naming its source), served byte for byte behind digest authentication and read by our
 * API layer (api/project-api-keys.ts): the project's key page with its project and organization roles
 * apart, and the assign and unassign answers, whose bodies (none, or a 204) are never read.
 */
import { describe, expect, it } from "vitest";
import { readListingPage, readWholeListing } from "../../provider/api/listing-pages";
import {
  assignProjectApiKey,
  projectApiKeyListing,
  unassignProjectApiKey,
} from "../../provider/api/project-api-keys";
import type { HttpClient } from "../../provider/client";
import {
  assignNoContent,
  GO_LIFE_GROUP_ID,
  GO_LIFE_KEY_ID,
  goAssignAnswer,
  goProjectKeysPage,
  goUnassignAnswer,
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

const seen = () => server.authenticated().map((r) => [r.method, r.path, r.body, r.status]);

describe("the Go client's project key bodies, read by api/project-api-keys.ts", () => {
  it("the project's key page: every key with its project and organization roles apart, its private key as shown", async () => {
    server.serve("GET", LIFE_PATHS.projectKeys, goProjectKeysPage);
    const keys = await readWholeListing(client, projectApiKeyListing(GO_LIFE_GROUP_ID));
    expect(keys).toEqual([
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
    ]);
    const page = await readListingPage(client, projectApiKeyListing(GO_LIFE_GROUP_ID));
    expect(page.results.map((k) => [k.id, k.publicKey])).toEqual([
      ["5c47503320eef5699e1cce8d", "ewmaqvdo"],
      ["5c47503320eef5699e1cce8f", "ewmaqvde"],
    ]);
    expect(page.totalCount).toBe(2);
  });

  it("assign: one PATCH carrying the roles, its empty 200 (Go's test) and 204 (older documentation) alike", async () => {
    for (const answer of [goAssignAnswer, assignNoContent]) {
      server.reset();
      server.serve("PATCH", LIFE_PATHS.projectKey, answer);
      await expect(
        assignProjectApiKey(client, GO_LIFE_GROUP_ID, GO_LIFE_KEY_ID, ["GROUP_OWNER", "GROUP_READ_ONLY"]),
      ).resolves.toBeUndefined();
      expect(seen()).toEqual([
        ["PATCH", LIFE_PATHS.projectKey, '{"roles":["GROUP_OWNER","GROUP_READ_ONLY"]}', answer.status],
      ]);
    }
  });

  it("unassign: one DELETE, its empty 200 read as success", async () => {
    server.serve("DELETE", LIFE_PATHS.projectKey, goUnassignAnswer);
    await expect(unassignProjectApiKey(client, GO_LIFE_GROUP_ID, GO_LIFE_KEY_ID)).resolves.toBeUndefined();
    expect(seen()).toEqual([["DELETE", LIFE_PATHS.projectKey, "", 200]]);
  });
});

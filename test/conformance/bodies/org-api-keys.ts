/**
 * Organization API keys as the public record shows them: list pages with and without `links`, roles
 * that mix organization (`orgId`) and project (`groupId`) entries, a page of a longer listing, and PATCH
 * answers. Every value is the source's; the JSON is written out here.
 */
import { JSON_HEADERS, type PublishedAnswer } from "./types";

const GO_OPS_MANAGER = "mongodb/go-client-mongodb-ops-manager@343f164338a5e0aa34a896746431983c74e36e6a";
const GO_KEYS_TEST = `${GO_OPS_MANAGER}, opsmngr/organization_api_keys_test.go`;

/** The organization the Go client's list tests ask for (`/api/public/v1.0/orgs/1/apiKeys`). */
export const GO_ORG_ID = "1";
/** The key the Go client's tests list and update. */
export const GO_KEY = { id: "5c47503320eef5699e1cce8d", publicKey: "ewmaqvdo" } as const;

/** A list page without any `links`: two keys, each with a project role and an organization role. */
export const goListPage: PublishedAnswer = {
  source: `${GO_KEYS_TEST}, TestOrganizationAPIKeys_ListAPIKeys (the same body is in mongodb/go-client-mongodb-atlas, mongodbatlas/api_keys_test.go, TestAPIKeys_ListAPIKeys)`,
  kind: "published",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "results": [
    {
      "desc": "test-apikey",
      "id": "5c47503320eef5699e1cce8d",
      "privateKey": "********-****-****-db2c132ca78d",
      "publicKey": "ewmaqvdo",
      "roles": [
        { "groupId": "1", "roleName": "GROUP_OWNER" },
        { "orgId": "1", "roleName": "ORG_MEMBER" }
      ]
    },
    {
      "desc": "test-apikey-2",
      "id": "5c47503320eef5699e1cce8f",
      "privateKey": "********-****-****-db2c132ca78f",
      "publicKey": "ewmaqvde",
      "roles": [
        { "groupId": "1", "roleName": "GROUP_OWNER" },
        { "orgId": "1", "roleName": "ORG_MEMBER" }
      ]
    }
  ],
  "totalCount": 2
}`,
};

/**
 * Page 2 of a listing of 3 keys, one a page: page `links` (previous, self, next), no per-key links.
 * The hrefs are the source's, Atlas paths and a lower-case `apikeys` included.
 */
export const goPageTwoOfThree: PublishedAnswer = {
  source: `${GO_KEYS_TEST}, TestOrganizationAPIKeys_RetrievePageByNumber`,
  kind: "published",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "links": [
    { "href": "http://example.com/api/atlas/v1.0/orgs/1/apikeys?pageNum=1&itemsPerPage=1", "rel": "previous" },
    { "href": "http://example.com/api/atlas/v1.0/orgs/1/apikeys?pageNum=2&itemsPerPage=1", "rel": "self" },
    { "href": "http://example.com/api/atlas/v1.0/orgs/1/apikeys?itemsPerPage=3&pageNum=2", "rel": "next" }
  ],
  "results": [
    {
      "desc": "test-apikey",
      "id": "5c47503320eef5699e1cce8d",
      "privateKey": "********-****-****-db2c132ca78d",
      "publicKey": "ewmaqvdo",
      "roles": [
        { "groupId": "1", "roleName": "GROUP_OWNER" },
        { "orgId": "1", "roleName": "ORG_MEMBER" }
      ]
    }
  ],
  "totalCount": 3
}`,
};

/**
 * The answer to `PATCH /orgs/{ORG-ID}/apiKeys/5c47503320eef5699e1cce8d` with
 * `{"desc":"test-apiKey","roles":["GROUP_OWNER"]}`: the key with a project role mixed in.
 */
export const goPatchAnswer: PublishedAnswer = {
  source: `${GO_KEYS_TEST}, TestOrganizationAPIKeys_Update (the body is the file's jsonBlobOrg)`,
  kind: "published",
  note: "The Go test sends desc test-apiKey and is answered desc test-apikey; kept as published.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "desc": "test-apikey",
  "id": "5c47503320eef5699e1cce8d",
  "privateKey": "********-****-****-db2c132ca78d",
  "publicKey": "ewmaqvdo",
  "roles": [
    { "groupId": "1", "roleName": "GROUP_OWNER" },
    { "orgId": "1", "roleName": "ORG_MEMBER" }
  ]
}`,
};

const ATLAS_V1_DOCS =
  "MongoDB Atlas documentation, Atlas Administration API v1.0 reference (deprecated; the same " +
  "/orgs/{ORG-ID}/apiKeys resource as Ops Manager's public API v1.0)";

/** The organization of the documentation's example (its page `self` link and its `orgId` roles). */
export const DOCS_ORG_ID = "5980cfc70b6d97029d82e3f6";
/** The key of the documentation's list example. */
export const DOCS_KEY_ID = "5c47503320eef5699e1cce8d";
/** The project of the documentation's list example's project roles. */
export const DOCS_GROUP_ID = "5898b95f87d9d6270e8995d9";

/**
 * A list page with `links` on the page and on each key, as `pretty=true` prints it; two project roles
 * and one organization role. The key's own self link names another org and key id than the key's
 * (5980cfc70b6d98829d82e3f6, 5c47503ae0eef5699e1cce8d): published so; links are not read.
 */
export const docsListPage: PublishedAnswer = {
  source: `${ATLAS_V1_DOCS}, page "Get All Organization API Keys", Example Response, Response Body`,
  kind: "published",
  note: "publicKey is the page's placeholder {PUBLIC-KEY}, kept as published.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "links" : [ {
    "href" : "https://cloud.mongodb.com/api/atlas/v1.0/orgs/5980cfc70b6d97029d82e3f6/apiKeys?pretty=true&pageNum=1&itemsPerPage=100",
    "rel" : "self"
  } ],
  "results" : [ {
    "desc" : "Test Docs Service User",
    "id" : "5c47503320eef5699e1cce8d",
    "links" : [ {
      "href" : "https://cloud.mongodb.com/api/atlas/v1.0/orgs/5980cfc70b6d98829d82e3f6/apiKeys/5c47503ae0eef5699e1cce8d",
      "rel" : "self"
    } ],
    "privateKey" : "********-****-****-db2c132ca78d",
    "publicKey" : "{PUBLIC-KEY}",
    "roles" : [ {
      "groupId" : "5898b95f87d9d6270e8995d9",
      "roleName" : "GROUP_OWNER"
    }, {
      "groupId" : "5898b95f87d9d6270e8995d9",
      "roleName" : "GROUP_READ_ONLY"
    }, {
      "orgId" : "5980cfc70b6d97029d82e3f6",
      "roleName" : "ORG_MEMBER"
    } ]
  } ],
  "totalCount" : 1
}`,
};

/** A PATCH answer with a `self` link and two organization roles. */
export const docsPatchAnswer: PublishedAnswer = {
  source: `${ATLAS_V1_DOCS}, page "Update One Organization API Key", Example Response, Response Body`,
  kind: "published",
  note: "The link names org 5980cfc70b6d12029d82e3f6, the roles 5980cfc70b6d97029d82e3f6: published so.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "desc" : "Updated API key description for test purposes",
  "id" : "5c47ba5127d9d61b9fd8a27b",
  "links" : [ {
    "href" : "https://cloud.mongodb.com/api/atlas/v1.0/orgs/5980cfc70b6d12029d82e3f6/apiKeys/5c47ba5127d9d61b9fd8a27b",
    "rel" : "self"
  } ],
  "privateKey" : "********-****-****-db2c132ca78d",
  "publicKey" : "{PUBLIC-KEY}",
  "roles" : [ {
    "orgId" : "5980cfc70b6d97029d82e3f6",
    "roleName" : "ORG_MEMBER"
  }, {
    "orgId" : "5980cfc70b6d97029d82e3f6",
    "roleName" : "ORG_READ_ONLY"
  } ]
}`,
};

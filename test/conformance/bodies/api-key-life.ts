/**
 * An organization API key's life beyond the spec as the public record shows it: the create, get one and
 * delete of a key, its access list, and its assignment to projects, with the bodies MongoDB's Go client
 * publishes in its tests, and the error table's codes for these endpoints built as ./errors builds
 * them. Every value is the source's; the JSON is written out here (the Go tests indent with tabs).
 * The provider does not read these endpoints yet: kept for the task that will, and checked against the
 * documented shape in ../api-key-life.test.ts.
 */
import { constructed } from "./errors";
import { JSON_HEADERS, type PublishedAnswer } from "./types";

const GO_OPS_MANAGER = "mongodb/go-client-mongodb-ops-manager@343f164338a5e0aa34a896746431983c74e36e6a";
const GO_KEYS_TEST = `${GO_OPS_MANAGER}, opsmngr/organization_api_keys_test.go`;
const GO_ACCESS_LIST_TEST = `${GO_OPS_MANAGER}, opsmngr/accesslist_api_keys_test.go`;
const GO_PROJECT_KEYS_TEST = `${GO_OPS_MANAGER}, opsmngr/project_api_keys_test.go`;

/** The organization of the Go client's tests (`orgID` in opsmngr/organizations_test.go). */
export const GO_LIFE_ORG_ID = "5a0a1e7e0f2912c554081adc";
/** The project of the Go client's tests (`projectID` in opsmngr/agents_api_keys_test.go). */
export const GO_LIFE_GROUP_ID = "5e66185d917b220fbd8bb4d1";
/** The key the Go client's create, get and project tests show. */
export const GO_LIFE_KEY_ID = "5c47503320eef5699e1cce8d";
/** The key of the access-list tests' own bodies (their page `self` link). */
export const GO_ACCESS_LIST_KEY_ID = "5c49e72980eef544a218f8f8";

/** Paths below the API root at which the tests serve these answers. */
export const LIFE_PATHS = {
  keys: `/orgs/${GO_LIFE_ORG_ID}/apiKeys`,
  key: `/orgs/${GO_LIFE_ORG_ID}/apiKeys/${GO_LIFE_KEY_ID}`,
  accessList: `/orgs/${GO_LIFE_ORG_ID}/apiKeys/${GO_ACCESS_LIST_KEY_ID}/accessList`,
  /** An address entry: its `ipAddress` is the path segment. */
  addressEntry: `/orgs/${GO_LIFE_ORG_ID}/apiKeys/${GO_ACCESS_LIST_KEY_ID}/accessList/147.58.184.16`,
  /** A block entry: its `/` written `%2F`, as the documentation's path parameter says. */
  blockEntry: `/orgs/${GO_LIFE_ORG_ID}/apiKeys/${GO_ACCESS_LIST_KEY_ID}/accessList/192.0.2.0%2F24`,
  projectKeys: `/groups/${GO_LIFE_GROUP_ID}/apiKeys`,
  projectKey: `/groups/${GO_LIFE_GROUP_ID}/apiKeys/${GO_LIFE_KEY_ID}`,
} as const;

/** An answer without a body, as the Go tests' handlers give it (Go's default status, 200). */
function emptyGoAnswer(source: string, note: string): PublishedAnswer {
  return { source, kind: "published", note, status: 200, headers: JSON_HEADERS, body: "" };
}

/**
 * The answer to `POST /orgs/{ORG-ID}/apiKeys` with `{"desc":"test-apiKey","roles":["GROUP_OWNER"]}`.
 * Its private key is redacted: the Go test reuses the file's jsonBlobOrg, a read's body; the
 * documentation says the create is the one answer with the whole private key. A reader of the create
 * must refuse a redacted private key rather than keep it as the secret.
 */
export const goCreateKeyAnswer: PublishedAnswer = {
  source: `${GO_KEYS_TEST}, TestOrganizationAPIKeys_Create (the body is the file's jsonBlobOrg)`,
  kind: "published",
  note: "Go's default status, 200; the Go client accepts any 2xx. The test sends desc test-apiKey and is answered test-apikey: kept as published.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "desc": "test-apikey",
  "id": "5c47503320eef5699e1cce8d",
  "privateKey": "********-****-****-db2c132ca78d",
  "publicKey": "ewmaqvdo",
  "roles": [
    {
      "groupId": "1",
      "roleName": "GROUP_OWNER"
    },
    {
      "orgId": "1",
      "roleName": "ORG_MEMBER"
    }
  ]
}`,
};

/** The answer to `GET /orgs/1/apiKeys/5c47503320eef5699e1cce8d`: a key of which only `desc` is given. */
export const goGetKeyAnswer: PublishedAnswer = {
  source: `${GO_KEYS_TEST}, TestOrganizationAPIKeys_GetAPIKey`,
  kind: "published",
  note: "A test body, not a whole key: a reader that needs id, publicKey and roles must say which is missing.",
  status: 200,
  headers: JSON_HEADERS,
  body: '{"desc":"test-desc"}',
};

/** The answer to `DELETE /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}`: 200 without a body. */
export const goDeleteKeyAnswer = emptyGoAnswer(
  `${GO_KEYS_TEST}, TestOrganizationAPIKeys_Delete`,
  "The handler writes nothing: Go's default 200 and an empty body.",
);

/** `GET …/accessList`: two address entries, each with its `/32` block, page and entry links. */
export const goAccessListPage: PublishedAnswer = {
  source: `${GO_ACCESS_LIST_TEST}, TestAccessListAPIKeys_List`,
  kind: "published",
  note: "The second entry's self link names 206.252.195.126, not its own address: published so; links are not read.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "links": [
    {
      "href": "https://cloud.mongodb.com/api/atlas/v1.0/orgs/599c510c80eef518f3b63fe1/apiKeys/5c49e72980eef544a218f8f8/accessList/?pretty=true&pageNum=1&itemsPerPage=100",
      "rel": "self"
    }
  ],
  "results": [
    {
      "cidrBlock": "147.58.184.16/32",
      "count": 0,
      "created": "2019-01-24T16:34:57Z",
      "ipAddress": "147.58.184.16",
      "lastUsed": "2019-01-24T20:18:25Z",
      "lastUsedAddress": "147.58.184.16",
      "links": [
        {
          "href": "https://cloud.mongodb.com/api/atlas/v1.0/orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList/147.58.184.16",
          "rel": "self"
        }
      ]
    },
    {
      "cidrBlock": "84.255.48.125/32",
      "count": 0,
      "created": "2019-01-24T16:26:37Z",
      "ipAddress": "84.255.48.125",
      "lastUsed": "2019-01-24T20:18:25Z",
      "lastUsedAddress": "84.255.48.125",
      "links": [
        {
          "href": "https://cloud.mongodb.com/api/atlas/v1.0/orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList/206.252.195.126",
          "rel": "self"
        }
      ]
    }
  ],
  "totalCount": 2
}`,
};

/**
 * The answer to `POST …/accessList` with `[{"ipAddress":"77.54.32.11","cidrBlock":"77.54.32.11/32"}]`:
 * the whole list, the new entry with the one that was there.
 */
export const goAccessListCreateAnswer: PublishedAnswer = {
  source: `${GO_ACCESS_LIST_TEST}, TestAccessListAPIKeys_Create`,
  kind: "published",
  note:
    "The Go test's request gives ipAddress and cidrBlock in one entry, which the error table refuses " +
    "(BAD_WHITELIST_ADD_REQUEST); its handler answers 200 regardless. Send one or the other, as mongocli does.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "links": [
    {
      "href": "https://cloud.mongodb.com/api/atlas/v1.0/orgs/599c510c80eef518f3b63fe1/apiKeys/5c49e72980eef544a218f8f8/accessList/?pretty=true&pageNum=1&itemsPerPage=100",
      "rel": "self"
    }
  ],
  "results": [
    {
      "cidrBlock": "147.58.184.16/32",
      "count": 0,
      "created": "2019-01-24T16:34:57Z",
      "ipAddress": "147.58.184.16",
      "lastUsed": "2019-01-24T20:18:25Z",
      "lastUsedAddress": "147.58.184.16",
      "links": [
        {
          "href": "https://cloud.mongodb.com/api/atlas/v1.0/orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList/147.58.184.16",
          "rel": "self"
        }
      ]
    },
    {
      "cidrBlock": "77.54.32.11/32",
      "count": 0,
      "created": "2019-01-24T16:26:37Z",
      "ipAddress": "77.54.32.11",
      "lastUsed": "2019-01-24T20:18:25Z",
      "lastUsedAddress": "77.54.32.11",
      "links": [
        {
          "href": "https://cloud.mongodb.com/api/atlas/v1.0/orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList/77.54.32.11",
          "rel": "self"
        }
      ]
    }
  ],
  "totalCount": 2
}`,
};

/** `GET …/accessList/{ENTRY}`: one entry, never used (no `lastUsed`). */
export const goAccessListEntry: PublishedAnswer = {
  source: `${GO_ACCESS_LIST_TEST}, TestAccessListAPIKeys_Get`,
  kind: "published",
  note: "The Go test asks for the placeholder entry IP-ADDRESS; served here at the address the body names.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "cidrBlock": "147.58.184.16/32",
  "count": 0,
  "created": "2019-01-24T16:34:57Z",
  "ipAddress": "147.58.184.16",
  "links": [
    {
      "href": "https://cloud.mongodb.com/api/atlas/v1.0/orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList/147.58.184.16",
      "rel": "self"
    }
  ]
}`,
};

/** The answer to `DELETE …/accessList/{ENTRY}`: 200 without a body. */
export const goAccessListDeleteAnswer = emptyGoAnswer(
  `${GO_ACCESS_LIST_TEST}, TestAccessListAPIKeys_Delete`,
  "The handler writes nothing: Go's default 200 and an empty body (NOTES.md: the documentation shows an empty document).",
);

/** `GET /groups/{GROUP-ID}/apiKeys`: the project's keys with their project and organization roles. */
export const goProjectKeysPage: PublishedAnswer = {
  source: `${GO_PROJECT_KEYS_TEST}, TestProjectAPIKeys_ListAPIKeys`,
  kind: "published",
  note: "The Go test lists project 1; served here at the Go tests' projectID.",
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
        {
          "groupId": "1",
          "roleName": "GROUP_OWNER"
        },
        {
          "orgId": "1",
          "roleName": "ORG_MEMBER"
        }
      ]
    },
    {
      "desc": "test-apikey-2",
      "id": "5c47503320eef5699e1cce8f",
      "privateKey": "********-****-****-db2c132ca78f",
      "publicKey": "ewmaqvde",
      "roles": [
        {
          "groupId": "1",
          "roleName": "GROUP_OWNER"
        },
        {
          "orgId": "1",
          "roleName": "ORG_MEMBER"
        }
      ]
    }
  ],
  "totalCount": 2
}`,
};

/** The answer to `PATCH /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}` (assign): 200 without a body. */
export const goAssignAnswer = emptyGoAnswer(
  `${GO_PROJECT_KEYS_TEST}, TestProjectAPIKeys_Assign`,
  "The handler writes nothing: Go's default 200 and an empty body. The Go client reads no body either; newer documentation answers the key, older 204 (NOTES.md).",
);

/** The answer to `DELETE /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}` (unassign): 200 without a body. */
export const goUnassignAnswer = emptyGoAnswer(
  `${GO_PROJECT_KEYS_TEST}, TestProjectAPIKeys_Unassign`,
  "The handler writes nothing: Go's default 200 and an empty body.",
);

/** The assignment as older Ops Manager documentation answers it: 204 No Content, no body. */
export const assignNoContent: PublishedAnswer = {
  source:
    "NOTES.md, Organization API keys beyond the spec (Project assignment: 204 without a body in older documentation)",
  kind: "published",
  status: 204,
  headers: JSON_HEADERS,
  body: "",
};

/** `API_KEY_ACCESS_LIST_NOT_FOUND`: an entry the list does not have (the double-escaped one, say). */
export const accessListEntryNotFound = constructed({
  code: "API_KEY_ACCESS_LIST_NOT_FOUND",
  status: 404,
  reason: "Not Found",
  detail: "The specified IP address does not exist in the corresponding API key access list.",
  parameters: [],
});

/** `API_KEY_ACCESS_LIST_ACCESS_DENIED`: a caller that is neither the key nor an Organization Owner. */
export const accessListAccessDenied = constructed({
  code: "API_KEY_ACCESS_LIST_ACCESS_DENIED",
  status: 400,
  reason: "Bad Request",
  detail: "API Key access lists are only accessible by the API Key or by a user administrator.",
  parameters: [],
});

/** An entry with both `ipAddress` and `cidrBlock`, under the table's older name for the refusal. */
export const badAccessListAddRequest = constructed({
  code: "BAD_WHITELIST_ADD_REQUEST",
  status: 400,
  reason: "Bad Request",
  detail: "Should not specify both the IP address and the CIDR block.",
  parameters: [],
  note: "The table names the refusal after the whitelist; its newer name, if any, is not documented.",
});

/** `ADDRESS_ALREADY_IN_ACCESS_LIST`: the table's 409, which names no endpoint. */
export const addressAlreadyInAccessList = constructed({
  code: "ADDRESS_ALREADY_IN_ACCESS_LIST",
  status: 409,
  reason: "Conflict",
  detail: "The address 147.58.184.16 is already on the access list.",
  parameters: ["147.58.184.16"],
});

/** `DUPLICATE_ADDRESSES_IN_INPUT`: one POST that names an address twice. */
export const duplicateAddressesInInput = constructed({
  code: "DUPLICATE_ADDRESSES_IN_INPUT",
  status: 400,
  reason: "Bad Request",
  detail: "Two or more of the IP addresses being added to the whitelist are the same.",
  parameters: [],
});

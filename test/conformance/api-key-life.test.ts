/**
 * An organization API key's life beyond the spec as the public record shows it (./bodies/api-key-life):
 * MongoDB's Go client's bodies for create, get one, delete, the access list and project assignment,
 * and the error table's answers for them, served byte for byte behind digest authentication. The
 * provider does not call these endpoints yet, so these are fixture self-checks against a schema written
 * in this file (the documented shapes, not the provider's), plus one check that the simulator's
 * deployed profile answers in the same shapes and with the same error bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { HttpClient } from "../../provider/client";
import { ApiError } from "../../provider/client/errors";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import {
  accessListAccessDenied,
  accessListEntryNotFound,
  addressAlreadyInAccessList,
  assignNoContent,
  badAccessListAddRequest,
  duplicateAddressesInInput,
  goAccessListCreateAnswer,
  goAccessListDeleteAnswer,
  goAccessListEntry,
  goAccessListPage,
  goAssignAnswer,
  goCreateKeyAnswer,
  goDeleteKeyAnswer,
  goGetKeyAnswer,
  goProjectKeysPage,
  goUnassignAnswer,
  LIFE_PATHS,
} from "./bodies/api-key-life";
import type { PublishedAnswer } from "./bodies/types";
import type { VerbatimServer } from "./support/verbatim-server";
import { verbatimSuite } from "./support/verbatim-suite";

let server: VerbatimServer;
let client: HttpClient;

verbatimSuite((started, clientOf) => {
  server = started;
  client = clientOf();
});

// The documented shapes (NOTES.md, "Organization API keys beyond the spec"): the test's own schemas.
const link = z.strictObject({ href: z.string().min(1), rel: z.string().min(1) });
const role = z.union([
  z.strictObject({ orgId: z.string().min(1), roleName: z.string().regex(/^ORG_[A-Z_]+$/) }),
  z.strictObject({ groupId: z.string().min(1), roleName: z.string().regex(/^GROUP_[A-Z_]+$/) }),
]);
const keySchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{24}$/),
  desc: z.string().min(1).max(250),
  privateKey: z.union([z.string().regex(/^\*{8}-\*{4}-\*{4}-[0-9a-f]{12}$/), z.uuid()]),
  publicKey: z.string().regex(/^[a-z]{8}$/),
  roles: z.array(role).min(1),
  links: z.array(link).optional(),
});
const keyPageSchema = z.strictObject({
  results: z.array(keySchema),
  totalCount: z.number().int().nonnegative(),
  links: z.array(link).optional(),
});
const entrySchema = z.strictObject({
  cidrBlock: z.string().regex(/^[0-9a-f.:]+\/\d{1,3}$/),
  ipAddress: z.union([z.ipv4(), z.ipv6()]).optional(),
  count: z.number().int().nonnegative(),
  created: z.iso.datetime(),
  lastUsed: z.iso.datetime().optional(),
  lastUsedAddress: z.union([z.ipv4(), z.ipv6()]).optional(),
  links: z.array(link),
});
const entryPageSchema = z.strictObject({
  results: z.array(entrySchema),
  totalCount: z.number().int().nonnegative(),
  links: z.array(link).optional(),
});
const errorSchema = z.strictObject({
  detail: z.string().min(1),
  error: z.number().int(),
  errorCode: z.string().regex(/^[A-Z_]+$/),
  parameters: z.array(z.unknown()),
  reason: z.string().min(1),
});

type Method = "GET" | "POST" | "PATCH" | "DELETE";

async function served(method: Method, path: string, answer: PublishedAnswer, body?: unknown) {
  server.serve(method, path, answer);
  return client.request({ method, path, body });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("fixture self-checks: each names its source and crosses our transport as served", () => {
  const goFixtures = {
    goCreateKeyAnswer,
    goGetKeyAnswer,
    goDeleteKeyAnswer,
    goAccessListPage,
    goAccessListCreateAnswer,
    goAccessListEntry,
    goAccessListDeleteAnswer,
    goProjectKeysPage,
    goAssignAnswer,
    goUnassignAnswer,
  };

  it("every Go fixture names the repository at a commit, the test file and the test", () => {
    for (const [name, fixture] of Object.entries(goFixtures)) {
      expect([name, fixture.source]).toEqual([
        name,
        expect.stringMatching(
          /^mongodb\/go-client-mongodb-ops-manager@[0-9a-f]{40}, opsmngr\/\w+_test\.go, Test\w+/,
        ),
      ]);
      expect(fixture.kind).toBe("published");
    }
  });

  it("the create's key is of the documented shape; its private key is the redacted form, which the Go test reuses", async () => {
    const { status, body } = await served("POST", LIFE_PATHS.keys, goCreateKeyAnswer, {
      desc: "test-apiKey",
      roles: ["GROUP_OWNER"],
    });
    expect(body).toEqual(JSON.parse(goCreateKeyAnswer.body));
    const key = keySchema.parse(body);
    expect([status, key.privateKey]).toEqual([200, "********-****-****-db2c132ca78d"]);
    expect(JSON.parse(server.authenticated()[0]!.body)).toEqual({
      desc: "test-apiKey",
      roles: ["GROUP_OWNER"],
    });
  });

  it("the get-one body gives only desc: the documented key shape refuses it and names what is missing", async () => {
    const { body } = await served("GET", LIFE_PATHS.key, goGetKeyAnswer);
    expect(body).toEqual({ desc: "test-desc" });
    const parsed = keySchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual([
      "id",
      "privateKey",
      "publicKey",
      "roles",
    ]);
  });

  it("the deletes, the assignment and the unassignment are 200 without a body; the older assignment 204", async () => {
    const empties: [Method, string, PublishedAnswer][] = [
      ["DELETE", LIFE_PATHS.key, goDeleteKeyAnswer],
      ["DELETE", LIFE_PATHS.addressEntry, goAccessListDeleteAnswer],
      ["PATCH", LIFE_PATHS.projectKey, goAssignAnswer],
      ["DELETE", LIFE_PATHS.projectKey, goUnassignAnswer],
      ["PATCH", LIFE_PATHS.projectKey, assignNoContent],
    ];
    const seen: unknown[] = [];
    for (const [method, path, answer] of empties) {
      const { status, body } = await served(
        method,
        path,
        answer,
        method === "PATCH" ? { roles: ["GROUP_OWNER"] } : undefined,
      );
      seen.push([method, path, status, body]);
    }
    expect(seen).toEqual(empties.map(([method, path, answer]) => [method, path, answer.status, undefined]));
  });

  it("the access list page, the POST's whole-list answer and one entry are of the documented shape", async () => {
    const page = entryPageSchema.parse((await served("GET", LIFE_PATHS.accessList, goAccessListPage)).body);
    expect(page.results.map((e) => [e.ipAddress, e.cidrBlock, e.count])).toEqual([
      ["147.58.184.16", "147.58.184.16/32", 0],
      ["84.255.48.125", "84.255.48.125/32", 0],
    ]);
    const request = [{ ipAddress: "77.54.32.11", cidrBlock: "77.54.32.11/32" }];
    const created = await served("POST", LIFE_PATHS.accessList, goAccessListCreateAnswer, request);
    expect(created.body).toEqual(JSON.parse(goAccessListCreateAnswer.body));
    expect(entryPageSchema.parse(created.body).totalCount).toBe(2);
    const entry = entrySchema.parse((await served("GET", LIFE_PATHS.addressEntry, goAccessListEntry)).body);
    expect([entry.ipAddress, entry.cidrBlock, entry.lastUsed]).toEqual([
      "147.58.184.16",
      "147.58.184.16/32",
      undefined,
    ]);
  });

  it("the project's key page is of the documented shape, project and organization roles apart", async () => {
    const { body } = await served("GET", LIFE_PATHS.projectKeys, goProjectKeysPage);
    expect(body).toEqual(JSON.parse(goProjectKeysPage.body));
    const page = keyPageSchema.parse(body);
    expect(page.results.map((k) => k.roles)).toEqual([
      [
        { groupId: "1", roleName: "GROUP_OWNER" },
        { orgId: "1", roleName: "ORG_MEMBER" },
      ],
      [
        { groupId: "1", roleName: "GROUP_OWNER" },
        { orgId: "1", roleName: "ORG_MEMBER" },
      ],
    ]);
  });

  it("a block entry is served at its %2F path only: the double-escaped %252F reaches no answer", async () => {
    server.serve("DELETE", LIFE_PATHS.blockEntry, goAccessListDeleteAnswer);
    expect((await client.request({ method: "DELETE", path: LIFE_PATHS.blockEntry })).status).toBe(200);
    const doubled = LIFE_PATHS.blockEntry.replace("%2F", "%252F");
    const error = await failure(client.request({ method: "DELETE", path: doubled }));
    expect(error.status).toBe(404);
    expect(server.authenticated().map((r) => [r.path, r.status])).toEqual([
      [LIFE_PATHS.blockEntry, 200],
      [doubled, 404],
    ]);
  });

  it("the error table's answers for these endpoints are errors of the documented shape, read with their codes", async () => {
    const errors: [Method, string, PublishedAnswer][] = [
      ["GET", LIFE_PATHS.blockEntry, accessListEntryNotFound],
      ["GET", LIFE_PATHS.accessList, accessListAccessDenied],
      ["POST", LIFE_PATHS.accessList, badAccessListAddRequest],
      ["POST", LIFE_PATHS.accessList, addressAlreadyInAccessList],
      ["POST", LIFE_PATHS.accessList, duplicateAddressesInInput],
    ];
    for (const [method, path, answer] of errors) {
      expect(answer.source).toMatch(
        /^Ops Manager documentation, page "Public API Error Codes" .*, row [A-Z_]+ \(\d{3}\)$/,
      );
      errorSchema.parse(JSON.parse(answer.body));
      server.serve(method, path, answer);
      const error = await failure(client.request({ method, path, body: method === "POST" ? [] : undefined }));
      const { errorCode, detail } = JSON.parse(answer.body) as { errorCode: string; detail: string };
      expect([error.status, error.errorCode, error.detail]).toEqual([answer.status, errorCode, detail]);
    }
  });
});

describe("the simulator's deployed profile answers in the published shapes and with the table's bodies", () => {
  let sim: Simulator;
  let simClient: HttpClient;
  beforeAll(async () => {
    sim = await startSimulator();
    simClient = new HttpClient({ baseUrl: sim.apiRoot, username: sim.publicKey, password: sim.privateKey });
  });
  afterAll(async () => {
    await simClient?.close();
    await sim?.close();
  });

  it("create, get one, the access list, its entries and the project's keys parse with the schemas above", async () => {
    const keys = `/orgs/${sim.orgId}/apiKeys`;
    const created = keySchema.parse(
      (
        await simClient.request({
          method: "POST",
          path: keys,
          body: { desc: "shape", roles: ["ORG_MEMBER"] },
        })
      ).body,
    );
    expect(created.privateKey).toMatch(/^[0-9a-f]{8}-/);
    const got = keySchema.parse(
      (await simClient.request({ method: "GET", path: `${keys}/${created.id}` })).body,
    );
    expect(got.privateKey).toBe(`********-****-****-${created.privateKey.slice(-12)}`);
    const list = `${keys}/${created.id}/accessList`;
    const page = entryPageSchema.parse(
      (
        await simClient.request({
          method: "POST",
          path: list,
          body: [{ ipAddress: "147.58.184.16" }, { cidrBlock: "192.0.2.0/24" }],
        })
      ).body,
    );
    expect(page.totalCount).toBe(2);
    entrySchema.parse((await simClient.request({ method: "GET", path: `${list}/192.0.2.0%2F24` })).body);
    await simClient.request({
      method: "PATCH",
      path: `/groups/${sim.groupId}/apiKeys/${created.id}`,
      body: { roles: ["GROUP_OWNER"] },
    });
    const projectPage = keyPageSchema.parse(
      (await simClient.request({ method: "GET", path: `/groups/${sim.groupId}/apiKeys` })).body,
    );
    expect(projectPage.results.map((k) => k.id)).toContain(created.id);
  });

  it("its refusals carry the table's status, code and detail, as the constructed fixtures do", async () => {
    const keys = `/orgs/${sim.orgId}/apiKeys`;
    const key = (
      await simClient.request({
        method: "POST",
        path: keys,
        body: { desc: "refusals", roles: ["ORG_MEMBER"] },
      })
    ).body as { id: string; publicKey: string; privateKey: string };
    const list = `${keys}/${key.id}/accessList`;
    const other = (
      await simClient.request({ method: "POST", path: keys, body: { desc: "other", roles: ["ORG_MEMBER"] } })
    ).body as { publicKey: string; privateKey: string };
    const asOther = new HttpClient({
      baseUrl: sim.apiRoot,
      username: other.publicKey,
      password: other.privateKey,
    });
    try {
      // Each call made only when its turn comes: a refusal awaited later would be an unhandled rejection.
      const cases: [PublishedAnswer, () => Promise<unknown>][] = [
        [
          accessListEntryNotFound,
          () => simClient.request({ method: "GET", path: `${list}/192.0.2.0%252F24` }),
        ],
        [accessListAccessDenied, () => asOther.request({ method: "GET", path: list })],
        [
          badAccessListAddRequest,
          () =>
            simClient.request({
              method: "POST",
              path: list,
              body: [{ ipAddress: "77.54.32.11", cidrBlock: "77.54.32.11/32" }],
            }),
        ],
        [
          duplicateAddressesInInput,
          () =>
            simClient.request({
              method: "POST",
              path: list,
              body: [{ ipAddress: "192.0.2.1" }, { ipAddress: "192.0.2.1" }],
            }),
        ],
      ];
      for (const [fixture, call] of cases) {
        const error = await failure(call());
        const expected = JSON.parse(fixture.body) as { errorCode: string; detail: string };
        expect([error.status, error.errorCode, error.detail]).toEqual([
          fixture.status,
          expected.errorCode,
          expected.detail,
        ]);
      }
    } finally {
      await asOther.close();
    }
  });
});

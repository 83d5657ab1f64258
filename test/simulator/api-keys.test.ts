/**
 * The simulator's organization API keys (simulator/api-keys.ts) in both profiles: the seed, the
 * listing and its pages, a page cap, the PATCH and its validation, keys changed outside the API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { BOTH, DigestClient, type ErrorBody, json, type KeyBody, type ListBody } from "./support";

describe.each(BOTH)("an organization's API keys (%s profile)", (profile) => {
  let sim: Simulator;
  let client: DigestClient;
  beforeAll(async () => {
    sim = await startSimulator({ profile });
    client = new DigestClient(sim);
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.faults.clear());

  it("the default seed is an admin key (ORG_OWNER, and GROUP_OWNER of the project) plus five generated keys in creation order", () => {
    const keys = sim.state.apiKeys(sim.orgId);
    expect(sim.orgId).toBe("5f0000000000000000000001");
    expect(sim.groupId).toBe("5f0000000000000000000002");
    expect(sim.publicKey).toBe("simadmin");
    expect(keys).toHaveLength(6);
    expect(keys[0]?.publicKey).toBe("simadmin");
    expect(keys[0]?.roles).toEqual([
      { orgId: sim.orgId, roleName: "ORG_OWNER" },
      { groupId: sim.groupId, roleName: "GROUP_OWNER" },
    ]);
    for (const key of keys.slice(1)) {
      expect(key.id).toMatch(/^[0-9a-f]{24}$/);
      expect(key.publicKey).toMatch(/^[a-z]{8}$/);
      expect(key.privateKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(key.desc).toMatch(/^generated key \d+$/);
      expect(key.roles.filter((r) => r.orgId === sim.orgId).length).toBeGreaterThanOrEqual(1);
    }
  });

  it("a key in the list carries a redacted private key, its roles and an absolute self link", async () => {
    const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys`);
    const body = json<ListBody>(reply);
    const admin = body.results[0];
    expect(admin).toEqual({
      id: "5f0000000000000000000003",
      desc: "simulator admin key",
      privateKey: `********-****-****-${sim.privateKey.slice(-12)}`,
      publicKey: "simadmin",
      roles: [
        { orgId: sim.orgId, roleName: "ORG_OWNER" },
        { groupId: sim.groupId, roleName: "GROUP_OWNER" },
      ],
      links: [{ href: `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys/5f0000000000000000000003`, rel: "self" }],
    });
    expect(reply.text).not.toContain(sim.privateKey);
  });

  it("the default page holds 100 items and its self link carries pageNum=1 and itemsPerPage=100", async () => {
    const body = json<ListBody>(await client.call("GET", `/orgs/${sim.orgId}/apiKeys`));
    expect(body.links).toEqual([
      { href: `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys?pageNum=1&itemsPerPage=100`, rel: "self" },
    ]);
    expect(body.totalCount).toBe(body.results.length);
  });

  it("1,234 keys at 500 per page are three pages with totalCount, next and previous links", async () => {
    const orgId = "5f00000000000000000000aa";
    sim.state.addOrg(orgId);
    sim.state.addApiKeys(1234, orgId);
    const base = `${sim.apiRoot}/orgs/${orgId}/apiKeys`;
    const pages: ListBody[] = [];
    for (const n of [1, 2, 3]) {
      const reply = await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=${n}&itemsPerPage=500`);
      expect(reply.status).toBe(200);
      pages.push(json<ListBody>(reply));
    }
    expect(pages.map((p) => p.results.length)).toEqual([500, 500, 234]);
    expect(pages.map((p) => p.totalCount)).toEqual([1234, 1234, 1234]);
    expect(pages[0]?.links).toEqual([
      { href: `${base}?pageNum=1&itemsPerPage=500`, rel: "self" },
      { href: `${base}?pageNum=2&itemsPerPage=500`, rel: "next" },
    ]);
    expect(pages[1]?.links).toEqual([
      { href: `${base}?pageNum=2&itemsPerPage=500`, rel: "self" },
      { href: `${base}?pageNum=1&itemsPerPage=500`, rel: "previous" },
      { href: `${base}?pageNum=3&itemsPerPage=500`, rel: "next" },
    ]);
    expect(pages[2]?.links.map((l) => l.rel)).toEqual(["self", "previous"]);
    const ids = pages.flatMap((p) => p.results.map((k) => k.id));
    expect(ids).toEqual(sim.state.apiKeys(orgId).map((k) => k.id));
    const beyond = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=4&itemsPerPage=500`),
    );
    expect(beyond.results).toEqual([]);
    expect(beyond.totalCount).toBe(1234);
  });

  it("a 5,000-key organization lists any page", async () => {
    const orgId = "5f00000000000000000000bb";
    sim.state.addApiKeys(5000, orgId);
    const body = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=10&itemsPerPage=500`),
    );
    expect(body.totalCount).toBe(5000);
    expect(body.results).toHaveLength(500);
    expect(body.links.map((l) => l.rel)).toEqual(["self", "previous"]);
  });

  it("a page cap serves at most that many keys a page whatever itemsPerPage asks, and the links say so", async () => {
    const orgId = "5f00000000000000000000c1";
    sim.state.addApiKeys(250, orgId);
    sim.faults.maxItemsPerPage(100);
    const base = `${sim.apiRoot}/orgs/${orgId}/apiKeys`;
    const first = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=1&itemsPerPage=500`),
    );
    expect(first.results).toHaveLength(100);
    expect(first.totalCount).toBe(250);
    expect(first.links).toEqual([
      { href: `${base}?pageNum=1&itemsPerPage=100`, rel: "self" },
      { href: `${base}?pageNum=2&itemsPerPage=100`, rel: "next" },
    ]);
    const third = json<ListBody>(
      await client.call("GET", `/orgs/${orgId}/apiKeys?pageNum=3&itemsPerPage=100`),
    );
    expect(third.results.map((k) => k.id)).toEqual(
      sim.state
        .apiKeys(orgId)
        .slice(200)
        .map((k) => k.id),
    );
    // A smaller page than the cap is served as asked; clear() lifts the cap.
    const small = json<ListBody>(await client.call("GET", `/orgs/${orgId}/apiKeys?itemsPerPage=30`));
    expect(small.results).toHaveLength(30);
    sim.faults.clear();
    const whole = json<ListBody>(await client.call("GET", `/orgs/${orgId}/apiKeys?itemsPerPage=500`));
    expect(whole.results).toHaveLength(250);
  });

  it("a page cap given at start survives clear(), and one outside 1 to 500 is refused", async () => {
    await expect(startSimulator({ maxItemsPerPage: 0 })).rejects.toThrow(
      /maxItemsPerPage must be an integer from 1 to 500, got 0/,
    );
    expect(() => sim.faults.maxItemsPerPage(501)).toThrow(/from 1 to 500, got 501/);
    const capped = await startSimulator({ maxItemsPerPage: 2 });
    try {
      capped.faults.clear();
      const body = json<ListBody>(
        await new DigestClient(capped).call("GET", `/orgs/${capped.orgId}/apiKeys`),
      );
      expect(body.results).toHaveLength(2);
      expect(body.totalCount).toBe(6);
    } finally {
      await capped.close();
    }
  });

  it("itemsPerPage outside 1 to 500 or a pageNum that is not a positive integer is 400 INVALID_QUERY_PARAMETER", async () => {
    for (const query of [
      "itemsPerPage=501",
      "itemsPerPage=0",
      "pageNum=0",
      "pageNum=1.5",
      "pageNum=abc",
      "itemsPerPage=-1",
    ]) {
      const reply = await client.call("GET", `/orgs/${sim.orgId}/apiKeys?${query}`);
      expect(reply.status, query).toBe(400);
      expect(json<ErrorBody>(reply)).toMatchObject({
        error: 400,
        errorCode: "INVALID_QUERY_PARAMETER",
        reason: "Bad Request",
      });
    }
    expect((await client.call("GET", `/orgs/${sim.orgId}/apiKeys?itemsPerPage=500`)).status).toBe(200);
  });

  it("a PATCH with only desc changes desc and keeps the roles", async () => {
    const key = sim.state.addApiKey({
      roles: [
        { orgId: sim.orgId, roleName: "ORG_MEMBER" },
        { groupId: sim.groupId, roleName: "GROUP_OWNER" },
      ],
    });
    const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, { desc: "new words" });
    expect(reply.status).toBe(200);
    expect(json<KeyBody>(reply)).toMatchObject({
      id: key.id,
      desc: "new words",
      publicKey: key.publicKey,
      privateKey: `********-****-****-${key.privateKey.slice(-12)}`,
      roles: key.roles,
      links: [{ href: `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys/${key.id}`, rel: "self" }],
    });
    expect(sim.state.apiKey(key.id)?.desc).toBe("new words");
  });

  it("a PATCH with roles replaces the org roles, collapses duplicates and keeps project roles", async () => {
    const key = sim.state.addApiKey({
      desc: "kept",
      roles: [
        { orgId: sim.orgId, roleName: "ORG_OWNER" },
        { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
      ],
    });
    const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, {
      roles: ["ORG_READ_ONLY", "ORG_MEMBER", "ORG_READ_ONLY"],
    });
    expect(reply.status).toBe(200);
    const body = json<KeyBody>(reply);
    expect(body.desc).toBe("kept");
    expect(body.roles).toEqual([
      { orgId: sim.orgId, roleName: "ORG_READ_ONLY" },
      { orgId: sim.orgId, roleName: "ORG_MEMBER" },
      { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" },
    ]);
    expect(sim.state.apiKey(key.id)?.roles).toEqual(body.roles);
  });

  it("a PATCH with neither desc nor roles is 400 MISSING_ATTRIBUTE and changes nothing", async () => {
    const key = sim.state.addApiKey({ desc: "same" });
    const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, {});
    expect(reply.status).toBe(400);
    expect(json<ErrorBody>(reply).errorCode).toBe("MISSING_ATTRIBUTE");
    expect(sim.state.apiKey(key.id)).toEqual(key);
  });

  it("a PATCH with invalid values is 400 naming the attribute", async () => {
    const key = sim.state.addApiKey({});
    const cases: [unknown, string, string][] = [
      [{ desc: "" }, "INVALID_ATTRIBUTE", "desc"],
      [{ desc: "x".repeat(251) }, "INVALID_ATTRIBUTE", "desc"],
      [{ desc: 7 }, "INVALID_ATTRIBUTE", "desc"],
      [{ roles: [] }, "INVALID_ATTRIBUTE", "roles"],
      [{ roles: "ORG_OWNER" }, "INVALID_ATTRIBUTE", "roles"],
      [{ roles: ["GROUP_OWNER"] }, "INVALID_ATTRIBUTE", "roles"],
      [{ roles: ["ORG_KING"] }, "INVALID_ENUM_VALUE", "ORG_KING"],
      [{ desc: "ok", publicKey: "abc" }, "INVALID_ATTRIBUTE", "publicKey"],
    ];
    for (const [body, errorCode, named] of cases) {
      const reply = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      const error = json<ErrorBody>(reply);
      expect(error.errorCode).toBe(errorCode);
      expect(error.detail).toContain(named);
    }
    expect(
      (await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, { desc: "y".repeat(250) })).status,
    ).toBe(200);
  });

  it("a PATCH of an unknown key is API_KEY_NOT_FOUND (400 as the error table says, 404 in the spec profile), bad JSON is 400 INVALID_JSON, no JSON type is 415", async () => {
    const missing = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/5f00000000000000000000ee`, {
      desc: "x",
    });
    expect(missing.status).toBe(profile === "deployed" ? 400 : 404);
    expect(json<ErrorBody>(missing).errorCode).toBe("API_KEY_NOT_FOUND");
    const key = sim.state.addApiKey({});
    const bad = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, undefined, {
      rawBody: "{desc:",
    });
    expect(bad.status).toBe(400);
    expect(json<ErrorBody>(bad).errorCode).toBe("INVALID_JSON");
    const typeless = await client.call("PATCH", `/orgs/${sim.orgId}/apiKeys/${key.id}`, undefined, {
      rawBody: '{"desc":"x"}',
      headers: { "Content-Type": "text/plain" },
    });
    expect(typeless.status).toBe(415);
    expect(json<ErrorBody>(typeless).error).toBe(415);
  });

  it("a key changed outside the API shows the change in the next list", async () => {
    const key = sim.state.addApiKey({ orgId: "5f00000000000000000000cc" });
    sim.state.updateApiKey(key.id, { desc: "changed by hand" });
    const body = json<ListBody>(await client.call("GET", "/orgs/5f00000000000000000000cc/apiKeys"));
    expect(body.results.map((k) => k.desc)).toEqual(["changed by hand"]);
    sim.state.removeApiKey(key.id);
    expect(
      json<ListBody>(await client.call("GET", "/orgs/5f00000000000000000000cc/apiKeys")).totalCount,
    ).toBe(0);
  });
});

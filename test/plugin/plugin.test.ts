/**
 * The provider plugin over gRPC, called as the engine calls it: Configure with the provider's inputs
 * (the private key a secret), then check, diff (a detailed diff of exactly the fields that change),
 * create (the private key answered as a secret), read, update, delete, import by id, the function, and
 * a dynamic resource's old state (its `__provider` text) read as the plugin's own. The same core as
 * the dynamic face, so the wire is what is asserted here: what the plugin answered, and what the
 * simulator received.
 */
import { existsSync, readFileSync } from "node:fs";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { KEY_STATE } from "../../provider/resources/org-api-key/state";
import { currentVersion } from "../../provider/resources/shared/state-version";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { UNKNOWN } from "../support/host";
import { type Plugin, plain, provpb, secret, startPlugin, struct } from "../support/plugin";
import { repoRoot } from "../support/program-dir";

const KEY = "opsmanager:index:OrgApiKey";
const ASSIGNMENT = "opsmanager:index:ApiKeyProjectAssignment";
const JOB = "opsmanager:index:LogCollectionJob";
const urn = (type: string, name = "res") => `urn:pulumi:dev::proj::${type}::${name}`;
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SCHEMA = JSON.parse(readFileSync(`${repoRoot()}/provider/plugin/schema.json`, "utf8")) as {
  resources: Record<string, { inputProperties: Record<string, unknown> }>;
};

let sim: Simulator;
let plugin: Plugin;

beforeAll(async () => {
  sim = await startSimulator({ seed: { keys: 2 }, jobDurationMs: 3_600_000 });
  plugin = await startPlugin();
  const req = new provpb.ConfigureRequest();
  req.setArgs(struct({ baseUrl: sim.url, publicKey: sim.publicKey, privateKey: secret(sim.privateKey) }));
  req.setAcceptsecrets(true);
  const res = await plugin.call<provpbTypes.ConfigureResponse>("configure", req);
  expect(res.getAcceptsecrets()).toBe(true);
});

afterAll(async () => {
  await plugin?.close();
  expect(plugin.stderr).not.toContain(sim.privateKey);
  await sim?.close();
});

beforeEach(() => sim.resetRequests());

async function check(type: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  const req = new provpb.CheckRequest().setUrn(urn(type)).setOlds(struct(olds)).setNews(struct(news));
  const res = await plugin.call<provpbTypes.CheckResponse>("check", req);
  return {
    inputs: plain(res.getInputs()),
    failures: res.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
  };
}

async function diff(type: string, id: string, olds: object, news: object, oldInputs?: object) {
  const req = new provpb.DiffRequest()
    .setUrn(urn(type))
    .setId(id)
    .setOlds(struct(olds as never))
    .setNews(struct(news as never));
  if (oldInputs !== undefined) req.setOldInputs(struct(oldInputs as never));
  const res = await plugin.call<provpbTypes.DiffResponse>("diff", req);
  const kinds = ["ADD", "ADD_REPLACE", "DELETE", "DELETE_REPLACE", "UPDATE", "UPDATE_REPLACE"];
  const detailed: Record<string, string> = {};
  res.getDetaileddiffMap().forEach((entry, name) => {
    detailed[name] = kinds[entry.getKind()]!;
  });
  // A detailed diff names inputs only: the preview shows each field with its old and new input.
  const inputs = Object.keys(SCHEMA.resources[type]!.inputProperties);
  for (const name of [...Object.keys(detailed), ...res.getDiffsList(), ...res.getReplacesList()]) {
    expect(inputs, `${type}'s diff names ${name}`).toContain(name);
  }
  return {
    changes: res.getChanges() === provpb.DiffResponse.DiffChanges.DIFF_SOME,
    replaces: res.getReplacesList(),
    detailed,
    hasDetailedDiff: res.getHasdetaileddiff(),
  };
}

async function create(type: string, properties: object) {
  const req = new provpb.CreateRequest().setUrn(urn(type)).setProperties(struct(properties as never));
  const res = await plugin.call<provpbTypes.CreateResponse>("create", req);
  return { id: res.getId(), properties: plain(res.getProperties()) };
}

async function read(type: string, id: string, properties: object = {}, inputs: object = {}) {
  const req = new provpb.ReadRequest()
    .setUrn(urn(type))
    .setId(id)
    .setProperties(struct(properties as never))
    .setInputs(struct(inputs as never));
  const res = await plugin.call<provpbTypes.ReadResponse>("read", req);
  return { id: res.getId(), properties: plain(res.getProperties()), inputs: plain(res.getInputs()) };
}

async function remove(type: string, id: string, properties: object) {
  const req = new provpb.DeleteRequest()
    .setUrn(urn(type))
    .setId(id)
    .setProperties(struct(properties as never));
  await plugin.call("delete", req);
}

const unwrapped = (value: unknown) => (value as { value: unknown }).value;

describe("test/plugin: the provider plugin over gRPC", () => {
  it("check fails a bad input naming the property and the rule, before any request; values not known yet pass", async () => {
    const bad = await check(KEY, { orgId: sim.orgId, roles: ["ORG_OWNER", "ORG_KING"], desc: "x" });
    expect(bad.failures).toHaveLength(1);
    expect(bad.failures[0]).toMatch(/^roles: roles\[1\] must be an organization role: .*"ORG_KING"/);
    const unknown = await check(KEY, { orgId: UNKNOWN, desc: UNKNOWN, roles: UNKNOWN });
    expect(unknown.failures).toEqual([]);
    expect(sim.requests).toEqual([]);
  });

  it("a created key: one POST (and the PATCH of its declared desc) signed with the configured key, its private key answered as a secret", async () => {
    const inputs = { orgId: sim.orgId, desc: "made by the plugin", roles: ["ORG_MEMBER"] };
    const checked = await check(KEY, inputs);
    expect(checked.failures).toEqual([]);
    const made = await create(KEY, checked.inputs);
    const key = sim.state.apiKey(made.id)!;
    expect(key.desc).toBe("made by the plugin");
    expect(sim.requests.map((r) => `${r.method} ${r.status}`)).toContain("POST 200");
    expect(new Set(sim.requests.filter((r) => r.authenticated).map((r) => r.digest?.username))).toEqual(
      new Set([sim.publicKey]),
    );
    expect(made.properties.privateKey).toEqual(secret(key.privateKey));
    expect(made.properties.stateVersion).toBe(currentVersion(KEY_STATE));

    // A roles change is an update of roles alone; a keepers change replaces, naming keepers.
    const roles = await diff(
      KEY,
      made.id,
      made.properties,
      { ...inputs, roles: ["ORG_MEMBER", "ORG_READ_ONLY"] },
      inputs,
    );
    expect(roles).toEqual({
      changes: true,
      replaces: [],
      detailed: { roles: "UPDATE" },
      hasDetailedDiff: true,
    });
    const keepers = await diff(
      KEY,
      made.id,
      made.properties,
      { ...inputs, keepers: { rotate: "1" } },
      inputs,
    );
    expect(keepers).toMatchObject({ replaces: ["keepers"], detailed: { keepers: "ADD_REPLACE" } });
    const org = await diff(
      KEY,
      made.id,
      made.properties,
      { ...inputs, orgId: "5f00000000000000000000ff" },
      inputs,
    );
    expect(org).toMatchObject({ replaces: ["orgId"], detailed: { orgId: "UPDATE_REPLACE" } });
    const none = await diff(KEY, made.id, made.properties, inputs, inputs);
    expect(none).toEqual({ changes: false, replaces: [], detailed: {}, hasDetailedDiff: true });
    // Naming the created key by its own id or public key adopts it in place: an update of that input.
    const adopt = await diff(KEY, made.id, made.properties, { ...inputs, apiKeyId: made.id }, inputs);
    expect(adopt).toEqual({
      changes: true,
      replaces: [],
      detailed: { apiKeyId: "ADD" },
      hasDetailedDiff: true,
    });
    // With keepers, which an adopted key cannot take, the program drops them too.
    const kept = { ...made.properties, keepers: { rotate: "1" } };
    const withKeepers = { ...inputs, keepers: { rotate: "1" } };
    const adoptKept = await diff(KEY, made.id, kept, { ...inputs, apiKeyId: made.id }, withKeepers);
    expect(adoptKept).toMatchObject({ replaces: [], detailed: { apiKeyId: "ADD", keepers: "DELETE" } });
    const byPublicKey = { ...inputs, publicKey: made.properties.publicKey };
    const adoptByPublicKey = await diff(KEY, made.id, made.properties, byPublicKey, inputs);
    expect(adoptByPublicKey).toMatchObject({ replaces: [], detailed: { publicKey: "ADD" } });

    // A refresh keeps the private key, still a secret.
    const refreshed = await read(KEY, made.id, made.properties, inputs);
    expect(refreshed.id).toBe(made.id);
    expect(refreshed.properties.privateKey).toEqual(secret(key.privateKey));

    sim.resetRequests();
    await remove(KEY, made.id, made.properties);
    expect(sim.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([
      `/api/public/v1.0/orgs/${sim.orgId}/apiKeys/${made.id}`,
    ]);
  });

  it("a preview's Create and Update answer what the provider knows, and send nothing", async () => {
    const configured = await plugin.call<provpbTypes.ConfigureResponse>(
      "configure",
      new provpb.ConfigureRequest()
        .setArgs(struct({ baseUrl: sim.url, publicKey: sim.publicKey, privateKey: secret(sim.privateKey) }))
        .setAcceptsecrets(true),
    );
    expect(configured.getSupportspreview()).toBe(true);
    const inputs = { orgId: sim.orgId, desc: "previewed", roles: ["ORG_READ_ONLY", "ORG_MEMBER"] };
    const made = await create(KEY, (await check(KEY, inputs)).inputs);
    sim.resetRequests();

    // A create: its inputs; the id and private key only the server gives stay unknown (absent).
    const preview = await plugin.call<provpbTypes.CreateResponse>(
      "create",
      new provpb.CreateRequest().setUrn(urn(KEY, "new")).setProperties(struct(inputs)).setPreview(true),
    );
    const created = plain(preview.getProperties());
    expect(created).toMatchObject({ desc: "previewed", roles: ["ORG_MEMBER", "ORG_READ_ONLY"] });
    expect(created).not.toHaveProperty("apiKeyId");
    expect(created).not.toHaveProperty("privateKey");

    // An update: the old outputs, the changed inputs laid over them; the id and private key as they were.
    const news = { ...inputs, desc: "changed in place" };
    const updated = await plugin.call<provpbTypes.UpdateResponse>(
      "update",
      new provpb.UpdateRequest()
        .setUrn(urn(KEY))
        .setId(made.id)
        .setOlds(struct(made.properties as never))
        .setNews(struct(news))
        .setPreview(true),
    );
    const outs = plain(updated.getProperties());
    // What the update derives anew from the desc (which fields it manages, what it restores) is not
    // known before it runs.
    expect(outs).toEqual({
      ...made.properties,
      desc: "changed in place",
      managed: UNKNOWN,
      adopted: UNKNOWN,
    });
    expect(outs.privateKey).toEqual(made.properties.privateKey);

    // Naming the created key by its own id adopts it in place: its private key is masked by the up,
    // so the preview cannot show it.
    const adopting = await plugin.call<provpbTypes.UpdateResponse>(
      "update",
      new provpb.UpdateRequest()
        .setUrn(urn(KEY))
        .setId(made.id)
        .setOlds(struct(made.properties as never))
        .setNews(struct({ ...inputs, apiKeyId: made.id }))
        .setPreview(true),
    );
    const adopted = plain(adopting.getProperties());
    expect(adopted.apiKeyId).toBe(made.id);
    expect(adopted.privateKey).toEqual(secret(UNKNOWN));
    expect(sim.requests).toEqual([]);
    expect(sim.state.apiKey(made.id)?.desc).toBe("previewed");
  });

  it("import: <orgId>/<apiKeyId> reads the key's inputs from the server; a malformed id names the form", async () => {
    const key =
      sim.state.apiKeys(sim.orgId).find((k) => k.id !== sim.state.apiKeys()[0]?.id) ??
      sim.state.apiKeys()[0]!;
    const found = await read(KEY, `${sim.orgId}/${key.id}`);
    expect(found.id).toBe(key.id);
    expect(found.inputs).toEqual({
      orgId: sim.orgId,
      apiKeyId: key.id,
      desc: key.desc,
      roles: key.roles
        .filter((r) => r.orgId !== undefined)
        .map((r) => r.roleName)
        .sort(),
    });
    expect(found.properties).toMatchObject({
      managed: { desc: true, roles: true, by: "apiKeyId" },
      restoreOnDelete: false,
    });
    // The code `pulumi import` writes declares exactly these inputs: no change.
    expect((await diff(KEY, found.id, found.properties, found.inputs, found.inputs)).changes).toBe(false);
    expect(sim.requests.every((r) => r.method === "GET")).toBe(true);

    sim.resetRequests();
    await expect(read(KEY, key.id)).rejects.toThrow(
      /OrgApiKey: the import id "[0-9a-f]{24}" is not of the form <orgId>\/<apiKeyId>/,
    );
    await expect(read(JOB, `${sim.groupId}/x`)).rejects.toThrow(
      /<groupId>\/<jobId>: its jobId must be 24 hexadecimal digits/,
    );
    expect(sim.requests).toEqual([]);
  });

  it("an imported key is released by delete; with restoreOnDelete set later, delete puts back what it had at import", async () => {
    const key = sim.state.addApiKey({
      orgId: sim.orgId,
      desc: "before import",
      roles: [{ orgId: sim.orgId, roleName: "ORG_MEMBER" }],
    });
    const found = await read(KEY, `${sim.orgId}/${key.id}`);
    sim.resetRequests();
    await remove(KEY, found.id, found.properties);
    expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);

    const again = await read(KEY, `${sim.orgId}/${key.id}`);
    const news = { ...again.inputs, desc: "managed now", restoreOnDelete: true };
    const req = new provpb.UpdateRequest()
      .setUrn(urn(KEY))
      .setId(again.id)
      .setOlds(struct(again.properties))
      .setNews(struct(news))
      .setOldInputs(struct(again.inputs));
    const updated = plain((await plugin.call<provpbTypes.UpdateResponse>("update", req)).getProperties());
    expect(sim.state.apiKey(key.id)!.desc).toBe("managed now");
    await remove(KEY, again.id, updated);
    expect(sim.state.apiKey(key.id)!.desc).toBe("before import");
  });

  it("a job and an assignment: created, then imported by <groupId>/<id> with the inputs they were made with", async () => {
    const jobInputs = {
      groupId: sim.groupId,
      resourceType: "REPLICASET",
      resourceName: "rs0",
      sizeRequestedPerFileBytes: 10_000_000,
      logTypes: ["MONGODB", "AUTOMATION_AGENT"],
      redacted: true,
    };
    const job = await create(JOB, (await check(JOB, jobInputs)).inputs);
    const imported = await read(JOB, `${sim.groupId}/${job.id}`);
    expect(imported.id).toBe(job.id);
    expect(imported.inputs).toEqual(jobInputs);
    expect((await diff(JOB, job.id, imported.properties, jobInputs, imported.inputs)).changes).toBe(false);
    const renamed = await diff(
      JOB,
      job.id,
      imported.properties,
      { ...jobInputs, resourceName: "rs1" },
      jobInputs,
    );
    expect(renamed).toMatchObject({
      replaces: ["resourceName"],
      detailed: { resourceName: "UPDATE_REPLACE" },
    });

    const key = sim.state.apiKeys(sim.orgId)[0]!;
    const assignmentInputs = { groupId: sim.groupId, apiKeyId: key.id, roles: ["GROUP_READ_ONLY"] };
    const assigned = await create(ASSIGNMENT, (await check(ASSIGNMENT, assignmentInputs)).inputs);
    const again = await read(ASSIGNMENT, `${sim.groupId}/${key.id}`);
    expect(again.id).toBe(assigned.id);
    expect(again.inputs).toEqual(assignmentInputs);
    const more = await diff(
      ASSIGNMENT,
      assigned.id,
      again.properties,
      { ...assignmentInputs, roles: ["GROUP_OWNER"] },
      assignmentInputs,
    );
    expect(more).toMatchObject({ replaces: [], detailed: { roles: "UPDATE" } });
  });

  it("a dynamic resource's old state, moved by alias, is read as the plugin's own (its __provider dropped)", async () => {
    const key = sim.state.apiKeys(sim.orgId)[1]!;
    const inputs = { orgId: sim.orgId, apiKeyId: key.id, desc: key.desc };
    const dynamicState = {
      __provider: "exports.handler = __f0; function __f0() { return require('pulumi-opsmanager/host'); }",
      orgId: sim.orgId,
      apiKeyId: key.id,
      publicKey: key.publicKey,
      desc: key.desc,
      roles: key.roles
        .filter((r) => r.orgId !== undefined)
        .map((r) => r.roleName)
        .sort(),
      privateKey: "",
      projectRoles: [],
      restoreOnDelete: false,
      adopted: { desc: key.desc, roles: [] },
      managed: { desc: true, roles: false, by: "apiKeyId" },
      keepers: {},
      stateVersion: 1,
    };
    const checked = await check(KEY, inputs, { ...inputs, __provider: dynamicState.__provider });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).not.toHaveProperty("__provider");
    const d = await diff(KEY, key.id, dynamicState, checked.inputs, {
      ...inputs,
      __provider: dynamicState.__provider,
    });
    expect(d.changes).toBe(false);
    const refreshed = await read(KEY, key.id, dynamicState, {
      ...inputs,
      __provider: dynamicState.__provider,
    });
    expect(refreshed.properties).not.toHaveProperty("__provider");
    expect(refreshed.inputs).toEqual(inputs);
  });

  it("getOrgApiKeys: the organization's keys, private keys redacted", async () => {
    const req = new provpb.InvokeRequest()
      .setTok("opsmanager:index:getOrgApiKeys")
      .setArgs(struct({ orgId: sim.orgId }));
    const res = await plugin.call<provpbTypes.InvokeResponse>("invoke", req);
    const keys = plain(res.getReturn()).keys as { id: string; privateKey: string }[];
    expect(keys.map((k) => k.id).sort()).toEqual(
      sim.state
        .apiKeys(sim.orgId)
        .map((k) => k.id)
        .sort(),
    );
    expect(JSON.stringify(keys)).not.toContain(sim.privateKey);
  });

  it("GetSchema answers the package's provider/plugin/schema.json, or names it when it is missing", async () => {
    const file = `${repoRoot()}/provider/plugin/schema.json`;
    const call = plugin.call<provpbTypes.GetSchemaResponse>("getSchema", new provpb.GetSchemaRequest());
    if (existsSync(file)) expect((await call).getSchema()).toBe(readFileSync(file, "utf8"));
    else await expect(call).rejects.toThrow(/provider\/plugin\/schema\.json cannot be read \(ENOENT\)/);
  });

  it("a secret input stays a secret in what check and create answer", async () => {
    const checked = await check(KEY, {
      orgId: sim.orgId,
      desc: secret("secret words"),
      roles: ["ORG_MEMBER"],
    });
    expect(checked.inputs.desc).toEqual(secret("secret words"));
    const made = await create(KEY, checked.inputs);
    expect(made.properties.desc).toEqual(secret("secret words"));
    expect((made.properties.privateKey as Record<string, unknown>)[SECRET_SIG]).toBeDefined();
    expect(unwrapped(made.properties.privateKey)).toBe(sim.state.apiKey(made.id)!.privateKey);
    await remove(KEY, made.id, made.properties);
  });
});

/**
 * The plugin's Cancel and a create's `timeout` (the engine's `customTimeouts`), over gRPC as the engine
 * calls them, while the simulator holds a request: what each create answers, how soon, and what
 * crossed the wire. A plugin process per test: Cancel holds for the rest of its life.
 */
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as statuspbTypes from "@pulumi/pulumi/proto/status_pb";
import type * as emptypbTypes from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, beforeEach, expect, it, type TestContext } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Plugin, plain, provpb, secret, startPlugin, struct } from "../support/plugin";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const statuspb = require(path.join(sdkDir, "proto", "status_pb")) as typeof statuspbTypes;
const { Empty } = require(
  require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [sdkDir] }),
) as typeof emptypbTypes;

const KEY = "opsmanager:index:OrgApiKey";
const JOB = "opsmanager:index:LogCollectionJob";

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ jobDurationMs: 3_600_000 });
});

afterAll(async () => {
  await sim?.close();
});

beforeEach(() => sim.resetRequests());

/** A configured plugin, closed when the test ends. */
async function configuredPlugin(onTestFinished: TestContext["onTestFinished"]): Promise<Plugin> {
  const plugin = await startPlugin();
  onTestFinished(() => plugin.close());
  const req = new provpb.ConfigureRequest();
  req.setArgs(struct({ baseUrl: sim.url, publicKey: sim.publicKey, privateKey: secret(sim.privateKey) }));
  req.setAcceptsecrets(true);
  await plugin.call("configure", req);
  return plugin;
}

/** A hold on the next request that matches, released when the test ends. */
function hold(onTestFinished: TestContext["onTestFinished"], method: string, pathPrefix: string) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  onTestFinished(() => release());
  sim.faults.add({ method, pathPrefix, holdUntil: held });
  return release;
}

/** The create's answer, or its error and the partially created resource it carries; and how long it took. */
async function create(plugin: Plugin, type: string, properties: object, timeoutSeconds = 0) {
  const req = new provpb.CreateRequest()
    .setUrn(`urn:pulumi:dev::proj::${type}::res`)
    .setProperties(struct(properties as never))
    .setTimeout(timeoutSeconds);
  const started = Date.now();
  try {
    const res = await plugin.call<provpbTypes.CreateResponse>("create", req);
    return { id: res.getId(), properties: plain(res.getProperties()), ms: Date.now() - started };
  } catch (error) {
    const ms = Date.now() - started;
    const details = (error as grpcTypes.ServiceError).metadata?.get("grpc-status-details-bin")[0];
    if (details === undefined) return { error: error as Error, ms };
    const any = statuspb.Status.deserializeBinary(details as Buffer).getDetailsList()[0]!;
    const partial = provpb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    return {
      error: error as Error,
      ms,
      partial: { id: partial.getId(), properties: plain(partial.getProperties()) },
    };
  }
}

const arrived = (method: string, suffix: string) =>
  expect
    .poll(() => sim.requests.some((r) => r.method === method && r.path.endsWith(suffix)), {
      timeout: 10_000,
      interval: 5,
    })
    .toBe(true);

const newKey = () => ({
  orgId: sim.orgId,
  desc: "held key",
  roles: ["ORG_MEMBER"],
  accessList: ["203.0.113.0/24"],
});

it("Cancel while the server holds a key's POST: the create answers at once, recorded as a pending create", async ({
  onTestFinished,
}) => {
  const plugin = await configuredPlugin(onTestFinished);
  hold(onTestFinished, "POST", `/orgs/${sim.orgId}/apiKeys`);
  const creating = create(plugin, KEY, newKey());
  await arrived("POST", "/apiKeys");
  await plugin.call("cancel", new Empty());
  const made = await creating;
  expect(made.error?.message).toContain(
    "was abandoned before its answer came: the operation was cancelled (Ctrl-C: the engine asked the provider to cancel); the request may have reached the server",
  );
  expect(made.error?.message).toContain("The stack records this create");
  expect(made.partial?.id).toMatch(/^pending-create-[0-9a-f]{16}$/);
  expect(made.partial?.properties.pendingCreate).toMatchObject({
    desc: expect.stringMatching(/^held key \[pulumi create/),
  });
  expect(made.ms).toBeLessThan(5_000);
  // Nothing after the POST: no listing, no DELETE.
  expect(
    sim.requests.filter((r) => r.authenticated).map((r) => `${r.method} ${r.path.split("/").pop()}`),
  ).toEqual(["POST apiKeys"]);
});

it("Cancel while the server holds a new key's access list: the key is recorded with its private key, not deleted", async ({
  onTestFinished,
}) => {
  const plugin = await configuredPlugin(onTestFinished);
  hold(onTestFinished, "POST", `/orgs/${sim.orgId}/apiKeys/`);
  const creating = create(plugin, KEY, newKey());
  await arrived("POST", "/accessList");
  await plugin.call("cancel", new Empty());
  const made = await creating;
  const key = sim.state.apiKeys().find((k) => k.desc === "held key");
  expect(key).toBeDefined();
  expect(made.error?.message).toContain(
    `The key was made (API key ${key!.id}) and is recorded in the stack with its private key, but its access list may not be set`,
  );
  expect(made.partial?.id).toBe(key!.id);
  expect(made.partial?.properties.publicKey).toBe(key!.publicKey);
  expect(JSON.stringify(made.partial?.properties)).toContain(key!.privateKey);
  expect(made.ms).toBeLessThan(5_000);
  expect(sim.requests.filter((r) => r.method === "DELETE")).toEqual([]);
});

it("Cancel while the server holds the DELETE of a new key whose access list was refused: the key is recorded, not left behind", async ({
  onTestFinished,
}) => {
  const plugin = await configuredPlugin(onTestFinished);
  sim.faults.add({
    method: "POST",
    pathPrefix: `/orgs/${sim.orgId}/apiKeys/`,
    status: 400,
    errorCode: "INVALID_ATTRIBUTE",
  });
  hold(onTestFinished, "DELETE", `/orgs/${sim.orgId}/apiKeys/`);
  const creating = create(plugin, KEY, newKey());
  await arrived("DELETE", "");
  await plugin.call("cancel", new Empty());
  const made = await creating;
  // The key whose DELETE was held (earlier tests made others with this desc).
  const deleting = sim.requests
    .find((r) => r.method === "DELETE")!
    .path.split("/")
    .pop()!;
  const key = sim.state.apiKey(deleting);
  expect(key).toBeDefined();
  expect(made.error?.message).toContain(
    `The key was made (API key ${key!.id}) and is recorded in the stack with its private key; its access list was refused`,
  );
  expect(made.partial?.id).toBe(key!.id);
  expect(JSON.stringify(made.partial?.properties)).toContain(key!.privateKey);
  expect(made.ms).toBeLessThan(5_000);
});

it("a create's timeout of 1 s (customTimeouts) on a held key POST fails in seconds, naming it, recorded as pending", async ({
  onTestFinished,
}) => {
  const plugin = await configuredPlugin(onTestFinished);
  hold(onTestFinished, "POST", `/orgs/${sim.orgId}/apiKeys`);
  const made = await create(plugin, KEY, newKey(), 1);
  expect(made.error?.message).toContain(
    "was abandoned before its answer came: the create's timeout of 1 s (customTimeouts.create) passed",
  );
  expect(made.partial?.id).toMatch(/^pending-create-/);
  expect(made.ms).toBeGreaterThanOrEqual(1_000);
  expect(made.ms).toBeLessThan(6_000);
});

it("Cancel while the server holds a job's POST: the POST is answered and the job recorded, never sent twice", async ({
  onTestFinished,
}) => {
  const plugin = await configuredPlugin(onTestFinished);
  const release = hold(onTestFinished, "POST", `/groups/${sim.groupId}/logCollectionJobs`);
  const creating = create(plugin, JOB, {
    groupId: sim.groupId,
    resourceType: "REPLICASET",
    resourceName: "rs0",
    sizeRequestedPerFileBytes: 10_000_000,
    logTypes: ["MONGODB"],
    redacted: true,
  });
  await arrived("POST", "/logCollectionJobs");
  await plugin.call("cancel", new Empty());
  setTimeout(release, 300);
  const made = await creating;
  expect(made.error).toBeUndefined();
  expect(sim.state.jobs().map((j) => j.id)).toContain(made.id);
  expect(sim.requests.filter((r) => r.method === "POST" && r.authenticated)).toHaveLength(1);
});

it("after Cancel, a create sends nothing and says so", async ({ onTestFinished }) => {
  const plugin = await configuredPlugin(onTestFinished);
  await plugin.call("cancel", new Empty());
  const made = await create(plugin, JOB, {
    groupId: sim.groupId,
    resourceType: "REPLICASET",
    resourceName: "rs1",
    sizeRequestedPerFileBytes: 10_000_000,
    logTypes: ["MONGODB"],
    redacted: true,
  });
  expect(made.error?.message).toMatch(
    /was not sent: the operation was cancelled .*No log collection job was created\./,
  );
  expect(made.partial).toBeUndefined();
  expect(sim.requests.filter((r) => r.method === "POST")).toEqual([]);
});

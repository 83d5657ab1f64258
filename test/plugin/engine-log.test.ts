/**
 * The plugin's warnings as the engine receives them, from a fake `pulumirpc.Engine` that records its
 * `Log` calls: the engine address given as the plugin's argument, by Handshake or by Attach; each
 * warning once, with the URN of the call that gave it, received before that call's answer; and what
 * Handshake answers (what Configure answers), with a preview's Create sending nothing.
 */
import * as path from "node:path";
import type * as plugpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type FakeEngine, startFakeEngine } from "../support/fake-engine";
import { type Plugin, plain, provpb, secret, startPlugin, struct } from "../support/plugin";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const plugpb = require(path.join(sdkDir, "proto", "plugin_pb")) as typeof plugpbTypes;

const JOB = "opsmanager:index:LogCollectionJob";
const urnOf = (name: string) => `urn:pulumi:dev::proj::${JOB}::${name}`;
const NO_LISTING =
  /^LogCollectionJob: the server at http:\/\/127\.0\.0\.1:\d+ has no listing of log collection jobs/;
const NO_DELETE =
  /^LogCollectionJob: the server at http:\/\/127\.0\.0\.1:\d+ has no delete of log collection jobs/;

let spec: Simulator;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  spec = await startSimulator({ profile: "spec", seed: { keys: 1 } });
});

afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
  await spec?.close();
});

async function engine(): Promise<FakeEngine> {
  const e = await startFakeEngine();
  opened.push(e);
  return e;
}

async function plugin(args: string[]): Promise<Plugin> {
  const p = await startPlugin({}, args);
  opened.push(p);
  const req = new provpb.ConfigureRequest()
    .setArgs(struct({ baseUrl: spec.url, publicKey: spec.publicKey, privateKey: secret(spec.privateKey) }))
    .setAcceptsecrets(true);
  await p.call("configure", req);
  return p;
}

/** A job the plugin creates on the spec's server: its id and state. */
async function job(p: Plugin, name: string) {
  const inputs = {
    groupId: spec.groupId,
    resourceType: "REPLICASET",
    resourceName: name,
    sizeRequestedPerFileBytes: 10_000_000,
    logTypes: ["MONGODB"],
    redacted: true,
  };
  const checked = await p.call<provpbTypes.CheckResponse>(
    "check",
    new provpb.CheckRequest().setUrn(urnOf(name)).setOlds(struct({})).setNews(struct(inputs)),
  );
  const made = await p.call<provpbTypes.CreateResponse>(
    "create",
    new provpb.CreateRequest().setUrn(urnOf(name)).setProperties(checked.getInputs()),
  );
  return { name, id: made.getId(), state: plain(made.getProperties()) };
}

const read = (p: Plugin, j: { name: string; id: string; state: object }) =>
  p.call(
    "read",
    new provpb.ReadRequest()
      .setUrn(urnOf(j.name))
      .setId(j.id)
      .setProperties(struct(j.state as never)),
  );
const remove = (p: Plugin, j: { name: string; id: string; state: object }) =>
  p.call(
    "delete",
    new provpb.DeleteRequest()
      .setUrn(urnOf(j.name))
      .setId(j.id)
      .setProperties(struct(j.state as never)),
  );

describe("test/plugin/engine-log: the plugin's warnings through the engine's Log service", () => {
  it("given the engine's address as its argument, a refresh of two jobs warns the engine once, under the first job's URN, before its answer", async () => {
    const e = await engine();
    const p = await plugin([e.address]);
    const jobs = [await job(p, "logs-a"), await job(p, "logs-b")];
    await read(p, jobs[0]!);
    expect(e.logged).toHaveLength(1);
    expect(e.logged[0]).toMatchObject({ severity: "warning", urn: urnOf("logs-a") });
    expect(e.logged[0]!.message).toMatch(NO_LISTING);
    await read(p, jobs[1]!);
    expect(e.logged).toHaveLength(1);
    expect(p.stderr).not.toMatch(/has no listing/);
  });

  it("started with no argument, Handshake gives it the engine, and answers what Configure answers", async () => {
    const e = await engine();
    const p = await startPlugin({}, []);
    opened.push(p);
    const res = await p.call<provpbTypes.ProviderHandshakeResponse>(
      "handshake",
      new provpb.ProviderHandshakeRequest().setEngineAddress(e.address),
    );
    expect({
      acceptSecrets: res.getAcceptSecrets(),
      acceptResources: res.getAcceptResources(),
      acceptOutputs: res.getAcceptOutputs(),
      supportsAutonamingConfiguration: res.getSupportsAutonamingConfiguration(),
    }).toEqual({
      acceptSecrets: true,
      acceptResources: false,
      acceptOutputs: false,
      supportsAutonamingConfiguration: false,
    });
    const configured = await p.call<provpbTypes.ConfigureResponse>(
      "configure",
      new provpb.ConfigureRequest()
        .setArgs(
          struct({ baseUrl: spec.url, publicKey: spec.publicKey, privateKey: secret(spec.privateKey) }),
        )
        .setAcceptsecrets(true),
    );
    expect([configured.getAcceptsecrets(), configured.getAcceptresources()]).toEqual([
      res.getAcceptSecrets(),
      res.getAcceptResources(),
    ]);
    const j = await job(p, "logs-handshake");
    await remove(p, j);
    expect(e.logged.map((l) => [l.severity, l.urn])).toEqual([["warning", urnOf("logs-handshake")]]);
    expect(e.logged[0]!.message).toMatch(NO_DELETE);
  });

  it("an engine that handshook calls Create in a preview: the plugin answers the inputs and sends nothing", async () => {
    const p = await plugin([]);
    const inputs = { groupId: spec.groupId, resourceType: "REPLICASET", resourceName: "rs-preview" };
    spec.resetRequests();
    const res = await p.call<provpbTypes.CreateResponse>(
      "create",
      new provpb.CreateRequest().setUrn(urnOf("preview")).setProperties(struct(inputs)).setPreview(true),
    );
    expect(plain(res.getProperties())).toEqual(inputs);
    expect(spec.requests).toEqual([]);
  });

  it("attached by hand, it warns the engine that attached; another engine is another deployment, warned anew", async () => {
    const first = await engine();
    const p = await plugin([]);
    await p.call("attach", new plugpb.PluginAttach().setAddress(first.address));
    const jobs = [await job(p, "logs-x"), await job(p, "logs-y")];
    await remove(p, jobs[0]!);
    await remove(p, jobs[1]!);
    expect(first.logged.map((l) => l.urn)).toEqual([urnOf("logs-x")]);

    const second = await engine();
    await p.call("attach", new plugpb.PluginAttach().setAddress(second.address));
    await p.call(
      "configure",
      new provpb.ConfigureRequest()
        .setArgs(
          struct({ baseUrl: spec.url, publicKey: spec.publicKey, privateKey: secret(spec.privateKey) }),
        )
        .setAcceptsecrets(true),
    );
    const later = await job(p, "logs-z");
    await remove(p, later);
    expect(second.logged.map((l) => l.urn)).toEqual([urnOf("logs-z")]);
    expect(first.logged).toHaveLength(1);
  });

  it("with no engine known, a warning goes to its stderr with the URN", async () => {
    const p = await plugin([]);
    const j = await job(p, "logs-alone");
    await remove(p, j);
    expect(p.stderr).toMatch(
      new RegExp(
        `warning: ${urnOf("logs-alone").replace(/[$.*+?()[\]{}|^\\]/g, "\\$&")}: LogCollectionJob: the server at`,
      ),
    );
  });
});

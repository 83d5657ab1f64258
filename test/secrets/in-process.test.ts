import type * as http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeAllHttpClients } from "../../provider/client";
import * as job from "../../provider/resources/log-collection-job/log-collection-job-methods";
import * as key from "../../provider/resources/org-api-key/org-api-key-methods";
import { configure, resetRuntimeForTests } from "../../provider/resources/shared/runtime";
import { resetServerMemoryForTests } from "../../provider/resources/shared/server-memory";
import { parseDigestHeader, startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type DigestServer, sendJson, startDigestServer } from "../client/support/digest-server";
import { expectNoSecret, PRIVATE_KEY, PROVIDER_MASKED, SERVER_REDACTED } from "./support";

const OTHER_ORG = "5f00000000000000000000ee";
const WRONG_PRIVATE_KEY = "0ff1ce00-WRONG-PRIVATE-KEY-0000deadbeef";

let sim: Simulator;
const produced: Array<[string, unknown]> = [];

function configureWith(config: Record<string, string>): void {
  resetRuntimeForTests();
  void configure({ config: { get: (k: string) => config[k] } });
}

function simConfig(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
    ...extra,
  };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

const jobInputs = () => ({
  groupId: sim.groupId,
  resourceType: "REPLICASET" as const,
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 1_000_000,
  logTypes: ["DATABASE" as const],
  redacted: true,
});

beforeAll(async () => {
  for (const name of ["OPSMANAGER_PRIVATE_KEY", "MCLI_PRIVATE_API_KEY", "OPSMANAGER_TIMEOUT_SECONDS"])
    delete process.env[name];
  sim = await startSimulator({ seed: { privateKey: PRIVATE_KEY, keys: 5 } });
  sim.state.addOrg(OTHER_ORG);
});

afterAll(async () => {
  await closeAllHttpClients();
  await sim?.close();
});

beforeEach(() => {
  resetServerMemoryForTests();
  configureWith(simConfig());
});

describe("the private key in-process", () => {
  it("outputs carry the private key exactly as the server redacted it", async () => {
    const created = await key.create({ orgId: sim.orgId, publicKey: sim.publicKey, desc: "admin key" });
    produced.push(["create outputs", created]);
    expect(created.outs.privateKey).toBe(SERVER_REDACTED);
    const updated = await key.update(created.id, created.outs, {
      orgId: sim.orgId,
      publicKey: sim.publicKey,
      desc: "admin key, renamed",
    });
    produced.push(["update outputs", updated]);
    expect(updated.outs.privateKey).toBe(SERVER_REDACTED);
    const read = await key.read(created.id, updated.outs);
    produced.push(["read outputs", read]);
    expect(read.props).toMatchObject({ privateKey: SERVER_REDACTED });
    await key.remove(created.id, { ...updated.outs, restoreOnDelete: true });
    expectNoSecret(produced, []);
  });

  it("a key listing that carries the private key whole is masked in the outputs", async () => {
    const k = sim.state.addApiKey({ orgId: OTHER_ORG, privateKey: PRIVATE_KEY });
    const whole = {
      id: k.id,
      desc: k.desc,
      publicKey: k.publicKey,
      privateKey: PRIVATE_KEY,
      roles: [{ orgId: OTHER_ORG, roleName: "ORG_MEMBER" }],
      links: [{ href: `${sim.apiRoot}/orgs/${OTHER_ORG}/apiKeys/${k.id}`, rel: "self" }],
    };
    sim.faults.add({
      method: "GET",
      pathPrefix: `/orgs/${OTHER_ORG}/apiKeys`,
      raw: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ results: [whole], totalCount: 1, links: [] }),
      },
    });
    const created = await key.create({ orgId: OTHER_ORG, apiKeyId: k.id });
    expect(created.outs.privateKey).toBe(PROVIDER_MASKED);
    expect(sim.requests.some((r) => r.fault === "raw-200")).toBe(true);

    // The same from a PATCH response.
    sim.faults.add({
      method: "PATCH",
      raw: { status: 200, contentType: "application/json", body: JSON.stringify(whole) },
    });
    const updated = await key.update(k.id, created.outs, { orgId: OTHER_ORG, apiKeyId: k.id, desc: "new" });
    expect(updated.outs.privateKey).toBe(PROVIDER_MASKED);
    expectNoSecret(
      [
        ["create outputs", created],
        ["update outputs", updated],
      ],
      [],
    );
  });

  it("a private key with an asterisk in front but shown whole is masked too", async () => {
    const k = sim.state.addApiKey({ orgId: OTHER_ORG, privateKey: PRIVATE_KEY });
    const view = {
      id: k.id,
      desc: k.desc,
      publicKey: k.publicKey,
      privateKey: `*${PRIVATE_KEY}`,
      roles: [{ orgId: OTHER_ORG, roleName: "ORG_MEMBER" }],
      links: [],
    };
    sim.faults.add({
      method: "GET",
      pathPrefix: `/orgs/${OTHER_ORG}/apiKeys`,
      raw: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ results: [view], totalCount: 1, links: [] }),
      },
    });
    const created = await key.create({ orgId: OTHER_ORG, apiKeyId: k.id });
    expect(created.outs.privateKey).toBe(`*${PROVIDER_MASKED}`);
    expectNoSecret([["create outputs", created]], []);
  });

  it("no error of any kind shows the key, in its message or anywhere util.inspect looks", async () => {
    const errors: Array<[string, unknown]> = [];
    const target = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;

    configureWith(simConfig({ "opsmanager:publicKey": "nosuchkey" }));
    const wrongUser = await failure(key.create({ orgId: sim.orgId, apiKeyId: target.id }));
    expect(wrongUser.message).toMatch(/401 — the server rejected the credentials/);
    errors.push(["401 (wrong public key)", wrongUser]);

    resetServerMemoryForTests();
    configureWith(simConfig({ "opsmanager:privateKey": WRONG_PRIVATE_KEY }));
    const wrongKey = await failure(key.create({ orgId: sim.orgId, apiKeyId: target.id }));
    expect(wrongKey.message).toMatch(/401/);
    errors.push(["401 (wrong private key)", wrongKey]);

    configureWith(simConfig());
    const created = await key.create({ orgId: sim.orgId, apiKeyId: target.id });
    sim.faults.add({ method: "PATCH", status: 500 });
    const serverError = await failure(
      key.update(target.id, created.outs, { orgId: sim.orgId, apiKeyId: target.id, desc: "x" }),
    );
    expect(serverError.message).toMatch(/500/);
    errors.push(["500 on PATCH", serverError]);

    sim.faults.add({ method: "POST", status: 500, actThenFail: true });
    const uncertain = await failure(job.create(jobInputs()));
    errors.push(["500 on POST", uncertain]);

    configureWith(simConfig({ "opsmanager:timeoutSeconds": "0.2" }));
    sim.faults.add({ method: "POST", delayMs: 1_000 });
    const timeout = await failure(job.create(jobInputs()));
    expect(timeout.message).toMatch(/time/i);
    errors.push(["timeout on POST", timeout]);

    configureWith(simConfig());
    const badInput = await failure(job.create({ ...jobInputs(), groupId: "not/a/group" }));
    expect(badInput.message).toMatch(/groupId/);
    errors.push(["bad input past check", badInput]);

    const unread = await failure(key.read(target.id, {}));
    errors.push(["read without orgId", unread]);

    configureWith({ "opsmanager:privateKey": PRIVATE_KEY });
    const missing = await failure(key.check({}, { orgId: sim.orgId, apiKeyId: target.id }));
    expect(missing.message).toMatch(/settings missing: opsmanager:baseUrl, opsmanager:publicKey/);
    errors.push(["missing settings", missing]);

    configureWith(simConfig({ "opsmanager:baseUrl": `https://admin:${PRIVATE_KEY}@om.example.com` }));
    const inUrl = await failure(key.check({}, { orgId: sim.orgId, apiKeyId: target.id }));
    expect(inUrl.message).toMatch(/must not carry credentials/);
    errors.push(["key in the base URL", inUrl]);

    expectNoSecret(errors, [WRONG_PRIVATE_KEY]);
    // The request log too: the simulator scrubs every private key it knows into "[REDACTED]", so the
    // marker would show one crossed the wire.
    const log = JSON.stringify(sim.requests);
    expect(log).not.toContain("[REDACTED]");
    expectNoSecret([["request log", log]], [WRONG_PRIVATE_KEY]);
  });
});

describe("a hostile server that echoes the request back", () => {
  const HOSTILE_USER = "hostilepub";
  const ORG = "5f0000000000000000000abc";
  let server: DigestServer;
  let mode = "";

  // Every way a server could send back what it was sent: a JSON error, an HTML page, a body that is
  // not JSON, a redirect, and a challenge of a scheme the client does not speak.
  const answer = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const auth = req.headers.authorization ?? "";
    const headers = JSON.stringify(req.headers);
    switch (mode) {
      case "json-error":
        sendJson(res, 400, {
          detail: `you sent ${headers}`,
          errorCode: "INVALID_ATTRIBUTE",
          reason: auth,
          parameters: [auth, req.headers],
          error: 400,
        });
        return;
      case "html-error":
        res.writeHead(500, { "content-type": "text/html" });
        res.end(`<html><pre>${auth}</pre><pre>${headers}</pre></html>`);
        return;
      case "text-ok":
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(`headers: ${headers}`);
        return;
      case "bad-shape":
        sendJson(res, 200, { results: [{ id: auth, echo: req.headers }], totalCount: "many", links: auth });
        return;
      case "redirect":
        res.writeHead(302, { location: `https://elsewhere.example/login?h=${encodeURIComponent(auth)}` });
        res.end();
        return;
      case "other-scheme":
        res.writeHead(401, {
          "www-authenticate": `Basic realm="${auth.replace(/"/g, "'")}"`,
          "content-type": "application/json",
        });
        res.end(JSON.stringify({ detail: auth, reason: headers }));
        return;
      default:
        sendJson(res, 200, { results: [], totalCount: 0, links: [] });
    }
  };

  beforeAll(async () => {
    server = await startDigestServer({ username: HOSTILE_USER, password: PRIVATE_KEY, handler: answer });
  });
  afterAll(async () => server?.close());
  beforeEach(() => {
    configureWith({
      "opsmanager:baseUrl": server.origin,
      "opsmanager:publicKey": HOSTILE_USER,
      "opsmanager:privateKey": PRIVATE_KEY,
      "opsmanager:timeoutSeconds": "5",
    });
    server.clearRecords();
  });

  const MODES = ["json-error", "html-error", "text-ok", "bad-shape", "redirect", "other-scheme"];

  async function echoed(m: string) {
    mode = m;
    const error = await failure(key.create({ orgId: ORG, apiKeyId: "5f00000000000000000000aa" }));
    const sent = server.requests.map((r) => r.authorization).filter((a): a is string => a !== undefined);
    expect(sent.length).toBeGreaterThan(0);
    const hashes = sent.map((a) => parseDigestHeader(a)?.response).filter((h): h is string => !!h);
    return { error, sent, hashes };
  }

  it.each(MODES)("%s: neither the key nor an Authorization header sent is in the error", async (m) => {
    const { error, sent } = await echoed(m);
    expectNoSecret([[`${m} error`, error]], sent);
  });

  // The digest `response` hash of a header sent (an offline guess of the key can be checked against
  // it) must not come back either, however the server escaped or encoded it.
  it.each(MODES)("%s: no digest response hash is in the error", async (m) => {
    const { error, hashes } = await echoed(m);
    expectNoSecret([[`${m} error`, error]], hashes);
  });
});

/**
 * A server whose certificate comes from a private certificate authority, through the real host: the
 * CA given as `opsmanager:caCertificate` or as `OPSMANAGER_CA_CERTIFICATE` is trusted in addition to
 * Node's roots; without it, or with the wrong CA, the call fails saying the certificate is not trusted
 * and naming both places to set the CA. Verification is never turned off.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { checkThenCreate, jobUrn, keyUrn, type ProviderFixture, providerFixture } from "../faults/support";
import type { HostCallError } from "../support/host";
import { repoRoot } from "../support/program-dir";
import { makeTestCa, type TestCa } from "../support/tls";

const PRIVATE_KEY = "9d8c7b6a-tls0-4e5f-8a9b-TLSSUITE0001";

let ca: TestCa;
let sim: Simulator;
let fx: ProviderFixture;

const settings = (extra: Record<string, string> = {}) => ({
  "opsmanager:baseUrl": sim.url,
  "opsmanager:publicKey": sim.publicKey,
  "opsmanager:privateKey": PRIVATE_KEY,
  ...extra,
});

const job = (name: string) =>
  fx.withJob({
    groupId: sim.groupId,
    resourceType: "PROCESS",
    resourceName: name,
    sizeRequestedPerFileBytes: 2_048,
    logTypes: ["DATABASE"],
    redacted: true,
  });

beforeAll(async () => {
  ca = makeTestCa();
  sim = await startSimulator({
    tls: { key: ca.serverKey, cert: ca.serverCert },
    seed: { keys: 5, privateKey: PRIVATE_KEY },
  });
  fx = await providerFixture();
});

afterAll(async () => {
  await fx?.close();
  await sim?.close();
});

describe("HTTPS with a private certificate authority, through the host", () => {
  it("serves HTTPS with a certificate the test CA signed", () => {
    expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("trusts the server when opsmanager:caCertificate names the CA file, and creates", async () => {
    sim.resetRequests();
    const host = await fx.newHost(settings({ "opsmanager:caCertificate": ca.caPath }));
    const key = sim.state.apiKeys()[1]!;
    const adopted = await checkThenCreate(
      host,
      keyUrn("tls-config"),
      fx.withKey({ orgId: sim.orgId, apiKeyId: key.id, desc: "over TLS (config)" }),
    );
    expect(adopted.id).toBe(key.id);
    const created = await checkThenCreate(host, jobUrn("tls-config"), job("rs0/node-config"));
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    expect(sim.state.apiKey(key.id)?.desc).toBe("over TLS (config)");
    expect(sim.state.jobs().map((j) => j.id)).toContain(created.id);
    // The key's listing and PATCH; the job declared DATABASE, sent first as declared and refused by the
    // deployed server (400, no job made), then MONGODB.
    expect(sim.requests.filter((q) => q.authenticated).map((q) => `${q.method} ${q.status}`)).toEqual([
      "GET 200",
      "PATCH 200",
      "POST 400",
      "POST 201",
    ]);
  });

  it("trusts the server when OPSMANAGER_CA_CERTIFICATE names the CA file, and creates", async () => {
    const host = await fx.newHost(settings(), { OPSMANAGER_CA_CERTIFICATE: ca.caPath });
    const created = await checkThenCreate(host, jobUrn("tls-env"), job("rs0/node-env"));
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    expect(sim.state.jobs().map((j) => j.id)).toContain(created.id);
  });

  it("trusts localhost too: the certificate names it", async () => {
    const host = await fx.newHost({
      ...settings({ "opsmanager:caCertificate": ca.caPath }),
      "opsmanager:baseUrl": `https://localhost:${sim.port}`,
    });
    const created = await checkThenCreate(host, jobUrn("tls-localhost"), job("rs0/node-localhost"));
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
  });

  const untrusted: Array<[string, () => Record<string, string>, () => Record<string, string>]> = [
    ["without a CA", () => settings(), () => ({})],
    [
      "with a CA that did not sign the server's certificate (stack config)",
      () => settings({ "opsmanager:caCertificate": makeTestCa("Some Other CA").caPath }),
      () => ({}),
    ],
    [
      "with a CA that did not sign the server's certificate (environment)",
      () => settings(),
      () => ({ OPSMANAGER_CA_CERTIFICATE: makeTestCa("Some Other CA").caPath }),
    ],
  ];

  it.each(untrusted)(
    "%s: fails saying the certificate is not trusted and naming both settings, sending nothing",
    async (_name, config, env) => {
      sim.resetRequests();
      const host = await fx.newHost(config(), env());
      for (const [urn, props] of [
        [jobUrn("untrusted"), job("rs0/untrusted")],
        [keyUrn("untrusted"), fx.withKey({ orgId: sim.orgId, apiKeyId: sim.state.apiKeys()[1]!.id })],
      ] as const) {
        const error = (await checkThenCreate(host, urn, props).catch((e) => e)) as HostCallError;
        expect(error.message).toContain("failed: the server's certificate is not trusted (");
        expect(error.message).toContain("if the server uses a private certificate authority");
        expect(error.message).toContain("opsmanager:caCertificate");
        expect(error.message).toContain("OPSMANAGER_CA_CERTIFICATE");
        // The call first (after the resource), and the server whose certificate failed, named.
        expect(error.message).toMatch(/^\w+ \([^)]*\): (GET|POST) \/(groups|orgs)\//);
        expect(error.message).toContain(`, server at ${new URL(sim.url).host})`);
        // A failed verification is not a reason to think a job may exist.
        expect(error.message).not.toContain("may have");
      }
      // The TLS handshake failed, so no HTTP request reached the server, and none was retried into it.
      expect(sim.requests).toEqual([]);
    },
  );

  it("http:// for this HTTPS server fails at once, saying to use https:// and naming opsmanager:baseUrl", async () => {
    sim.resetRequests();
    const host = await fx.newHost({
      ...settings({ "opsmanager:caCertificate": ca.caPath }),
      "opsmanager:baseUrl": `http://127.0.0.1:${sim.port}`,
    });
    for (const [urn, props] of [
      [jobUrn("plain-http"), job("rs0/plain-http")],
      [keyUrn("plain-http"), fx.withKey({ orgId: sim.orgId, apiKeyId: sim.state.apiKeys()[1]!.id })],
    ] as const) {
      const error = (await checkThenCreate(host, urn, props).catch((e) => e)) as HostCallError;
      // At once: one attempt, no backoff (a retried error counts its attempts), and no timeout met.
      expect(error.message).not.toMatch(/attempts? over|timed out/);
      expect(error.message).toContain(
        `failed: the server at 127.0.0.1:${sim.port} speaks HTTPS, not plain HTTP; use https://127.0.0.1:${sim.port} ` +
          "as the base URL (opsmanager:baseUrl or the environment variable OPSMANAGER_BASE_URL or MCLI_OPS_MANAGER_URL)",
      );
      expect(error.message).not.toContain("\n");
      // Nothing an HTTPS server could read was sent: no job can exist.
      expect(error.message).not.toContain("may have");
    }
    expect(sim.requests).toEqual([]);
  });

  it("never turns verification off: no NODE_TLS_REJECT_UNAUTHORIZED, no rejectUnauthorized in the package", () => {
    const dist = path.join(repoRoot(), "dist");
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith(".js")) files.push(full);
      }
    };
    walk(path.join(dist, "provider"));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((f) =>
      /NODE_TLS_REJECT_UNAUTHORIZED|rejectUnauthorized|checkServerIdentity/.test(readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
    // The hosts above ran without it in their environment (NO_ENV), and this process never had it set.
    expect(process.env.NODE_TLS_REJECT_UNAUTHORIZED).toBeUndefined();
  });
});

/**
 * A full scenario through Pulumi's real dynamic-provider host with a recognizable private key, then a
 * scan of everything it produced: the key may only feed the digest computation.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import {
  type Host,
  type HostCallError,
  JOB_TYPE,
  KEY_TYPE,
  NO_ENV,
  type Props,
  SETTING_ENV,
  startHost,
  urn,
} from "../support/host";
import { makeProgramDir, type ProgramDir } from "../support/program-dir";
import { expectNoSecret, PRIVATE_KEY, SERVER_REDACTED } from "./support";

const req = createRequire(__filename);
const { ORG_API_KEY_PROVIDER, LOG_COLLECTION_JOB_PROVIDER } = req(
  "../../dist/provider/resources/shared/providers.js",
);

const WRONG_PRIVATE_KEY = "0ff1ce00-WRONG-PRIVATE-KEY-0000deadbeef";
const KEY_URN = urn(KEY_TYPE, "key");
const JOB_URN = urn(JOB_TYPE, "job");

let sim: Simulator;
let program: ProgramDir;
const hosts: Host[] = [];
/** Everything the provider produced, by what it is. */
const produced: Array<[string, unknown]> = [];
/** Outputs only: what state would hold. */
const outputs: Array<[string, unknown]> = [];

async function newHost(config: Record<string, string>, env: Record<string, string | undefined> = {}) {
  const host = await startHost({ cwd: program.dir, env: { ...NO_ENV, ...env } });
  hosts.push(host);
  const configured = await host.configure(config);
  produced.push(["Configure response", configured]);
  return { host, configured };
}

async function failure(what: string, promise: Promise<unknown>): Promise<HostCallError> {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as HostCallError | undefined;
  expect(error, what).toBeInstanceOf(Error);
  produced.push([`${what}: error`, { message: error!.message, partial: error!.partial }]);
  return error!;
}

function recordOutputs(what: string, value: unknown): void {
  produced.push([what, value]);
  outputs.push([what, value]);
}

beforeAll(async () => {
  for (const name of SETTING_ENV) delete process.env[name];
  sim = await startSimulator({ seed: { privateKey: PRIVATE_KEY, keys: 5 } });
  program = await makeProgramDir();
});

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await sim?.close();
  await program?.cleanup();
});

describe("the private key in stack config, through the real host", () => {
  let keyText: string;
  let jobText: string;
  const stackConfig = () => ({
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": PRIVATE_KEY,
  });
  const withKey = (p: Props) => ({ ...p, __provider: keyText });
  const withJob = (p: Props) => ({ ...p, __provider: jobText });
  const jobInputs = (name = "rs0") => ({
    groupId: sim.groupId,
    resourceType: "REPLICASET",
    resourceName: name,
    sizeRequestedPerFileBytes: 1_000_000,
    logTypes: ["DATABASE", "FTDC"],
    redacted: true,
  });

  beforeAll(async () => {
    keyText = ORG_API_KEY_PROVIDER;
    jobText = LOG_COLLECTION_JOB_PROVIDER;
    produced.push(["OrgApiKey provider text", keyText], ["LogCollectionJob provider text", jobText]);
  });

  it("a scenario of both resources, with every kind of failure, leaves the key nowhere", async () => {
    const { host, configured } = await newHost(stackConfig());
    // The host declares it does not accept secrets (NOTES.md). So the engine unwraps the secret
    // opsmanager:privateKey and hands it to configure() in plain text, and marks an output secret only
    // when an input of the same name was secret: nothing the provider returns is protected by Pulumi.
    // The provider must therefore never return the key, or any config value, in an output.
    expect(configured.acceptSecrets).toBe(false);

    // OrgApiKey on the very key whose private key is the secret: the server shows it redacted.
    const adminInputs = { orgId: sim.orgId, publicKey: sim.publicKey, desc: "admin", roles: ["ORG_OWNER"] };
    const adminDesc = sim.state.apiKeys().find((k) => k.publicKey === sim.publicKey)!.desc;
    const checked = await host.check(KEY_URN, {}, withKey(adminInputs));
    produced.push(["OrgApiKey check", checked]);
    expect(checked.failures).toEqual([]);
    const created = await host.create(KEY_URN, withKey(checked.inputs));
    recordOutputs("OrgApiKey create", created);
    expect(created.properties.privateKey).toBe(SERVER_REDACTED);
    produced.push([
      "OrgApiKey diff",
      await host.diff(created.id, KEY_URN, created.properties, withKey({ ...adminInputs, desc: "admin 2" })),
    ]);
    const updated = await host.update(
      created.id,
      KEY_URN,
      created.properties,
      withKey({ ...adminInputs, desc: "admin 2", restoreOnDelete: true }),
    );
    recordOutputs("OrgApiKey update", updated);
    expect(updated.properties.privateKey).toBe(SERVER_REDACTED);
    const { host: refresh } = await newHost(stackConfig());
    const read = await refresh.read(created.id, KEY_URN, updated.properties);
    recordOutputs("OrgApiKey read", read);
    expect(read.properties.privateKey).toBe(SERVER_REDACTED);
    // `pulumi destroy`: a process of its own (this one adopted the key, so it would take a delete here
    // for the old resource's, after its replacement).
    const { host: destroy } = await newHost(stackConfig());
    await destroy.delete(created.id, KEY_URN, withKey(updated.properties));
    // restoreOnDelete sent a PATCH back to the desc the key had.
    expect(sim.state.apiKey(created.id)?.desc).toBe(adminDesc);

    // LogCollectionJob: check, create, diff, update, read, delete.
    const jobChecked = await host.check(JOB_URN, {}, withJob(jobInputs()));
    produced.push(["LogCollectionJob check", jobChecked]);
    const job = await host.create(JOB_URN, withJob(jobChecked.inputs));
    recordOutputs("LogCollectionJob create", job);
    produced.push([
      "LogCollectionJob diff",
      await host.diff(job.id, JOB_URN, job.properties, withJob(jobInputs("rs1"))),
    ]);
    recordOutputs(
      "LogCollectionJob update",
      await host.update(job.id, JOB_URN, job.properties, withJob(jobInputs())),
    );
    recordOutputs("LogCollectionJob read", await host.read(job.id, JOB_URN, job.properties));
    await host.delete(job.id, JOB_URN, withJob(job.properties));

    // Another key: none of the config values is in its outputs or the job's.
    const other = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
    const plain = await host.create(
      KEY_URN,
      withKey({ orgId: sim.orgId, apiKeyId: other.id, desc: "other" }),
    );
    recordOutputs("OrgApiKey create (another key)", plain);
    const configValues = Object.values(stackConfig());
    expectNoSecret(
      [
        ["OrgApiKey outputs (another key)", plain],
        ["LogCollectionJob outputs", job],
      ],
      configValues,
    );

    // Failures: wrong public key, wrong private key (401s), a server error on PATCH and POST, a
    // timeout, bad inputs at check and past it, settings missing, the key pasted into the base URL.
    const { host: wrongUser } = await newHost({ ...stackConfig(), "opsmanager:publicKey": "nosuchkey" });
    const e401 = await failure(
      "401 wrong public key",
      wrongUser.create(KEY_URN, withKey({ orgId: sim.orgId, apiKeyId: other.id })),
    );
    expect(e401.message).toMatch(/401 — the server rejected the credentials/);
    const { host: wrongKey } = await newHost({
      ...stackConfig(),
      "opsmanager:privateKey": WRONG_PRIVATE_KEY,
    });
    await failure("401 wrong private key", wrongKey.create(JOB_URN, withJob(jobInputs())));

    sim.faults.add({ method: "PATCH", status: 500 });
    const e500 = await failure(
      "500 on PATCH",
      host.update(
        plain.id,
        KEY_URN,
        plain.properties,
        withKey({ orgId: sim.orgId, apiKeyId: other.id, desc: "x" }),
      ),
    );
    expect(e500.message).toMatch(/failed: 500/);
    sim.faults.add({ method: "POST", status: 500, actThenFail: true });
    await failure("500 on POST", host.create(JOB_URN, withJob(jobInputs("rs2"))));

    const { host: slow } = await newHost({ ...stackConfig(), "opsmanager:timeoutSeconds": "0.3" });
    sim.faults.add({ method: "POST", delayMs: 1_500 });
    const timeout = await failure("timeout on POST", slow.create(JOB_URN, withJob(jobInputs("rs3"))));
    expect(timeout.message).toMatch(/time/i);

    const bad = await host.check(
      KEY_URN,
      {},
      withKey({ orgId: "a/b", apiKeyId: "", desc: " ", roles: ["GROUP_OWNER"], privateKey: PRIVATE_KEY }),
    );
    expect(bad.failures.length).toBeGreaterThan(3);
    // The check inputs echo what the program gave; a private key given as an input is the program's
    // own doing, so only the failures' reasons are scanned here.
    produced.push(["bad check failures", bad.failures]);
    await failure("bad input past check", host.create(JOB_URN, withJob({ ...jobInputs(), groupId: "../x" })));

    const { host: missing } = await newHost({ "opsmanager:privateKey": PRIVATE_KEY });
    const eMissing = await failure(
      "settings missing",
      missing.check(KEY_URN, {}, withKey({ orgId: sim.orgId, apiKeyId: other.id })),
    );
    expect(eMissing.message).toMatch(/settings missing: opsmanager:baseUrl, opsmanager:publicKey/);
    const { host: inUrl } = await newHost({
      ...stackConfig(),
      "opsmanager:baseUrl": `https://admin:${PRIVATE_KEY}@om.example.com`,
    });
    await failure("key in the base URL", inUrl.check(JOB_URN, {}, withJob(jobInputs())));

    // The scan: results, errors, provider texts, everything every host printed, the request log.
    for (const h of hosts)
      produced.push([`host ${h.pid} stdout`, h.stdout], [`host ${h.pid} stderr`, h.stderr]);
    // The hosts log the errors of check (and other calls) on stderr: it is part of what is scanned.
    expect(hosts.map((h) => h.stderr).join("")).toMatch(/settings missing/);
    const log = JSON.stringify(sim.requests);
    produced.push(["simulator request log", log]);
    // The simulator scrubs any private key it knows into "[REDACTED]" in its log: the marker would
    // mean a key crossed the wire.
    expect(log).not.toContain("[REDACTED]");
    expectNoSecret(produced, [WRONG_PRIVATE_KEY]);
  });
});

describe("a created key's private key, through the real host", () => {
  it("is in its privateKey output and nowhere else: no other output, error, log line, provider text or request", async () => {
    const k = { text: ORG_API_KEY_PROVIDER as string };
    const withKey = (p: Props) => ({ ...p, __provider: k.text });
    const config = {
      "opsmanager:baseUrl": sim.url,
      "opsmanager:publicKey": sim.publicKey,
      "opsmanager:privateKey": PRIVATE_KEY,
    };
    const { host } = await newHost(config);
    const seen: Array<[string, unknown]> = [["OrgApiKey provider text", k.text]];
    const inputs = { orgId: sim.orgId, desc: "made for the scan", roles: ["ORG_MEMBER"] };
    const created = await host.create(KEY_URN, withKey(inputs));
    const made = created.properties.privateKey as string;
    expect(made).toBe(sim.state.apiKey(created.id)!.privateKey);
    const { host: refresh } = await newHost(config);
    const read = await refresh.read(created.id, KEY_URN, created.properties);
    expect(read.properties.privateKey).toBe(made);
    const updated = await host.update(
      created.id,
      KEY_URN,
      read.properties,
      withKey({ ...inputs, desc: "scan 2" }),
    );
    expect(updated.properties.privateKey).toBe(made);
    // Outputs hold it in privateKey only: every other field is scanned.
    for (const [what, result] of [
      ["create", created],
      ["read", read],
      ["update", updated],
    ] as const) {
      const { privateKey: _secret, ...rest } = result.properties;
      seen.push([`${what} outputs but privateKey`, rest]);
    }
    seen.push(["read inputs", read.inputs]);
    // Failures about this key: a 500 on its PATCH, and on its DELETE.
    sim.faults.add({ method: "PATCH", status: 500 });
    seen.push([
      "500 on PATCH",
      await failure("500 on PATCH", host.update(created.id, KEY_URN, updated.properties, withKey(inputs))),
    ]);
    sim.faults.add({ method: "DELETE", status: 500, times: 8 });
    seen.push([
      "500 on DELETE",
      await failure("500 on DELETE", host.delete(created.id, KEY_URN, updated.properties)),
    ]);
    sim.faults.clear();
    await host.delete(created.id, KEY_URN, updated.properties);
    expect(sim.state.apiKey(created.id)).toBeUndefined();
    // A create answered with JSON cut short right inside a private key (another than the provider's own,
    // which the client redacts anyway): no part of the body in the error.
    const CUT_KEY = "0ff1ce00-cut-RECOGNIZABLE-body-0000beefcafe";
    sim.faults.add({
      method: "POST",
      actThenFail: true,
      raw: {
        status: 200,
        contentType: "application/json",
        body: `{"id":"5f00","privateKey":"${CUT_KEY}`,
      },
    });
    const cut = await failure(
      "create answered with a cut body",
      host.create(KEY_URN, withKey({ ...inputs, desc: "cut" })),
    );
    expect(cut.message).toMatch(/it was deleted, and no key is left behind/);
    seen.push(["cut create", cut]);
    seen.push(
      ["host stdout", host.stdout],
      ["host stderr", host.stderr],
      ["refresh host stderr", refresh.stderr],
      ["request log", JSON.stringify(sim.requests)],
    );
    expectNoSecret(seen, [made, made.slice(0, -12)]);
  });
});

describe("the private key in the environment only", () => {
  it("is in no serialized provider text, output, or anything the host printed", async () => {
    // The provider texts are the package's constants (shared/providers.ts): nothing of the
    // environment enters them; they are scanned with everything the host printed.
    const keyText: string = ORG_API_KEY_PROVIDER;
    const jobText: string = LOG_COLLECTION_JOB_PROVIDER;
    const seen: Array<[string, unknown]> = [
      ["OrgApiKey provider text", keyText],
      ["LogCollectionJob provider text", jobText],
    ];
    const { host } = await newHost(
      { "opsmanager:baseUrl": sim.url },
      { OPSMANAGER_PUBLIC_KEY: sim.publicKey, OPSMANAGER_PRIVATE_KEY: PRIVATE_KEY },
    );
    const inputs = { orgId: sim.orgId, publicKey: sim.publicKey, desc: "from env", __provider: keyText };
    const created = await host.create(KEY_URN, inputs);
    expect(created.properties.privateKey).toBe(SERVER_REDACTED);
    const updated = await host.update(created.id, KEY_URN, created.properties, { ...inputs, desc: "env 2" });
    const read = await host.read(created.id, KEY_URN, updated.properties);
    await host.delete(created.id, KEY_URN, updated.properties);
    const job = await host.create(JOB_URN, {
      groupId: sim.groupId,
      resourceType: "CLUSTER",
      resourceName: "c0",
      sizeRequestedPerFileBytes: 1,
      logTypes: ["FTDC"],
      redacted: false,
      __provider: jobText,
    });
    const jobRead = await host.read(job.id, JOB_URN, job.properties);
    seen.push(
      ["create", created],
      ["update", updated],
      ["read", read],
      ["job create", job],
      ["job read", jobRead],
      ["host stdout", host.stdout],
      ["host stderr", host.stderr],
      ["request log", JSON.stringify(sim.requests)],
    );
    expectNoSecret(seen, []);
  });
});

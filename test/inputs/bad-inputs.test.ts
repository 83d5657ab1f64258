import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as assignment from "../../provider/resources/api-key-project-assignment/api-key-project-assignment-methods";
import * as job from "../../provider/resources/log-collection-job/log-collection-job-methods";
import * as key from "../../provider/resources/org-api-key/org-api-key-methods";
import { configure, resetRuntimeForTests } from "../../provider/resources/shared/runtime";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import {
  type Host,
  type HostCallError,
  JOB_TYPE,
  KEY_TYPE,
  NO_ENV,
  SETTING_ENV,
  startHost,
  urn,
} from "../support/host";
import { makeProgramDir, type ProgramDir } from "../support/program-dir";
import { ALL_BAD, type ConfigRow, GOOD, type InputRow, inputsOf, ROWS, type StackConfig } from "./catalogue";

const req = createRequire(__filename);
const { ORG_API_KEY_PROVIDER, LOG_COLLECTION_JOB_PROVIDER, API_KEY_PROJECT_ASSIGNMENT_PROVIDER } = req(
  "../../dist/provider/resources/shared/providers.js",
);

const URNS = {
  OrgApiKey: urn(KEY_TYPE, "key"),
  LogCollectionJob: urn(JOB_TYPE, "job"),
  ApiKeyProjectAssignment: urn("pulumi-nodejs:dynamic/opsmanager:ApiKeyProjectAssignment", "assignment"),
};

const inputRows = ROWS.filter((r): r is InputRow => r.target !== "config");
const configRows = ROWS.filter((r): r is ConfigRow => r.target === "config");

let sim: Simulator;
let program: ProgramDir;
const texts: Record<InputRow["target"], string> = {
  OrgApiKey: "",
  LogCollectionJob: "",
  ApiKeyProjectAssignment: "",
};
const hosts: Host[] = [];

const resolved = (config: StackConfig): StackConfig =>
  Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v.replace("{url}", sim.url)]));

const goodConfig = (): StackConfig => ({
  "opsmanager:baseUrl": sim.url,
  "opsmanager:publicKey": sim.publicKey,
  "opsmanager:privateKey": sim.privateKey,
});

async function newHost(config: StackConfig): Promise<Host> {
  const host = await startHost({ cwd: program.dir, env: NO_ENV });
  hosts.push(host);
  await host.configure(config);
  return host;
}

/** The failure must name the property, and its reason must name it too and state the rule. */
function expectNamed(failures: Array<{ property: string; reason: string }>, row: InputRow): void {
  expect(failures.map((f) => f.property)).toEqual([row.property]);
  const reason = failures[0]!.reason;
  expect(reason).toContain(row.property);
  expect(reason).toMatch(row.rule);
}

/** A settings error must name the setting and state the rule, and never echo a credential. */
function expectConfigError(error: unknown, row: ConfigRow): void {
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).toContain(row.property);
  expect(message).toMatch(row.rule);
  if (row.secret !== undefined) expect(message).not.toContain(row.secret);
}

beforeAll(async () => {
  for (const name of SETTING_ENV) delete process.env[name];
  sim = await startSimulator();
  program = await makeProgramDir();
  texts.OrgApiKey = ORG_API_KEY_PROVIDER;
  texts.LogCollectionJob = LOG_COLLECTION_JOB_PROVIDER;
  texts.ApiKeyProjectAssignment = API_KEY_PROJECT_ASSIGNMENT_PROVIDER;
});

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await sim?.close();
  await program?.cleanup();
});

it("the catalogue holds at least 40 bad inputs, each row named once", () => {
  expect(ROWS.length).toBeGreaterThanOrEqual(40);
  expect(new Set(ROWS.map((r) => r.name)).size).toBe(ROWS.length);
});

describe("bad inputs through the real dynamic-provider host", () => {
  let host: Host;
  beforeAll(async () => {
    host = await newHost(goodConfig());
  });
  beforeEach(() => sim.resetRequests());

  it("the good inputs pass", async () => {
    for (const [target, inputs] of Object.entries(GOOD) as [InputRow["target"], Record<string, unknown>][]) {
      const r = await host.check(URNS[target], {}, { ...inputs, __provider: texts[target] });
      expect(r.failures).toEqual([]);
    }
  });

  it.each(inputRows.map((r) => [r.target, r.name, r] as const))("%s: %s", async (target, _name, row) => {
    const r = await host.check(URNS[target], {}, { ...inputsOf(row), __provider: texts[target] });
    expectNamed(r.failures, row);
    expect(sim.requests).toHaveLength(0);
  });

  it.each(Object.entries(ALL_BAD).map(([t, c]) => [t as InputRow["target"], c] as const))(
    "%s: check names every bad property at once",
    async (target, c) => {
      const r = await host.check(URNS[target], {}, { ...c.inputs, __provider: texts[target] });
      expect(r.failures.map((f) => f.property).sort()).toEqual(c.properties);
      for (const f of r.failures) expect(f.reason).toContain(f.property);
      expect(sim.requests).toHaveLength(0);
    },
  );
});

describe("bad settings through the real dynamic-provider host", () => {
  // One host per row, as one `pulumi up` gets one host with one stack config.
  const rowHosts = new Map<string, Host>();
  beforeAll(async () => {
    for (let i = 0; i < configRows.length; i += 6) {
      await Promise.all(
        configRows.slice(i, i + 6).map(async (row) => {
          rowHosts.set(row.name, await newHost(resolved(row.config)));
        }),
      );
    }
  });
  beforeEach(() => sim.resetRequests());

  it.each(configRows.map((r) => [r.name, r] as const))("config: %s", async (_name, row) => {
    const host = rowHosts.get(row.name)!;
    for (const target of Object.keys(GOOD) as InputRow["target"][]) {
      const inputs = GOOD[target];
      const error = (await host.check(URNS[target], {}, { ...inputs, __provider: texts[target] }).then(
        () => undefined,
        (e) => e,
      )) as HostCallError | undefined;
      expectConfigError(error, row);
    }
    expect(sim.requests).toHaveLength(0);
    if (row.secret !== undefined) expect(host.stdout + host.stderr).not.toContain(row.secret);
  });
});

describe("bad inputs in-process", () => {
  const methods = { OrgApiKey: key, LogCollectionJob: job, ApiKeyProjectAssignment: assignment };
  const configureWith = (config: StackConfig) => {
    resetRuntimeForTests();
    void configure({ config: { get: (k: string) => config[k] } });
  };
  beforeEach(() => {
    configureWith(goodConfig());
    sim.resetRequests();
  });

  it.each(inputRows.map((r) => [r.target, r.name, r] as const))("%s: %s", async (target, _name, row) => {
    const r = await methods[target].check({}, inputsOf(row));
    expectNamed(r.failures, row);
    expect(sim.requests).toHaveLength(0);
  });

  it.each(Object.entries(ALL_BAD).map(([t, c]) => [t as InputRow["target"], c] as const))(
    "%s: check names every bad property at once",
    async (target, c) => {
      const r = await methods[target].check({}, c.inputs);
      expect(r.failures.map((f) => f.property).sort()).toEqual(c.properties);
      expect(sim.requests).toHaveLength(0);
    },
  );

  it.each(configRows.map((r) => [r.name, r] as const))("config: %s", async (_name, row) => {
    configureWith(resolved(row.config));
    for (const target of Object.keys(GOOD) as InputRow["target"][]) {
      const inputs = GOOD[target];
      const error = await methods[target].check({}, { ...inputs }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expectConfigError(error, row);
      expect((error as { code?: string }).code).toBe("OM_ERR_CONFIG");
      expect((error as { settings?: string[] }).settings).toContain(row.property);
    }
    expect(sim.requests).toHaveLength(0);
  });
});

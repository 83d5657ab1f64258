/**
 * A provider fixture for suites that drive Pulumi's real dynamic-provider host: the serialized
 * providers as the built package defines them, a program directory holding the packed package, hosts
 * started with no Ops Manager setting leaking in from the test's environment, and the engine's way of
 * calling a provider (check, then create with the checked inputs, so many at a time).
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, expect } from "vitest";
import { HttpClient } from "../../provider/client";
import { startSimulator } from "../../simulator";
import type { SeedOptions, Simulator, SimulatorOptions } from "../../simulator/types";
import { type Host, type HostCallError, NO_ENV, type Props, startHost } from "./host";
import { makeProgramDir, type ProgramDir } from "./program-dir";

const req = createRequire(__filename);

/** A program directory and the `__provider` texts of both resources. */
export interface ProviderFixture {
  program: ProgramDir;
  keyText: string;
  jobText: string;
  hosts: Host[];
  /** Starts a host in the program directory (environment: {@link NO_ENV} plus `env`) and configures it. */
  newHost(config: Record<string, string> | null, env?: Record<string, string | undefined>): Promise<Host>;
  withKey(props: Props): Props;
  withJob(props: Props): Props;
  /**
   * Closes every host and removes the program directory, then asserts that nothing any host printed
   * carries one of `secrets`.
   */
  close(...secrets: string[]): Promise<void>;
}

/** Builds the fixture; `npm run build` must have run (the providers come from `dist/`). */
export async function providerFixture(): Promise<ProviderFixture> {
  const { ORG_API_KEY_PROVIDER, LOG_COLLECTION_JOB_PROVIDER } = req(
    "../../dist/provider/resources/shared/providers.js",
  );
  const program = await makeProgramDir();
  const keyText: string = ORG_API_KEY_PROVIDER;
  const jobText: string = LOG_COLLECTION_JOB_PROVIDER;
  const hosts: Host[] = [];
  return {
    program,
    keyText,
    jobText,
    hosts,
    async newHost(config, env = {}) {
      const host = await startHost({ cwd: program.dir, env: { ...NO_ENV, ...env } });
      hosts.push(host);
      if (config) await host.configure(config);
      return host;
    },
    withKey: (props) => ({ ...props, __provider: keyText }),
    withJob: (props) => ({ ...props, __provider: jobText }),
    async close(...secrets) {
      await Promise.all(hosts.map((h) => h.close()));
      await program.cleanup();
      for (const h of hosts) {
        for (const secret of secrets) expect(h.stdout + h.stderr).not.toContain(secret);
      }
    },
  };
}

/** A simulator and the hosts that drive it, for the tests of one file. */
export interface SimulatorWithHosts {
  readonly sim: Simulator;
  readonly fixture: ProviderFixture;
  /** The private keys that creates handed out: no host may have printed one (checked at the end). */
  readonly handedOut: string[];
  /** Someone changing things by hand with the admin key, outside Pulumi (mongocli, the UI). */
  readonly byHand: HttpClient;
  /**
   * A host configured for the simulator with its admin key (and `extra` stack config): a `pulumi up`,
   * `refresh` or `destroy` of its own.
   */
  newHost(extra?: Record<string, string>): Promise<Host>;
}

/**
 * Starts, before the file's tests, a simulator whose admin key is `privateKey` and a provider fixture;
 * after them, closes both and asserts that nothing a host printed carries the admin key or one of
 * `handedOut`. Hooks the file registers later run after it starts and before it closes.
 */
export function simulatorWithHosts(
  privateKey: string,
  options: Omit<SimulatorOptions, "seed"> & { seed?: Omit<SeedOptions, "privateKey"> } = {},
): SimulatorWithHosts {
  let sim: Simulator | undefined;
  let fixture: ProviderFixture | undefined;
  let byHand: HttpClient | undefined;
  const handedOut: string[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ ...options, seed: { ...options.seed, privateKey } });
    fixture = await providerFixture();
  });
  afterAll(async () => {
    await fixture?.close(privateKey, ...handedOut);
    await byHand?.close();
    await sim?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("simulatorWithHosts: used before its beforeAll ran");
    return value;
  };
  return {
    get sim() {
      return started(sim);
    },
    get fixture() {
      return started(fixture);
    },
    handedOut,
    get byHand() {
      const server = started(sim);
      byHand ??= new HttpClient({
        baseUrl: server.apiRoot,
        username: server.publicKey,
        password: privateKey,
      });
      return byHand;
    },
    newHost(extra = {}) {
      const server = started(sim);
      return started(fixture).newHost({
        "opsmanager:baseUrl": server.url,
        "opsmanager:publicKey": server.publicKey,
        "opsmanager:privateKey": privateKey,
        ...extra,
      });
    },
  };
}

/**
 * What the engine does for a new resource: Check, then (no failures) Create with the checked inputs.
 * Rejects with the host's error, or with the check failures.
 */
export async function checkThenCreate(host: Host, resourceUrn: string, props: Props) {
  const checked = await host.check(resourceUrn, {}, props);
  if (checked.failures.length > 0) {
    throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  }
  return host.create(resourceUrn, { ...checked.inputs, __provider: props.__provider });
}

/** Runs `work` over `items`, at most `concurrency` at a time (the engine's `--parallel`). */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { status: "fulfilled", value: await work(items[index] as T, index) };
      } catch (reason) {
        results[index] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** The error a host call failed with; the test fails if it succeeded or threw something else. */
export async function failureOf(promise: Promise<unknown>): Promise<HostCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as HostCallError;
}

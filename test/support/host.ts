/**
 * Drives the SDK's real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, the
 * way the Pulumi engine does, so provider behaviour can be tested without the Pulumi CLI.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as statuspbTypes from "@pulumi/pulumi/proto/status_pb";
import type * as emptypbTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as structpbTypes from "google-protobuf/google/protobuf/struct_pb";
import { SETTINGS } from "../../provider/resources/shared/settings";

/** The value the engine sends for an input that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Type tokens of the package's two resources. */
export const KEY_TYPE = "pulumi-nodejs:dynamic/opsmanager:OrgApiKey";
export const JOB_TYPE = "pulumi-nodejs:dynamic/opsmanager:LogCollectionJob";

/** The environment variables the provider reads its settings from (one list: the provider's own). */
export const SETTING_ENV: readonly string[] = Object.values(SETTINGS).flatMap((s) => s.env);

/**
 * Every variable the provider reads, and Node's own TLS overrides, removed from a host's environment:
 * only what a test configures reaches the host, never the shell's settings.
 */
export const NO_ENV: Record<string, undefined> = Object.fromEntries(
  [...SETTING_ENV, "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_EXTRA_CA_CERTS"].map((name) => [name, undefined]),
);

/** The type token of a `pulumi.dynamic.Resource` created without a module or type override. */
export const DYNAMIC_RESOURCE_TYPE = "pulumi-nodejs:dynamic:Resource";

/** Project name the host is started with (`PULUMI_NODEJS_PROJECT`) unless `env` overrides it. */
export const TEST_PROJECT = "proj";

/** Stack name the host is started with (`PULUMI_NODEJS_STACK`) unless `env` overrides it. */
export const TEST_STACK = "test";

/**
 * Builds a resource URN: `urn:pulumi:test::proj::<type>::<name>`. `type` defaults to the dynamic
 * resource type; any type token (e.g. `pulumi-nodejs:dynamic/opsmanager:ApiKey`) is accepted.
 */
export function urn(type: string = DYNAMIC_RESOURCE_TYPE, name = "res"): string {
  return `urn:pulumi:${TEST_STACK}::${TEST_PROJECT}::${type}::${name}`;
}

/** A JSON-like object as carried in a `google.protobuf.Struct`. */
export type Props = Record<string, unknown>;

/** A resource's properties without the serialized provider (`__provider`), as a test compares them. */
export const strip = ({ __provider, ...rest }: Props): Props => rest;

/** Result of {@link Host.configure}. */
export interface ConfigureResult {
  acceptSecrets: boolean;
}

/** Result of {@link Host.check}. */
export interface CheckResult {
  inputs: Props;
  failures: Array<{ property: string; reason: string }>;
}

/** Result of {@link Host.diff}. */
export interface DiffResult {
  changes: "DIFF_SOME" | "DIFF_NONE" | "DIFF_UNKNOWN";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** Result of {@link Host.create}. */
export interface CreateResult {
  id: string;
  properties: Props;
}

/** Result of {@link Host.read}. */
export interface ReadResult {
  id: string;
  properties: Props;
  /** Present only when the provider's `read` returned `inputs`. */
  inputs?: Props;
}

/** Result of {@link Host.update}. */
export interface UpdateResult {
  properties: Props;
}

/** The partial-creation detail (`pulumirpc.ErrorResourceInitFailed`) carried by a failed create/update. */
export interface PartialCreate {
  id: string;
  properties: Props;
  reasons: string[];
}

/** An error returned by the host for a gRPC call. `message` is the gRPC status details text. */
export interface HostCallError extends Error {
  /** The gRPC status code (2 = UNKNOWN for errors thrown by provider methods). */
  grpcCode: number;
  /** Set when the status carries an `ErrorResourceInitFailed` detail. */
  partial?: PartialCreate;
}

/** A running dynamic-provider host and a gRPC client connected to it. */
export interface Host {
  /** Process id of the host. */
  readonly pid: number;
  /** Port the host listens on (127.0.0.1). */
  readonly port: number;
  /** Everything the host printed on stdout so far. */
  readonly stdout: string;
  /** Everything the host printed on stderr so far (the host logs errors from check/diff/read/delete here). */
  readonly stderr: string;
  /** Milliseconds from spawning the process until it printed its port. */
  readonly startupMs: number;
  /** Sends `Configure` with both the `variables` map and the `args` struct set to `config`. */
  configure(config: Record<string, string>): Promise<ConfigureResult>;
  check(urn: string, olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, urn: string, olds: Props, news: Props): Promise<DiffResult>;
  /** Rejects with a {@link HostCallError}; `partial` is set for a partially created resource. */
  create(urn: string, properties: Props): Promise<CreateResult>;
  read(id: string, urn: string, properties: Props): Promise<ReadResult>;
  /** Rejects with a {@link HostCallError}; `partial` is set when the error carried `id`. */
  update(id: string, urn: string, olds: Props, news: Props): Promise<UpdateResult>;
  delete(id: string, urn: string, properties: Props): Promise<void>;
  /** Current resident set size of the host (VmRSS), in bytes; 0 once it has exited. */
  rssBytes(): number;
  /** Peak resident set size of the host (VmHWM), in bytes; 0 once it has exited. */
  peakRssBytes(): number;
  /** Whether the host process has exited. */
  readonly exited: boolean;
  /** Closes the channel, kills the host and waits for it to exit. Safe to call more than once. */
  close(): Promise<void>;
}

/** Options for {@link startHost}. */
export interface StartHostOptions {
  /** Program directory: the host runs here and resolves `require(...)` from its `node_modules`. */
  cwd: string;
  /**
   * Environment overrides, merged over `process.env` and the test defaults
   * (`PULUMI_NODEJS_PROJECT`, `PULUMI_NODEJS_STACK`, `PULUMI_PROJECT`, `PULUMI_STACK`).
   * A key set to `undefined` is removed from the host's environment.
   */
  env?: NodeJS.ProcessEnv;
  /** Node binary to run the host with. Defaults to `process.execPath`. */
  nodeBinary?: string;
  /**
   * How long to wait for the host to print its port. Defaults to 50 s: a host starts in about a second,
   * but one CI run saw a start pass 30 s on a loaded machine. The limit is there to end a hang with what
   * the process was doing, so it stays under vitest's 60 s for a test; a test that allows more passes more.
   */
  startTimeoutMs?: number;
  /**
   * Start the host from an ES module that imports its entry, as an ES module wrapper or loader would:
   * the host then has no `require.main`. Default false.
   */
  fromEsModule?: boolean;
}

interface Modules {
  grpc: typeof grpcTypes;
  provgrpc: typeof provgrpcTypes;
  provpb: typeof provpbTypes;
  statuspb: typeof statuspbTypes;
  structpb: typeof structpbTypes;
}

let modulesCache: Modules | undefined;

/** Loads gRPC, google-protobuf and the provider stubs through the SDK so every class is the SDK's own. */
function modules(): Modules {
  if (modulesCache === undefined) {
    const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    const fromSdk = (id: string): unknown => require(require.resolve(id, { paths: [sdkDir] }));
    modulesCache = {
      grpc: fromSdk("@grpc/grpc-js") as typeof grpcTypes,
      provgrpc: require(path.join(sdkDir, "proto", "provider_grpc_pb")) as typeof provgrpcTypes,
      provpb: require(path.join(sdkDir, "proto", "provider_pb")) as typeof provpbTypes,
      statuspb: require(path.join(sdkDir, "proto", "status_pb")) as typeof statuspbTypes,
      structpb: fromSdk("google-protobuf/google/protobuf/struct_pb") as typeof structpbTypes,
    };
  }
  return modulesCache;
}

/**
 * What the machine says of a process that has not answered in time: its state and the CPU it has used
 * (from /proc, where there is one), and the load average, so that a slow start reads apart from a hang.
 */
function processFacts(pid: number | undefined, startedAt: number): string {
  const facts = [`${((performance.now() - startedAt) / 1000).toFixed(1)} s since spawn`];
  try {
    // Fields after the command's parenthesis: state is the 1st, utime and stime the 12th and 13th, in
    // clock ticks (USER_HZ, 100 a second on Linux whatever the kernel's own rate).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    facts.push(`process state ${fields[0]}`, `${(ticks / 100).toFixed(2)} s of CPU used`);
  } catch {
    facts.push("no /proc entry for it");
  }
  try {
    const wchan = readFileSync(`/proc/${pid}/wchan`, "utf8").trim();
    if (wchan && wchan !== "0") facts.push(`waiting in ${wchan}`);
  } catch {}
  try {
    facts.push(`load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
  } catch {}
  return facts.join(", ");
}

const MAX_MESSAGE = 400 * 1024 * 1024;
const PARTIAL_TYPE = "pulumirpc.ErrorResourceInitFailed";

/**
 * Spawns `node <cwd>/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js 127.0.0.1:1` in `cwd`,
 * waits for the port it prints as its first stdout line and connects a `ResourceProviderClient`.
 *
 * Call {@link Host.configure} first, as the engine does: the host keeps the config it receives there and
 * hands it to a provider's `configure` when it first deserializes that provider.
 */
export async function startHost(opts: StartHostOptions): Promise<Host> {
  const { grpc, provgrpc, provpb, statuspb, structpb } = modules();
  const { Struct } = structpb;
  const entry = path.join(
    opts.cwd,
    "node_modules",
    "@pulumi",
    "pulumi",
    "cmd",
    "dynamic-provider",
    "index.js",
  );
  if (!existsSync(entry)) {
    throw new Error(`no dynamic-provider host at ${entry}: is @pulumi/pulumi in the program's node_modules?`);
  }

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_NODEJS_PROJECT: TEST_PROJECT,
    PULUMI_NODEJS_STACK: TEST_STACK,
    PULUMI_PROJECT: TEST_PROJECT,
    PULUMI_STACK: TEST_STACK,
  };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }

  const started = performance.now();
  const importEntry =
    'import { pathToFileURL } from "node:url"; await import(pathToFileURL(process.argv[1]).href);';
  const args = opts.fromEsModule ? ["--input-type=module", "-e", importEntry, entry] : [entry];
  const child: ChildProcess = spawn(opts.nodeBinary ?? process.execPath, [...args, "127.0.0.1:1"], {
    cwd: opts.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      resolve();
    });
  });
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
  });

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const limitMs = opts.startTimeoutMs ?? 50_000;
      const timer = setTimeout(
        () =>
          reject(
            new Error(`host printed no port within ${limitMs} ms (${processFacts(child.pid, started)})`),
          ),
        limitMs,
      );
      child.stdout?.on("data", (chunk: string) => {
        stdout += chunk;
        const nl = stdout.indexOf("\n");
        if (nl >= 0) {
          clearTimeout(timer);
          const line = stdout.slice(0, nl).trim();
          const n = Number(line);
          if (Number.isInteger(n) && n > 0) resolve(n);
          else reject(new Error(`host printed ${JSON.stringify(line)} instead of a port`));
        }
      });
      child.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`host exited (code ${code}, signal ${signal}) before printing a port`));
      });
    });
  } catch (err) {
    if (!exited) child.kill("SIGKILL");
    await exitPromise;
    const e = err as Error;
    e.message = `${e.message}\nstderr:\n${stderr}`;
    throw e;
  }
  const startupMs = performance.now() - started;

  const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });

  const toStruct = (obj: Props): structpbTypes.Struct =>
    Struct.fromJavaScript(obj as Record<string, structpbTypes.JavaScriptValue>);
  const fromStruct = (s: structpbTypes.Struct | undefined): Props => (s ? (s.toJavaScript() as Props) : {});

  const toError = (err: grpcTypes.ServiceError): HostCallError => {
    const e = new Error(err.details ?? err.message) as HostCallError;
    e.grpcCode = err.code;
    const bins = err.metadata?.get("grpc-status-details-bin") ?? [];
    for (const bin of bins) {
      const raw = typeof bin === "string" ? Buffer.from(bin, "base64") : bin;
      const status = statuspb.Status.deserializeBinary(new Uint8Array(raw));
      for (const any of status.getDetailsList()) {
        if (any.getTypeName() === PARTIAL_TYPE) {
          const detail = provpb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
          e.partial = {
            id: detail.getId(),
            properties: fromStruct(detail.getProperties()),
            reasons: detail.getReasonsList(),
          };
        }
      }
    }
    return e;
  };

  type Callback<Res> = (err: grpcTypes.ServiceError | null, res: Res) => void;
  const call = <Res>(invoke: (callback: Callback<Res>) => unknown): Promise<Res> =>
    new Promise<Res>((resolve, reject) => {
      invoke((err, res) => {
        if (err) reject(toError(err));
        else resolve(res);
      });
    });

  const diffChanges = (c: number): DiffResult["changes"] => {
    const D = provpb.DiffResponse.DiffChanges;
    if (c === D.DIFF_SOME) return "DIFF_SOME";
    if (c === D.DIFF_NONE) return "DIFF_NONE";
    return "DIFF_UNKNOWN";
  };

  const procStatus = (field: "VmRSS" | "VmHWM"): number => {
    if (exited || child.pid === undefined) return 0;
    try {
      const text = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(text);
      return m?.[1] ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  };

  let closed = false;

  const host: Host = {
    pid: child.pid ?? -1,
    port,
    startupMs,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    get exited() {
      return exited;
    },

    async configure(config) {
      const req = new provpb.ConfigureRequest();
      const vars = req.getVariablesMap();
      for (const [k, v] of Object.entries(config)) vars.set(k, v);
      req.setArgs(toStruct(config));
      req.setAcceptsecrets(true);
      req.setAcceptresources(true);
      const res = await call<provpbTypes.ConfigureResponse>((cb) => client.configure(req, cb));
      return { acceptSecrets: res.getAcceptsecrets() };
    },

    async check(u, olds, news) {
      const req = new provpb.CheckRequest();
      req.setUrn(u);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<provpbTypes.CheckResponse>((cb) => client.check(req, cb));
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },

    async diff(id, u, olds, news) {
      const req = new provpb.DiffRequest();
      req.setId(id);
      req.setUrn(u);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<provpbTypes.DiffResponse>((cb) => client.diff(req, cb));
      return {
        changes: diffChanges(res.getChanges()),
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },

    async create(u, properties) {
      const req = new provpb.CreateRequest();
      req.setUrn(u);
      req.setProperties(toStruct(properties));
      const res = await call<provpbTypes.CreateResponse>((cb) => client.create(req, cb));
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },

    async read(id, u, properties) {
      const req = new provpb.ReadRequest();
      req.setId(id);
      req.setUrn(u);
      req.setProperties(toStruct(properties));
      const res = await call<provpbTypes.ReadResponse>((cb) => client.read(req, cb));
      const out: ReadResult = { id: res.getId(), properties: fromStruct(res.getProperties()) };
      if (res.hasInputs()) out.inputs = fromStruct(res.getInputs());
      return out;
    },

    async update(id, u, olds, news) {
      const req = new provpb.UpdateRequest();
      req.setId(id);
      req.setUrn(u);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<provpbTypes.UpdateResponse>((cb) => client.update(req, cb));
      return { properties: fromStruct(res.getProperties()) };
    },

    async delete(id, u, properties) {
      const req = new provpb.DeleteRequest();
      req.setId(id);
      req.setUrn(u);
      req.setProperties(toStruct(properties));
      await call<emptypbTypes.Empty>((cb) => client.delete(req, cb));
    },

    rssBytes: () => procStatus("VmRSS"),
    peakRssBytes: () => procStatus("VmHWM"),

    async close() {
      if (!closed) {
        closed = true;
        client.close();
      }
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => {
          if (!exited) child.kill("SIGKILL");
        }, 5_000);
        await exitPromise;
        clearTimeout(timer);
      }
    },
  };
  return host;
}

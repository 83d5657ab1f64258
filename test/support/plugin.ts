/**
 * Runs the provider plugin as the engine does (`bin/pulumi-resource-opsmanager`, which prints its
 * port) and calls it with the SDK's own `pulumirpc.ResourceProvider` stubs, so that the plugin can be
 * tested method by method without the Pulumi CLI.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as emptypbTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as structpbTypes from "google-protobuf/google/protobuf/struct_pb";
import { NO_ENV, type Props } from "./host";
import { repoRoot } from "./program-dir";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = (id: string): unknown => require(require.resolve(id, { paths: [sdkDir] }));
const grpc = fromSdk("@grpc/grpc-js") as typeof grpcTypes;
/** The SDK's provider messages. */
export const provpb = require(path.join(sdkDir, "proto", "provider_pb")) as typeof provpbTypes;
const provgrpc = require(path.join(sdkDir, "proto", "provider_grpc_pb")) as typeof provgrpcTypes;
const { Struct } = fromSdk("google-protobuf/google/protobuf/struct_pb") as typeof structpbTypes;
/** The SDK's empty message, the request of GetPluginInfo. */
export const { Empty } = fromSdk("google-protobuf/google/protobuf/empty_pb") as typeof emptypbTypes;

/** The plugin's executable in this checkout (runs `dist/`: build first). */
export const PLUGIN_BIN = path.join(repoRoot(), "bin", "pulumi-resource-opsmanager");

/** A JSON object as a Struct. */
export const struct = (value: Props): structpbTypes.Struct =>
  Struct.fromJavaScript(value as Record<string, structpbTypes.JavaScriptValue>);
/** A Struct as a JSON object. */
export const plain = (value: structpbTypes.Struct | undefined): Props =>
  (value?.toJavaScript() ?? {}) as Props;

/** A value as the engine sends a secret to a provider that accepts secrets. */
export const secret = (value: unknown) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  value,
});

/** A running plugin and a client of it. */
export interface Plugin {
  client: provgrpcTypes.ResourceProviderClient;
  /** Calls `method` with `request`, resolving with its answer or rejecting with the gRPC error. */
  call<Res>(method: string, request: unknown): Promise<Res>;
  /** The port it printed. */
  readonly port: number;
  /** Its exit code once it exited, else `null`. */
  readonly exitCode: number | null;
  readonly stderr: string;
  /** What it wrote to standard output, the port's line first. */
  readonly stdout: string;
  close(): Promise<void>;
  /** Ends it with `signal` (the engine's is SIGINT), resolving with how it ended. */
  end(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the plugin with nothing of the shell's provider settings in its environment, given `args`
 * (by default an engine address where no engine listens). `command` runs it: by default this
 * checkout's {@link PLUGIN_BIN}; a release's executable, or a wrapper and its arguments, otherwise.
 * `as` runs it as another user (spawn's `uid` and `gid`, with no supplementary groups; root only).
 */
export async function startPlugin(
  env: Record<string, string> = {},
  args: readonly string[] = ["127.0.0.1:1"],
  command: readonly [string, ...string[]] = [PLUGIN_BIN],
  as: { uid: number; gid: number } | undefined = undefined,
): Promise<Plugin> {
  const child: ChildProcess = spawn(command[0], [...command.slice(1), ...args], {
    env: { ...process.env, ...NO_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...as,
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let stdout = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("\n")) resolve(Number(stdout.trim().split("\n")[0]));
    });
    child.once("exit", (code) => reject(new Error(`plugin exited ${code} before its port:\n${stderr}`)));
    // Not started at all (no such command, or one its user may not run): no exit follows.
    child.once("error", (error) => reject(new Error(`plugin not started: ${error.message}`)));
  });
  const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    client,
    port,
    get exitCode() {
      return child.exitCode;
    },
    call<Res>(method: string, request: unknown) {
      return new Promise<Res>((resolve, reject) => {
        const fn = (client as unknown as Record<string, (req: unknown, cb: unknown) => void>)[method]!.bind(
          client,
        );
        fn(request, (error: grpcTypes.ServiceError | null, res: Res) =>
          error ? reject(error) : resolve(res),
        );
      });
    },
    get stderr() {
      return stderr;
    },
    get stdout() {
      return stdout;
    },
    async close() {
      client.close();
      child.kill("SIGTERM");
      await exited;
    },
    async end(signal) {
      client.close();
      child.kill(signal);
      return exited;
    },
  };
}

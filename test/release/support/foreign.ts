/**
 * A plugin binary of another platform, run here through an emulator (qemu-user for linux-arm64, wine for
 * windows-amd64) and called over gRPC as the engine calls it: the SDK's own `pulumirpc.ResourceProvider`
 * stubs, on the port the binary prints.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as pluginpbTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as provgrpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { NO_ENV } from "../../support/host";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [sdkDir] })) as typeof grpcTypes;
const provgrpc = require(path.join(sdkDir, "proto", "provider_grpc_pb")) as typeof provgrpcTypes;
const provpb = require(path.join(sdkDir, "proto", "provider_pb")) as typeof provpbTypes;
const { Empty } = require(
  require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [sdkDir] }),
) as {
  Empty: new () => unknown;
};

export interface ForeignPlugin {
  /** GetPluginInfo's version. */
  pluginInfo(): Promise<string>;
  /** GetSchema's schema, parsed. */
  schema(): Promise<Record<string, unknown>>;
  /** What the process wrote to stderr so far. */
  readonly stderr: string;
  close(): Promise<void>;
}

/**
 * Runs `file args` (the emulator and the binary) with an engine address where no engine listens, waits
 * for the port line, and connects. With `outputDir`, standard output and error go to files there instead
 * of pipes (under wine, Node cannot open a Unix pipe as its stdout or stderr: EBADF; a file is a file).
 */
export async function startForeignPlugin(
  file: string,
  args: string[],
  options: { env?: Record<string, string>; outputDir?: string; startLimitMs?: number } = {},
): Promise<ForeignPlugin> {
  const files = options.outputDir
    ? { stdout: path.join(options.outputDir, "stdout"), stderr: path.join(options.outputDir, "stderr") }
    : undefined;
  const out = files ? fs.openSync(files.stdout, "w") : "pipe";
  const err = files ? fs.openSync(files.stderr, "w") : "pipe";
  const child: ChildProcess = spawn(file, [...args, "127.0.0.1:1"], {
    env: { ...process.env, ...NO_ENV, ...options.env },
    stdio: ["ignore", out, err],
  });
  if (typeof out === "number") fs.closeSync(out);
  if (typeof err === "number") fs.closeSync(err);
  let piped = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    piped += chunk;
  });
  const stderrText = () => (files ? fs.readFileSync(files.stderr, "utf8") : piped);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const limit = options.startLimitMs ?? 120_000;
  const started = Date.now();
  let port: number | undefined;
  while (port === undefined) {
    const text = files ? fs.readFileSync(files.stdout, "utf8") : stdout;
    if (text.includes("\n")) port = Number(text.trim().split("\n")[0]);
    else if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${path.basename(file)} ${args.join(" ")} exited ${child.exitCode ?? child.signalCode} before its port:\n${stderrText()}`,
      );
    } else if (Date.now() - started > limit) {
      child.kill("SIGKILL");
      throw new Error(
        `${path.basename(file)} ${args.join(" ")} printed no port in ${limit} ms:\n${stderrText()}`,
      );
    } else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <Res>(method: string, request: unknown) =>
    new Promise<Res>((resolve, reject) => {
      const fn = (client as unknown as Record<string, (req: unknown, cb: unknown) => void>)[method]!.bind(
        client,
      );
      fn(request, (error: grpcTypes.ServiceError | null, res: Res) => (error ? reject(error) : resolve(res)));
    });
  return {
    async pluginInfo() {
      return (await call<pluginpbTypes.PluginInfo>("getPluginInfo", new Empty())).getVersion();
    },
    async schema() {
      const res = await call<provpbTypes.GetSchemaResponse>("getSchema", new provpb.GetSchemaRequest());
      return JSON.parse(res.getSchema()) as Record<string, unknown>;
    },
    get stderr() {
      return stderrText();
    },
    async close() {
      client.close();
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

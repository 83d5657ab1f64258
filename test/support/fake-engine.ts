/**
 * A stand-in for the engine's `pulumirpc.Engine` service on a loopback port, which records what the
 * plugin logs to it, so that a test sees a warning as the engine receives it: severity, message, URN.
 */
import * as path from "node:path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as enggrpcTypes from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engpbTypes from "@pulumi/pulumi/proto/engine_pb";
import type * as emptypbTypes from "google-protobuf/google/protobuf/empty_pb";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromSdk = (id: string): unknown => require(require.resolve(id, { paths: [sdkDir] }));
const grpc = fromSdk("@grpc/grpc-js") as typeof grpcTypes;
const enggrpc = require(path.join(sdkDir, "proto", "engine_grpc_pb")) as typeof enggrpcTypes;
const engpb = require(path.join(sdkDir, "proto", "engine_pb")) as typeof engpbTypes;
const { Empty } = fromSdk("google-protobuf/google/protobuf/empty_pb") as typeof emptypbTypes;

/** One `Log` call the engine received. */
export interface Logged {
  severity: "debug" | "info" | "warning" | "error";
  message: string;
  urn: string;
}

/** A running fake engine. */
export interface FakeEngine {
  /** `127.0.0.1:<port>`, as the engine hands it to a plugin. */
  readonly address: string;
  readonly logged: Logged[];
  close(): Promise<void>;
}

const SEVERITIES = {
  [engpb.LogSeverity.DEBUG]: "debug",
  [engpb.LogSeverity.INFO]: "info",
  [engpb.LogSeverity.WARNING]: "warning",
  [engpb.LogSeverity.ERROR]: "error",
} as const;

/** Starts a fake engine whose only method is `Log`. */
export async function startFakeEngine(): Promise<FakeEngine> {
  const logged: Logged[] = [];
  const server = new grpc.Server();
  server.addService(
    enggrpc.EngineService as unknown as grpcTypes.ServiceDefinition,
    {
      log(
        call: grpcTypes.ServerUnaryCall<engpbTypes.LogRequest, unknown>,
        done: grpcTypes.sendUnaryData<unknown>,
      ) {
        const req = call.request;
        logged.push({
          severity: SEVERITIES[req.getSeverity()],
          message: req.getMessage(),
          urn: req.getUrn(),
        });
        done(null, new Empty());
      },
    } as unknown as grpcTypes.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    logged,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

/**
 * The plugin's warnings on their way to the engine: a plugin's stderr reaches the user only in the
 * engine's debug log (since CLI 3.146), so each warning of the core is sent to the engine's `Log`
 * service, at the address the engine gives (the plugin's first argument, Handshake, Attach), with the
 * URN of the call in progress, and the CLI shows it under that resource.
 */
import type * as grpc from "@grpc/grpc-js";
import type * as enggrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engpb from "@pulumi/pulumi/proto/engine_pb";
import { forgetServerMemory } from "../resources/shared/server-memory";
import { setWarningSink, type WarningSink } from "../resources/shared/warn";
import { sdkRequire } from "./sdk";

/** How long a warning may take to reach the engine before it goes to stderr instead. */
const LOG_DEADLINE_MS = 15_000;

let engine: { address: string; client: enggrpc.EngineClient } | undefined;

/** A warning on stderr, where no engine is known or the engine could not be reached. */
const toStderr: WarningSink = (message, urn) => {
  process.stderr.write(`warning: ${urn ? `${urn}: ` : ""}${message}\n`);
};

/** Until an engine is known, the plugin's warnings go to its stderr. */
export function warnOnStderr(): void {
  setWarningSink(toStderr);
}

/**
 * Sends the core's warnings to the engine at `address` from now on. Another engine than the last
 * is another deployment (a plugin started by hand serves one after the other), which learns afresh.
 */
export function connectEngine(address: string): void {
  if (address === "" || address === engine?.address) return;
  if (engine !== undefined) {
    engine.client.close();
    forgetServerMemory();
  }
  const grpcJs = sdkRequire<typeof grpc>("@grpc/grpc-js");
  const { EngineClient } = sdkRequire<typeof enggrpc>("./proto/engine_grpc_pb");
  const pb = sdkRequire<typeof engpb>("./proto/engine_pb");
  const client = new EngineClient(address, grpcJs.credentials.createInsecure());
  engine = { address, client };
  setWarningSink(
    (message, urn) =>
      new Promise<void>((resolve) => {
        const req = new pb.LogRequest().setSeverity(pb.LogSeverity.WARNING).setMessage(message).setUrn(urn);
        client.log(req, new grpcJs.Metadata(), { deadline: Date.now() + LOG_DEADLINE_MS }, (error) => {
          if (error) toStderr(message, urn);
          resolve();
        });
      }),
  );
}

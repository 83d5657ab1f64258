/**
 * Each gRPC method of the plugin run as a call of the core's call context
 * (../resources/shared/call-context.ts): the core's warnings carry the request's URN, and the answer
 * leaves only once they reached the engine, which may close the plugin after its last answer.
 */
import type * as grpc from "@grpc/grpc-js";
import { inCall } from "../resources/shared/call-context";

type Method = (call: { request: unknown }, done: (error: unknown, res?: unknown) => void) => void;

/** The URN a request names (Check, Diff, Create, Read, Update, Delete, Configure), else empty. */
function urnOf(request: unknown): string {
  const urn = (request as { urn?: unknown } | undefined)?.urn;
  return typeof urn === "string" ? urn : "";
}

/** `service` with each method run in a call context of its request's URN. */
export function inCallContexts(service: Record<string, Method>): grpc.UntypedServiceImplementation {
  const wrapped: Record<string, Method> = {};
  for (const [name, method] of Object.entries(service)) {
    wrapped[name] = (call, done) =>
      inCall(urnOf(call.request), (context) => {
        method(call, (error, res) => {
          void Promise.allSettled(context.deliveries).then(() => done(error, res));
        });
      });
  }
  return wrapped as unknown as grpc.UntypedServiceImplementation;
}

/**
 * The plugin's answers in the engine's terms: an error as the engine shows it (a partially created
 * resource carried as `ErrorResourceInitFailed`), a core diff as a detailed diff, and the configuration
 * Configure sends as the core reads stack config.
 */
import type * as grpc from "@grpc/grpc-js";
import type * as statuspb from "@pulumi/pulumi/proto/status_pb";
import type * as anypb from "google-protobuf/google/protobuf/any_pb";
import type { FieldDiff } from "../resources/shared/field-diff";
import { PACKAGE } from "./resources";
import { sdkRequire } from "./sdk";
import { toStruct } from "./values";
import { DIFF_NONE, DIFF_SOME, type DiffResponse, encode, type PropertyDiff } from "./wire";

const grpcJs = sdkRequire<typeof grpc>("@grpc/grpc-js");
const status = sdkRequire<typeof statuspb>("./proto/status_pb");
const { Any } = sdkRequire<typeof anypb>("google-protobuf/google/protobuf/any_pb");

/**
 * An error as the engine shows it: its message alone (gRPC status UNKNOWN). One that names a resource
 * the server made (`id`, `properties`, `reasons`: the core's partially created resource) carries it as
 * `ErrorResourceInitFailed`, which the engine records in the stack.
 */
export function grpcError(error: unknown, secretOutputs: readonly string[] = []): grpc.ServiceError {
  const e = error as { message?: unknown; id?: unknown; properties?: unknown; reasons?: unknown };
  const message = typeof e?.message === "string" ? e.message : String(error);
  const metadata = new grpcJs.Metadata();
  if (typeof e?.id === "string" && e.id !== "") {
    const detail = encode("pulumirpc.ErrorResourceInitFailed", {
      id: e.id,
      properties: toStruct((e.properties as object | undefined) ?? {}, secretOutputs),
      reasons: Array.isArray(e.reasons) ? e.reasons.map(String) : [message],
    });
    const any = new Any();
    any.pack(detail, "pulumirpc.ErrorResourceInitFailed");
    const st = new status.Status();
    st.setCode(grpcJs.status.UNKNOWN);
    st.setMessage(message);
    st.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(st.serializeBinary()));
  }
  return Object.assign(new Error(message), { code: grpcJs.status.UNKNOWN, details: message, metadata });
}

const KIND = {
  add: [0, 1],
  delete: [2, 3],
  update: [4, 5],
} as const;

/**
 * A core diff as the engine takes it, with its detailed diff: each field that forces a replacement,
 * or changes in place, with whether it is added, deleted or updated against the inputs the resource
 * had (relative to inputs, so the preview shows exactly these fields, each with its old and new input).
 */
export function diffAnswer(
  diff: FieldDiff,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): DiffResponse {
  const fields = [...new Set([...diff.replaces, ...diff.updates])];
  const detailedDiff: Record<string, PropertyDiff> = {};
  for (const field of fields) {
    const had = olds[field] !== undefined;
    const has = news[field] !== undefined;
    const kind = !had && has ? KIND.add : had && !has ? KIND.delete : KIND.update;
    detailedDiff[field] = { kind: kind[diff.replaces.includes(field) ? 1 : 0], inputDiff: true };
  }
  return {
    changes: fields.length > 0 ? DIFF_SOME : DIFF_NONE,
    replaces: diff.replaces,
    deleteBeforeReplace: diff.deleteBeforeReplace,
    diffs: fields,
    detailedDiff,
    hasDetailedDiff: true,
  };
}

/**
 * The configuration the engine sent, as the core reads stack config (`opsmanager:<key>`): the explicit
 * provider's inputs, or the stack's `opsmanager:*` config for the default provider, secrets unwrapped.
 */
export function configLookup(args: Record<string, unknown>): { get(key: string): string | undefined } {
  return {
    get(key) {
      const prefix = `${PACKAGE}:`;
      if (!key.startsWith(prefix)) return undefined;
      const value = args[key.slice(prefix.length)];
      if (value === undefined || value === null) return undefined;
      return typeof value === "string"
        ? value
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
    },
  };
}

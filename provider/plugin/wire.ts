/**
 * The plugin's messages on the wire, read and written with protobufjs rather than the SDK's
 * google-protobuf classes. The engine sends every resource's state and inputs as
 * `google.protobuf.Struct`s, and google-protobuf turns each into a tree of message objects and then
 * into JSON: in a refresh of 250 resources that was the largest single share of the plugin's CPU
 * (docs/performance.md). protobufjs decodes into plain objects, which the plugin reads as they are.
 *
 * Each message declares only the fields the plugin reads or writes, by their numbers in Pulumi's
 * `provider.proto` (a field the engine sends that is not declared here is skipped on reading);
 * test/plugin/wire.test.ts checks every one against the SDK's own generated classes, both ways.
 */
import * as protobuf from "protobufjs/light";

const STRING = "string";
const BOOL = "bool";
const DOUBLE = "double";
const STRUCT = "google.protobuf.Struct";

type FieldSpec = { type: string; id: number; rule?: "repeated"; keyType?: string };
const field = (type: string, id: number): FieldSpec => ({ type, id });
const repeated = (type: string, id: number): FieldSpec => ({ type, id, rule: "repeated" });

const DESCRIPTOR = {
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Struct: { fields: { fields: { keyType: STRING, type: "Value", id: 1 } } },
            Value: {
              oneofs: {
                kind: {
                  oneof: ["nullValue", "numberValue", "stringValue", "boolValue", "structValue", "listValue"],
                },
              },
              fields: {
                nullValue: field("NullValue", 1),
                numberValue: field(DOUBLE, 2),
                stringValue: field(STRING, 3),
                boolValue: field(BOOL, 4),
                structValue: field("Struct", 5),
                listValue: field("ListValue", 6),
              },
            },
            NullValue: { values: { NULL_VALUE: 0 } },
            ListValue: { fields: { values: repeated("Value", 1) } },
            Empty: { fields: {} },
          },
        },
      },
    },
    pulumirpc: {
      nested: {
        PluginInfo: { fields: { version: field(STRING, 1) } },
        PluginAttach: { fields: { address: field(STRING, 1) } },
        ProviderHandshakeRequest: { fields: { engineAddress: field(STRING, 1) } },
        ProviderHandshakeResponse: {
          fields: {
            acceptSecrets: field(BOOL, 1),
            acceptResources: field(BOOL, 2),
            acceptOutputs: field(BOOL, 3),
            supportsAutonamingConfiguration: field(BOOL, 4),
          },
        },
        GetSchemaRequest: { fields: {} },
        GetSchemaResponse: { fields: { schema: field(STRING, 1) } },
        ConfigureRequest: { fields: { args: field(STRUCT, 2), urn: field(STRING, 8) } },
        ConfigureResponse: {
          fields: {
            acceptSecrets: field(BOOL, 1),
            supportsPreview: field(BOOL, 2),
            acceptResources: field(BOOL, 3),
          },
        },
        CheckRequest: {
          fields: {
            urn: field(STRING, 1),
            olds: field(STRUCT, 2),
            news: field(STRUCT, 3),
            type: field(STRING, 7),
          },
        },
        CheckFailure: { fields: { property: field(STRING, 1), reason: field(STRING, 2) } },
        CheckResponse: { fields: { inputs: field(STRUCT, 1), failures: repeated("CheckFailure", 2) } },
        DiffRequest: {
          fields: {
            id: field(STRING, 1),
            urn: field(STRING, 2),
            olds: field(STRUCT, 3),
            news: field(STRUCT, 4),
            oldInputs: field(STRUCT, 6),
            type: field(STRING, 8),
          },
        },
        PropertyDiff: { fields: { kind: field("uint32", 1), inputDiff: field(BOOL, 2) } },
        DiffResponse: {
          fields: {
            replaces: repeated(STRING, 1),
            deleteBeforeReplace: field(BOOL, 3),
            changes: field("uint32", 4),
            diffs: repeated(STRING, 5),
            detailedDiff: { keyType: STRING, type: "PropertyDiff", id: 6 },
            hasDetailedDiff: field(BOOL, 7),
          },
        },
        CreateRequest: {
          fields: {
            urn: field(STRING, 1),
            properties: field(STRUCT, 2),
            timeout: field(DOUBLE, 3),
            preview: field(BOOL, 4),
            type: field(STRING, 6),
          },
        },
        CreateResponse: { fields: { id: field(STRING, 1), properties: field(STRUCT, 2) } },
        ReadRequest: {
          fields: {
            id: field(STRING, 1),
            urn: field(STRING, 2),
            properties: field(STRUCT, 3),
            inputs: field(STRUCT, 4),
            type: field(STRING, 6),
            timeout: field(DOUBLE, 10),
          },
        },
        ReadResponse: {
          fields: { id: field(STRING, 1), properties: field(STRUCT, 2), inputs: field(STRUCT, 3) },
        },
        UpdateRequest: {
          fields: {
            id: field(STRING, 1),
            urn: field(STRING, 2),
            olds: field(STRUCT, 3),
            news: field(STRUCT, 4),
            timeout: field(DOUBLE, 5),
            preview: field(BOOL, 7),
            type: field(STRING, 10),
          },
        },
        UpdateResponse: { fields: { properties: field(STRUCT, 1) } },
        DeleteRequest: {
          fields: {
            id: field(STRING, 1),
            urn: field(STRING, 2),
            properties: field(STRUCT, 3),
            timeout: field(DOUBLE, 4),
            type: field(STRING, 7),
          },
        },
        InvokeRequest: { fields: { tok: field(STRING, 1), args: field(STRUCT, 2) } },
        InvokeResponse: { fields: { return: field(STRUCT, 1) } },
        ErrorResourceInitFailed: {
          fields: { id: field(STRING, 1), properties: field(STRUCT, 2), reasons: repeated(STRING, 3) },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(DESCRIPTOR);

// protobufjs stops at 100 nested messages, as protoc does, and a JSON level is two (a Struct and its
// Value): a property 50 levels deep would fail to read or write, where google-protobuf had no limit and
// the engine reads 10,000. 1,000 keeps a bound, far past anything a program declares or a server answers.
protobuf.util.recursionLimit = 1_000;
protobuf.Reader.recursionLimit = 1_000;

/** The messages declared here, by their full names. */
export type MessageName =
  | "google.protobuf.Empty"
  | `pulumirpc.${keyof (typeof DESCRIPTOR)["nested"]["pulumirpc"]["nested"]}`;

/** The message types' fields as {@link DESCRIPTOR} declares them: name, number, type, repeated or map. */
export function declaredFields(
  name: MessageName,
): { name: string; id: number; type: string; kind: "scalar" | "repeated" | "map" }[] {
  return root.lookupType(name).fieldsArray.map((f) => ({
    name: f.name,
    id: f.id,
    type: f.type,
    kind: f.map ? "map" : f.repeated ? "repeated" : "scalar",
  }));
}

/** A `google.protobuf.Value` as read from the wire or written to it: one of its kinds set. */
export interface WireValue {
  nullValue?: number | null;
  numberValue?: number | null;
  stringValue?: string | null;
  boolValue?: boolean | null;
  structValue?: WireStruct | null;
  listValue?: { values: WireValue[] } | null;
}

/** A `google.protobuf.Struct`. */
export interface WireStruct {
  fields: Record<string, WireValue>;
}

/** A message as decoded: a field the engine left out reads as proto3's default (`""`, 0, false, `[]`, null). */
type Decoded<T> = Readonly<Required<T>>;

export type CheckRequest = Decoded<{
  urn: string;
  olds: WireStruct | null;
  news: WireStruct | null;
  type: string;
}>;
export type DiffRequest = Decoded<{
  id: string;
  urn: string;
  olds: WireStruct | null;
  news: WireStruct | null;
  oldInputs: WireStruct | null;
  type: string;
}>;
export type ConfigureRequest = Decoded<{ args: WireStruct | null; urn: string }>;
export type CreateRequest = Decoded<{
  urn: string;
  properties: WireStruct | null;
  timeout: number;
  preview: boolean;
  type: string;
}>;
export type ReadRequest = Decoded<{
  id: string;
  urn: string;
  properties: WireStruct | null;
  inputs: WireStruct | null;
  type: string;
  timeout: number;
}>;
export type UpdateRequest = Decoded<{
  id: string;
  urn: string;
  olds: WireStruct | null;
  news: WireStruct | null;
  timeout: number;
  preview: boolean;
  type: string;
}>;
export type DeleteRequest = Decoded<{
  id: string;
  urn: string;
  properties: WireStruct | null;
  timeout: number;
  type: string;
}>;
export type InvokeRequest = Decoded<{ tok: string; args: WireStruct | null }>;
export type HandshakeRequest = Decoded<{ engineAddress: string }>;
export type AttachRequest = Decoded<{ address: string }>;

export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResponse {
  inputs: WireStruct;
  failures: CheckFailure[];
}
/** `PropertyDiff.Kind`: ADD 0, ADD_REPLACE 1, DELETE 2, DELETE_REPLACE 3, UPDATE 4, UPDATE_REPLACE 5. */
export interface PropertyDiff {
  kind: number;
  inputDiff: boolean;
}
/** `DiffResponse.DiffChanges`. */
export const DIFF_NONE = 1;
export const DIFF_SOME = 2;
export interface DiffResponse {
  replaces: string[];
  deleteBeforeReplace: boolean;
  changes: number;
  diffs: string[];
  detailedDiff: Record<string, PropertyDiff>;
  hasDetailedDiff: boolean;
}
export interface CreateResponse {
  id?: string;
  properties: WireStruct;
}
export interface ReadResponse {
  id: string;
  properties?: WireStruct;
  inputs?: WireStruct;
}

/** The request and answer types of each method the plugin serves, in grpc-js's method names. */
export const METHODS: Readonly<Record<string, readonly [MessageName, MessageName]>> = {
  getPluginInfo: ["google.protobuf.Empty", "pulumirpc.PluginInfo"],
  handshake: ["pulumirpc.ProviderHandshakeRequest", "pulumirpc.ProviderHandshakeResponse"],
  attach: ["pulumirpc.PluginAttach", "google.protobuf.Empty"],
  getSchema: ["pulumirpc.GetSchemaRequest", "pulumirpc.GetSchemaResponse"],
  checkConfig: ["pulumirpc.CheckRequest", "pulumirpc.CheckResponse"],
  diffConfig: ["pulumirpc.DiffRequest", "pulumirpc.DiffResponse"],
  configure: ["pulumirpc.ConfigureRequest", "pulumirpc.ConfigureResponse"],
  check: ["pulumirpc.CheckRequest", "pulumirpc.CheckResponse"],
  diff: ["pulumirpc.DiffRequest", "pulumirpc.DiffResponse"],
  create: ["pulumirpc.CreateRequest", "pulumirpc.CreateResponse"],
  read: ["pulumirpc.ReadRequest", "pulumirpc.ReadResponse"],
  update: ["pulumirpc.UpdateRequest", "pulumirpc.UpdateResponse"],
  delete: ["pulumirpc.DeleteRequest", "google.protobuf.Empty"],
  invoke: ["pulumirpc.InvokeRequest", "pulumirpc.InvokeResponse"],
  cancel: ["google.protobuf.Empty", "google.protobuf.Empty"],
};

/** `bytes` read as the message `name`. */
export function decode<T>(name: MessageName, bytes: Uint8Array): T {
  return root.lookupType(name).decode(bytes) as unknown as T;
}

/** `message` (a plain object of the fields declared) written as the message `name`. */
export function encode(name: MessageName, message: object): Buffer {
  // Under Node protobufjs writes into a Buffer already, which grpc-js takes as it is.
  const bytes = root.lookupType(name).encode(message).finish();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const NULL: WireValue = { nullValue: 0 };

/**
 * `value` as a Struct's value, by JSON's rules (what `JSON.stringify` keeps, it keeps the same way):
 * `toJSON` is called, a number that is not finite is null, an `undefined` or a function is no field
 * of an object and null in a list (a hole too), and a BigInt throws.
 */
function wireValue(value: unknown): WireValue | undefined {
  const json =
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
      ? (value as { toJSON(): unknown }).toJSON()
      : value;
  switch (typeof json) {
    case "string":
      return { stringValue: json };
    case "number":
      return Number.isFinite(json) ? { numberValue: json } : NULL;
    case "boolean":
      return { boolValue: json };
    case "object":
      if (json === null) return NULL;
      // Array.from, not map: a hole in a sparse list is null, as JSON writes it.
      if (Array.isArray(json))
        return { listValue: { values: Array.from(json, (v) => wireValue(v) ?? NULL) } };
      return { structValue: wireStruct(json as Record<string, unknown>) };
    case "bigint":
      throw new TypeError(`a BigInt (${json}) has no JSON form, and no Struct value`);
    default:
      return undefined;
  }
}

/** `values` as a Struct, by JSON's rules (see {@link wireValue}). */
export function wireStruct(values: Record<string, unknown>): WireStruct {
  const fields: Record<string, WireValue> = {};
  for (const name of Object.keys(values)) {
    const value = wireValue(values[name]);
    if (value !== undefined) fields[name] = value;
  }
  return { fields };
}

/**
 * A Struct's value as JSON: decoded, a Value names its kind set (a oneof's other fields read as their
 * defaults). The engine always sets one; a Value with none reads as null.
 */
function plainValue(value: WireValue & { kind?: string }): unknown {
  switch (value.kind) {
    case "stringValue":
      return value.stringValue;
    case "numberValue":
      return value.numberValue;
    case "boolValue":
      return value.boolValue;
    case "structValue":
      return plainStruct(value.structValue);
    case "listValue":
      return (value.listValue as { values: WireValue[] }).values.map(plainValue);
    default:
      return null;
  }
}

/**
 * A Struct as a JSON object, its names in sorted order, as the SDK's `Struct.toJavaScript` gave them
 * (the engine sends a map's entries in any order; a message or a hash of what the plugin read then
 * never depends on it).
 */
export function plainStruct(struct: WireStruct | null | undefined): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  if (struct == null) return plain;
  const { fields } = struct;
  for (const name of Object.keys(fields).sort()) plain[name] = plainValue(fields[name] as WireValue);
  return plain;
}

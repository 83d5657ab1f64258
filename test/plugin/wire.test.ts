/**
 * The plugin's own codec (provider/plugin/wire.ts) against the SDK's generated google-protobuf
 * classes, which are Pulumi's `provider.proto` as the engine speaks it: every field the plugin
 * declares, written by the SDK and read by the plugin, and written by the plugin and read by the SDK;
 * each method's messages those of the SDK's service definition; and Structs, whatever they hold, read
 * as the SDK's `Struct.toJavaScript` reads them and written as JSON would write them.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { providerService, providerServiceDefinition } from "../../provider/plugin/server";
import { fromStruct, toStruct } from "../../provider/plugin/values";
import {
  declaredFields,
  decode,
  encode,
  METHODS,
  type MessageName,
  plainStruct,
  type WireStruct,
  wireStruct,
} from "../../provider/plugin/wire";

const sdkRequire = createRequire(
  path.join(path.dirname(require.resolve("@pulumi/pulumi/package.json")), "x.js"),
);
const provpb = sdkRequire("./proto/provider_pb");
const plugpb = sdkRequire("./proto/plugin_pb");
const emptypb = sdkRequire("google-protobuf/google/protobuf/empty_pb");
const { Struct } = sdkRequire("google-protobuf/google/protobuf/struct_pb");
const grpcDefinition = sdkRequire("./proto/provider_grpc_pb").ResourceProviderService;

type SdkMessage = Record<string, (...args: unknown[]) => unknown> & { serializeBinary(): Uint8Array };
type SdkClass = { new (): SdkMessage; deserializeBinary(bytes: Uint8Array): SdkMessage };

/** The SDK's class of a message the plugin declares. */
function sdkClass(name: MessageName): SdkClass {
  const [pkg, type] = name.split(".").slice(-2) as [string, string];
  if (name === "google.protobuf.Empty") return emptypb.Empty;
  const cls = (pkg === "pulumirpc" ? (provpb[type] ?? plugpb[type]) : undefined) as SdkClass | undefined;
  if (cls === undefined) throw new Error(`the SDK has no class for ${name}`);
  return cls;
}

/** The SDK's accessor of `field` (`set`/`get` + its name, `List` for a repeated one, `Map` for a map). */
function accessor(message: SdkMessage, verb: "set" | "get", field: { name: string; kind: string }): string {
  const suffix = field.kind === "repeated" ? "list" : field.kind === "map" ? "map" : "";
  const wanted = `${verb}${field.name}${suffix}`.toLowerCase();
  let proto = Object.getPrototypeOf(message);
  const names: string[] = [];
  while (proto && proto !== Object.prototype) {
    names.push(...Object.getOwnPropertyNames(proto));
    proto = Object.getPrototypeOf(proto);
  }
  const found = names.find((n) => n.toLowerCase() === wanted);
  if (found === undefined) throw new Error(`the SDK's message has no ${wanted}`);
  return found;
}

const STRUCT_VALUE = { a: "b", n: 1.5, l: [true, null, "x"], o: { deep: {} } };

/** A value of the field's type that is not its default, in the plugin's form and the SDK's. */
function sample(field: { name: string; type: string; kind: string }): { plugin: unknown; sdk: unknown } {
  if (field.kind === "map") {
    const diff = new provpb.PropertyDiff();
    diff.setKind(3);
    diff.setInputdiff(true);
    return { plugin: { f: { kind: 3, inputDiff: true } }, sdk: [["f", diff]] };
  }
  if (field.type === "CheckFailure") {
    const failure = new provpb.CheckFailure();
    failure.setProperty("p");
    failure.setReason("r");
    return { plugin: [{ property: "p", reason: "r" }], sdk: [failure] };
  }
  if (field.kind === "repeated") return { plugin: ["x", "y"], sdk: ["x", "y"] };
  switch (field.type) {
    case "string":
      return { plugin: `value of ${field.name}`, sdk: `value of ${field.name}` };
    case "bool":
      return { plugin: true, sdk: true };
    case "double":
      return { plugin: 1.5, sdk: 1.5 };
    case "uint32":
      return { plugin: 2, sdk: 2 };
    case "google.protobuf.Struct":
      return { plugin: wireStruct(STRUCT_VALUE), sdk: Struct.fromJavaScript(STRUCT_VALUE) };
    default:
      throw new Error(`no sample of ${field.type}`);
  }
}

/** What the plugin decoded of a field, in a form to compare. */
function readBack(value: unknown, field: { type: string; kind: string }): unknown {
  if (field.type === "google.protobuf.Struct") return plainStruct(value as WireStruct);
  return JSON.parse(JSON.stringify(value));
}

const MESSAGES = [
  ...new Set([...Object.values(METHODS).flat(), "pulumirpc.ErrorResourceInitFailed" as const]),
] as MessageName[];

describe("each message the plugin declares, field by field, against the SDK's class", () => {
  for (const name of MESSAGES) {
    const fields = declaredFields(name);
    if (fields.length === 0) {
      it(`${name}: the plugin reads none of its fields, and skips those the SDK writes`, () => {
        const written = new (sdkClass(name))();
        // GetSchemaRequest's version (1), the only one of these with fields; Empty has none to write.
        written.setVersion?.call(written, 7);
        written.setSubpackageName?.call(written, "sub");
        expect(written.serializeBinary().length > 0).toBe(name !== "google.protobuf.Empty");
        expect({ ...decode<object>(name, written.serializeBinary()) }).toEqual({});
      });
      continue;
    }
    for (const field of fields) {
      it(`${name}.${field.name} (${field.id}): the SDK writes it and the plugin reads it, and back`, () => {
        const Cls = sdkClass(name);
        const value = sample(field);

        const written = new Cls();
        if (field.kind === "map") {
          const map = written[accessor(written, "get", field)]?.call(written) as {
            set(k: string, v: unknown): void;
          };
          for (const [k, v] of value.sdk as [string, unknown][]) map.set(k, v);
        } else {
          written[accessor(written, "set", field)]?.call(written, value.sdk);
        }
        const read = decode<Record<string, unknown>>(name, written.serializeBinary());
        expect(readBack(read[field.name], field)).toEqual(
          field.type === "google.protobuf.Struct" ? STRUCT_VALUE : value.plugin,
        );

        const back = Cls.deserializeBinary(encode(name, { [field.name]: value.plugin }));
        const got = back[accessor(back, "get", field)]?.call(back);
        if (field.type === "google.protobuf.Struct") {
          expect((got as { toJavaScript(): unknown }).toJavaScript()).toEqual(STRUCT_VALUE);
        } else if (field.kind === "map") {
          const entries = (got as { toArray(): unknown[] }).toArray();
          expect(entries).toEqual([["f", [3, true]]]);
        } else if (field.type === "CheckFailure") {
          expect((got as SdkMessage[]).map((f) => [f.getProperty?.call(f), f.getReason?.call(f)])).toEqual([
            ["p", "r"],
          ]);
        } else {
          expect(got).toEqual(value.sdk);
        }
      });
    }
  }
});

describe("the service the plugin serves", () => {
  const definition = providerServiceDefinition() as unknown as Record<
    string,
    { path: string; requestDeserialize(bytes: Buffer): unknown; responseSerialize(message: unknown): Buffer }
  >;

  it("implements exactly the methods whose messages the plugin declares, each the SDK's with the SDK's messages", () => {
    expect(Object.keys(providerService()).sort()).toEqual(Object.keys(METHODS).sort());
    for (const [method, [request, response]] of Object.entries(METHODS)) {
      const stub = grpcDefinition[method];
      expect(stub, `the SDK's ResourceProvider has ${method}`).toBeDefined();
      expect(stub.requestType, `${method}'s request`).toBe(sdkClass(request));
      expect(stub.responseType, `${method}'s answer`).toBe(sdkClass(response));
    }
  });

  it("reads each request into a plain object and writes each answer from one, with the plugin's codec", () => {
    const req = new provpb.ReadRequest();
    req.setUrn("urn:pulumi:dev::p::opsmanager:index:OrgApiKey::k");
    req.setTimeout(12);
    const read = definition.read?.requestDeserialize(Buffer.from(req.serializeBinary())) as Record<
      string,
      unknown
    >;
    expect(read.urn).toBe("urn:pulumi:dev::p::opsmanager:index:OrgApiKey::k");
    expect(read.timeout).toBe(12);
    expect(read.getUrn).toBeUndefined();
    const written = definition.read?.responseSerialize({
      id: "k",
      properties: wireStruct({ a: 1 }),
    }) as Buffer;
    const back = provpb.ReadResponse.deserializeBinary(written);
    expect([back.getId(), back.getProperties().toJavaScript()]).toEqual(["k", { a: 1 }]);
    // A method the plugin does not serve keeps the SDK's own codec.
    const unserved = Object.keys(grpcDefinition).find((m) => !(m in METHODS));
    if (unserved !== undefined) {
      expect(definition[unserved]?.requestDeserialize).toBe(grpcDefinition[unserved].requestDeserialize);
    }
  });
});

/** Values a Struct may carry, as programs and the engine send them. */
const VALUES: Record<string, unknown>[] = [
  {},
  { s: "", n: 0, f: false, z: null, e: [], o: {} },
  { unicode: "clé → ключ 🔑", big: 2 ** 53 - 1, neg: -0.25, tiny: 5e-324 },
  { zeta: 1, alpha: 2, Mid: 3, _u: 4, "10": 5, "9": 6 },
  { nested: [[1, [2, [3]]], { a: [{ b: { c: [null, true, "d"] } }] }] },
  { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s3cr3t" },
  { unknown: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" },
];

describe("Structs, read as the SDK reads them and written as JSON writes them", () => {
  it.each(VALUES.map((v) => [JSON.stringify(v), v]))("%s", (_label, value) => {
    const bytes = Struct.fromJavaScript(value).serializeBinary();
    const sdkRead = Struct.deserializeBinary(bytes).toJavaScript();
    const read = plainStruct(
      decode<{ properties: WireStruct }>("pulumirpc.ReadResponse", wrap(bytes)).properties,
    );
    expect(read).toEqual(sdkRead);
    // The names in the SDK's order too (sorted), whatever order the engine sent them in.
    expect(JSON.stringify(read)).toBe(JSON.stringify(sdkRead));
    const written = encode("pulumirpc.ReadResponse", { properties: wireStruct(value) });
    expect(provpb.ReadResponse.deserializeBinary(written).getProperties().toJavaScript()).toEqual(value);
  });

  it("names sent in any order read in sorted order", () => {
    const shuffled = encode("pulumirpc.ReadResponse", { properties: wireStruct({ b: 1, c: 2, a: 3 }) });
    const read = plainStruct(
      decode<{ properties: WireStruct }>("pulumirpc.ReadResponse", shuffled).properties,
    );
    expect(Object.keys(read)).toEqual(["a", "b", "c"]);
  });

  it("writes what JSON would: undefined and functions left out of objects and null in lists, toJSON called, no NaN or Infinity", () => {
    const value = {
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 1, Number.NaN, Number.POSITIVE_INFINITY, 1],
      when: new Date(0),
      nan: Number.NaN,
      inf: Number.NEGATIVE_INFINITY,
      inner: { gone: undefined, kept: "k" },
    };
    const written = encode("pulumirpc.ReadResponse", { properties: wireStruct(value) });
    expect(provpb.ReadResponse.deserializeBinary(written).getProperties().toJavaScript()).toEqual(
      JSON.parse(JSON.stringify(value)),
    );
  });

  it("a hole in a sparse list is written as null, as JSON writes it; a BigInt fails, as JSON fails", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case
    const value = { sparse: [1, , 3] };
    const written = encode("pulumirpc.ReadResponse", { properties: wireStruct(value) });
    expect(provpb.ReadResponse.deserializeBinary(written).getProperties().toJavaScript()).toEqual({
      sparse: [1, null, 3],
    });
    expect(() => wireStruct({ big: 10n })).toThrow(/BigInt \(10\) has no JSON form/);
  });

  it("a value nested 200 levels deep is read and written (protobufjs alone stops at 50)", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 200; i++) deep = { d: deep };
    const bytes = Struct.fromJavaScript({ deep }).serializeBinary();
    expect(
      plainStruct(decode<{ properties: WireStruct }>("pulumirpc.ReadResponse", wrap(bytes)).properties),
    ).toEqual({
      deep,
    });
    const written = encode("pulumirpc.ReadResponse", { properties: wireStruct({ deep }) });
    expect(provpb.ReadResponse.deserializeBinary(written).getProperties().toJavaScript()).toEqual({ deep });
  });

  it("a double the engine sends reads as it is, NaN and Infinity too (check names them)", () => {
    const written = new provpb.CheckRequest();
    written.setNews(
      Struct.fromJavaScript({
        size: Number.POSITIVE_INFINITY,
        other: Number.NaN,
        neg: Number.NEGATIVE_INFINITY,
      }),
    );
    const read = decode<{ news: WireStruct }>("pulumirpc.CheckRequest", written.serializeBinary());
    expect(fromStruct(read.news).values).toEqual({
      size: Number.POSITIVE_INFINITY,
      other: Number.NaN,
      neg: Number.NEGATIVE_INFINITY,
    });
  });

  it("secrets: unwrapped on reading, their top-level names kept; wrapped again on writing unless empty or absent", () => {
    const secret = (value: unknown) => ({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value,
    });
    const sent = new provpb.CheckRequest();
    sent.setNews(
      Struct.fromJavaScript({ privateKey: secret("pk"), nested: { deep: secret(["a"]) }, plain: "p" }),
    );
    const read = fromStruct(
      decode<{ news: WireStruct }>("pulumirpc.CheckRequest", sent.serializeBinary()).news,
    );
    expect(read.values).toEqual({ privateKey: "pk", nested: { deep: ["a"] }, plain: "p" });
    expect([...read.secrets].sort()).toEqual(["nested", "privateKey"]);

    const written = encode("pulumirpc.ReadResponse", {
      properties: toStruct({ privateKey: "pk", empty: "", absent: undefined, plain: "p" }, [
        "privateKey",
        "empty",
        "absent",
      ]),
    });
    expect(provpb.ReadResponse.deserializeBinary(written).getProperties().toJavaScript()).toEqual({
      privateKey: secret("pk"),
      empty: "",
      plain: "p",
    });
  });
});

/** A Struct's bytes as the `properties` (field 2) of a ReadResponse. */
function wrap(structBytes: Uint8Array): Uint8Array {
  const res = new provpb.ReadResponse();
  res.setProperties(Struct.deserializeBinary(structBytes));
  return res.serializeBinary();
}

/**
 * Property values as the engine sends them in `google.protobuf.Struct`s (./wire.ts) and as the core takes them:
 * plain JSON. Secrets arrive wrapped (the plugin accepts secrets) and are unwrapped for the core, their
 * top-level names kept so that the answer wraps the same names again; values not known yet during a
 * preview arrive as the unknown sentinel, which the core's checks let pass.
 */
import { plainStruct, type WireStruct, wireStruct } from "./wire";

/** The SDK's wire form of a secret: `{ [SECRET_SIG]: SECRET_VALUE, value }`. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** The serialized provider of a dynamic resource, which a stack moved by alias hands in its old state. */
const DYNAMIC_PROVIDER = "__provider";

/** A property map read from the wire: its values unwrapped, and which top-level names held a secret. */
export interface Properties {
  values: Record<string, unknown>;
  secrets: Set<string>;
}

function isSecret(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE
  );
}

/**
 * `value` with its secrets unwrapped, in place: `value` is what `plainStruct` just made, which
 * nothing else holds, so each secret is replaced where it is found and nothing else is copied.
 */
function unwrap(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return unwrap(value.value, found);
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unwrap(value[i], found);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = unwrap(record[key], found);
  return record;
}

/**
 * A Struct's properties for the core: secrets unwrapped (their names remembered), and the dynamic
 * face's `__provider` dropped, so that the state of a resource moved from a dynamic type reads as
 * this plugin's own.
 */
export function fromStruct(struct: WireStruct | null | undefined): Properties {
  const values: Record<string, unknown> = {};
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(plainStruct(struct))) {
    if (name === DYNAMIC_PROVIDER) continue;
    const found = { secret: false };
    values[name] = unwrap(value, found);
    if (found.secret) secrets.add(name);
  }
  return { values, secrets };
}

/**
 * `values` as a Struct, by JSON's rules (a field left undefined is no field), each name in `secrets`
 * that is present and not empty wrapped as a secret.
 */
export function toStruct(values: object, secrets: Iterable<string> = []): WireStruct {
  const struct = wireStruct(values as Record<string, unknown>);
  for (const name of secrets) {
    const value = struct.fields[name];
    if (value !== undefined && value.stringValue !== "") {
      struct.fields[name] = {
        structValue: { fields: { [SECRET_SIG]: { stringValue: SECRET_VALUE }, value } },
      };
    }
  }
  return struct;
}

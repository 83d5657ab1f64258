/**
 * How a resource describes its inputs and outputs to the provider plugin's schema (`provider/schema.ts`
 * writes `provider/plugin/schema.json` from these). Each resource's `schema.ts` lists every property of
 * its provider types (`types.ts`) with a mapped type over them, so that the compiler fails when a
 * property is added, removed, made optional or retyped in one place and not in the other.
 */

/** A schema type (Pulumi package schema: `type`, `items`, `additionalProperties`, `$ref`). */
export type SchemaType =
  | { type: "string" | "number" | "integer" | "boolean" }
  | { type: "array"; items: SchemaType }
  | { type: "object"; additionalProperties: SchemaType }
  | { $ref: string };

/** The schema types a TypeScript type may be described by: a string by a string or an enum's `$ref`, … */
export type SchemaTypeFor<T> = [NonNullable<T>] extends [string]
  ? { type: "string" } | { $ref: `#/types/opsmanager:index:${string}` }
  : [NonNullable<T>] extends [number]
    ? { type: "number" | "integer" }
    : [NonNullable<T>] extends [boolean]
      ? { type: "boolean" }
      : [NonNullable<T>] extends [(infer E)[]]
        ? { type: "array"; items: SchemaTypeFor<E> }
        : [NonNullable<T>] extends [object]
          ?
              | { type: "object"; additionalProperties: SchemaType }
              | { $ref: `#/types/opsmanager:index:${string}` }
          : never;

/** One property: its type, its description (the README's words), and what the schema says of it. */
export interface PropertyDescriptor {
  type: SchemaType;
  description: string;
  /** Whether a program must give it (an input) or it is always there (an output): not optional in `T`. */
  required: boolean;
  /** Key material: the engine encrypts it in state and masks it in every display. */
  secret?: true;
  /** A change of it replaces the resource (shown in the SDKs' documentation). */
  replaces?: true;
}

/** A property of the provider types the schema leaves out, and why (a comment alone would not be checked). */
export interface Omitted {
  omitted: string;
}

/**
 * A descriptor for every property of `T`: the compiler requires each key of `T` exactly once, its schema
 * type to fit the property's TypeScript type, and `required` to say whether the property is optional.
 */
export type Described<T> = {
  [K in keyof Required<T>]-?:
    | (PropertyDescriptor & { type: SchemaTypeFor<T[K]>; required: undefined extends T[K] ? false : true })
    | Omitted;
};

/** A resource's inputs and outputs, each checked against its provider types. */
export interface ResourceDescriptor<Inputs, Outputs> {
  /** The resource's type token's name in module `index` (`OrgApiKey`). */
  name: string;
  description: string;
  inputs: Described<Inputs>;
  outputs: Described<Outputs>;
}

/** An object type of the schema (`opsmanager:index:<name>`), described like a resource's properties. */
export interface TypeDescriptor<T> {
  name: string;
  description: string;
  properties: Described<T>;
}

/** Any object type's descriptor, once its own has been checked (`satisfies TypeDescriptor<T>`). */
export interface ObjectTypeDescriptor {
  name: string;
  description: string;
  properties: Record<string, PropertyDescriptor | Omitted>;
}

/** An enum type of the schema: a string's allowed values, from the constant the code checks them with. */
export interface EnumDescriptor {
  name: string;
  description: string;
  values: readonly string[];
}

/** A function (an invoke): its arguments, checked against its `Args`, and what it returns. */
export interface FunctionDescriptor<Args, Result> {
  /** The function's token's name in module `index` (`getOrgApiKeys`). */
  name: string;
  description: string;
  inputs: Described<Args>;
  /** A list or another non-object type: the plugin answers it as the one property of its result. */
  returns: SchemaTypeFor<Result>;
}

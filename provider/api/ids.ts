import { InputError } from "./input-error";

const HEX24 = /^[0-9a-fA-F]{24}$/;

/** Quote a value for an error message: short, and with control characters escaped. */
export function quoteValue(value: unknown): string {
  const text =
    typeof value === "string" || (typeof value === "object" && value !== null) ? json(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

// Strings, lists and objects as JSON (String() prints `["a"]` as `a`, an object as `[object Object]`).
function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The rule an id bound for a path segment breaks, or `undefined`. `%` is refused rather than encoded,
 * so that no proxy on the way can mistake `%2F` for a path separator.
 */
export function idRule(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (value.length === 0) return "must not be empty";
  if (value.length > 128) return "must be at most 128 characters";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[/?#%\s\u0000-\u001f\u007f]/.test(value)) {
    return "must not contain '/', '?', '#', '%', spaces or control characters";
  }
  return undefined;
}

/** The rule a 24-hexadecimal-digit id (a group id) breaks, or `undefined`. */
export function hex24Rule(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (!HEX24.test(value)) return "must be 24 hexadecimal digits";
  return undefined;
}

/** Throw an {@link InputError} when `value` is not a usable path-segment id; return it encoded. */
export function idSegment(property: string, value: unknown): string {
  const rule = idRule(value);
  if (rule !== undefined) throw new InputError(property, rule, quoteValue(value));
  return encodeURIComponent(value as string);
}

/** Throw an {@link InputError} when `value` is not 24 hexadecimal digits; return it encoded. */
export function hex24Segment(property: string, value: unknown): string {
  const rule = hex24Rule(value);
  if (rule !== undefined) throw new InputError(property, rule, quoteValue(value));
  return encodeURIComponent(value as string);
}

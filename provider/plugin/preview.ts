/**
 * A preview's Create and Update, which the plugin answers itself (Configure says it supports preview):
 * what the provider knows before the call, and no request. Without this the engine takes a preview's
 * outputs to be the new inputs alone, and an output that is no input (a created key's `apiKeyId`,
 * `publicKey`, `privateKey`) is unknown to everything that uses it, so a dependent previews as replaced
 * when `up` only updates the key.
 */
import type { FieldDiff } from "../resources/shared/field-diff";
import { UNKNOWN } from "../resources/shared/validate";

type Props = Record<string, unknown>;

// The list inputs are sets (roles, access list, log types), and the outputs hold them sorted.
const asOutput = (value: unknown): unknown =>
  Array.isArray(value) && value.every((v) => typeof v === "string") ? [...new Set(value)].sort() : value;

/**
 * An update's outputs in a preview: the old outputs, with each input the diff says changes laid over
 * them. A field no longer declared keeps the server's value, as `up` leaves it; an input not known yet
 * stays unknown, and so do the outputs `derived` says the update makes anew from a changed input (the
 * server's spelling of a date, a key's private key masked once it is adopted in place).
 */
export function previewUpdate(
  olds: Props,
  news: Props,
  diff: FieldDiff,
  derived: Readonly<Record<string, readonly string[]>>,
): Props {
  const outs: Props = { ...olds };
  for (const field of diff.updates) {
    if (news[field] !== undefined) outs[field] = asOutput(news[field]);
  }
  for (const field of diff.updates) {
    for (const output of derived[field] ?? []) outs[output] = UNKNOWN;
  }
  return outs;
}

/**
 * A create's outputs in a preview: its inputs. What only the server gives (a created key's id and
 * private key, a job's id and status) is left out, which the engine shows as unknown.
 */
export function previewCreate(news: Props): Props {
  return Object.fromEntries(Object.entries(news).map(([name, value]) => [name, asOutput(value)]));
}

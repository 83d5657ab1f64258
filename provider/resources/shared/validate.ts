import type { z } from "zod";
import { quoteValue } from "../../api/ids";
import { issuePath } from "../../api/parse";
import { nearestName, sameName } from "./closest";

/** The value the engine sends for an input that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** One failure of `check`, as Pulumi shows it: the property and the rule it breaks. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** True when `value` is, or holds, a value not known yet. */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  return false;
}

/**
 * A zod `error` option for a value of the wrong type: `is required` when it is missing, else the rule
 * and what was given, e.g. `must be true or false (got "true")`.
 */
export function typeRule(rule: string) {
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined ? "is required" : `${rule} (got ${quoteValue(issue.input)})`,
  };
}

/**
 * A zod `error` option for a value outside `values`: the rule, what was given, and the value meant.
 * The same name in another case or spelling (`"database"`, `ORG_READONLY`) is named first, then what
 * `note` says of the value, then a near miss (`ORG_OWNR`, `AUTOMATION_AGNET`).
 */
export function oneOfRule(
  values: readonly string[],
  rule: string,
  note?: (input: unknown) => string | undefined,
) {
  const didYouMean = (meant: string | undefined) =>
    meant === undefined ? undefined : `; did you mean ${JSON.stringify(meant)}?`;
  return {
    error: (issue: { input?: unknown }) => {
      const { input } = issue;
      if (input === undefined) return "is required";
      const text = typeof input === "string" ? input : "";
      const extra =
        didYouMean(sameName(values, text)) ?? note?.(input) ?? didYouMean(nearestName(values, text)) ?? "";
      return `${rule} (got ${quoteValue(input)}${extra})`;
    },
  };
}

/**
 * The rules a property's value breaks, as one phrase that names the property: its first issue, then
 * one for every other bad item of a list (`roles[0] … (got "ORG_OWNR" …), and roles[2] … (got 1)`), so
 * that a list with two typos costs one run, not two. Further issues about one item, or about the
 * value as a whole, add nothing a user needs before the first is put right.
 */
function reasonOf(property: string, issues: readonly z.core.$ZodIssue[]): string {
  const items = new Set<number>();
  const reasons: string[] = [];
  for (const issue of issues) {
    const item = issue.path[0];
    if (reasons.length > 0 && (typeof item !== "number" || items.has(item))) continue;
    if (typeof item === "number") items.add(item);
    reasons.push(`${issuePath([property, ...issue.path])} ${issue.message}`);
  }
  return reasons.join(", and ");
}

/**
 * Check `inputs` property by property against `shape`: one failure per bad property, naming the rule.
 * Values not known yet pass. Properties not in `shape` (but `__provider`) are failures too, so that a
 * misspelt input in a JavaScript program is not silently ignored.
 */
export function checkProperties(
  typeName: string,
  shape: Record<string, z.ZodType>,
  inputs: Record<string, unknown>,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const [property, schema] of Object.entries(shape)) {
    const value = inputs[property];
    if (isUnknown(value)) continue;
    const result = schema.safeParse(value);
    if (!result.success) {
      failures.push({ property, reason: reasonOf(property, result.error.issues) });
    }
  }
  for (const property of Object.keys(inputs)) {
    if (property === "__provider" || property in shape) continue;
    failures.push({
      property,
      reason: `${property} is not an input of ${typeName}; its inputs are ${Object.keys(shape).join(", ")}`,
    });
  }
  return failures;
}

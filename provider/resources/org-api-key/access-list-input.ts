/**
 * OrgApiKey's `accessList` input: its rule (what `check` reports, every bad item at once) and the set
 * it stands for, in canonical spelling and sorted, so that the engine's own comparison sees no change
 * in order, repeats of spelling, or `x` against `x/32`.
 */
import { z } from "zod";
import { canonicalEntry, isCanonicalEntry } from "../../api/access-list-entry";
import { quoteValue } from "../../api/ids";
import { typeRule } from "../shared/validate";

/**
 * What is wrong with each item of `list`, one phrase per bad item naming its place, or an empty list
 * when every item is an entry and no entry is there twice (after canonical spelling).
 */
export function accessListProblems(list: readonly unknown[]): string[] {
  const problems: string[] = [];
  const firstAt = new Map<string, number>();
  list.forEach((item, i) => {
    const at = `accessList[${i}] ${quoteValue(item)}`;
    if (typeof item !== "string") {
      problems.push(`${at} is not a string`);
      return;
    }
    const parsed = canonicalEntry(item);
    if (!isCanonicalEntry(parsed)) {
      const instead = parsed.suggestion === undefined ? "" : `; write ${JSON.stringify(parsed.suggestion)}`;
      problems.push(`${at} ${parsed.rule}${instead}`);
      return;
    }
    const seen = firstAt.get(parsed.entry);
    if (seen === undefined) firstAt.set(parsed.entry, i);
    else {
      problems.push(
        `${at} is the same entry as accessList[${seen}] ${quoteValue(list[seen])} (${parsed.entry}); give it once`,
      );
    }
  });
  return problems;
}

/** The rule of `accessList`: a list of IPv4 and IPv6 addresses and CIDR blocks, each entry once. */
export const accessListSchema = z
  .array(z.unknown(), typeRule("must be a list of IP addresses and CIDR blocks"))
  .superRefine((list, ctx) => {
    const problems = accessListProblems(list);
    if (problems.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `must hold IPv4 or IPv6 addresses and CIDR blocks, each entry once: ${problems.join("; ")}`,
      });
    }
  });

/** The entries of a list that passed {@link accessListSchema}, canonical and sorted. */
export function accessListSet(list: readonly string[]): string[] {
  const entries = list.map((item) => {
    const parsed = canonicalEntry(item);
    return isCanonicalEntry(parsed) ? parsed.entry : item;
  });
  return [...new Set(entries)].sort();
}

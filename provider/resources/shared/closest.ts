/**
 * Which of a few known names a mistyped one most likely meant, for "did you mean" in messages.
 */

/** Upper case, letters and digits only: `org_read-only` and `ORG_READONLY` both read `ORGREADONLY`. */
function normalise(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/**
 * Edits (insert, delete, substitute, swap two neighbours) between `a` and `b`: the optimal string
 * alignment distance, which counts a transposition such as `AGNET` for `AGENT` as one typo.
 */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The one of `names` that `input` is, in another case or spelling of `_`, `-` and spaces, or
 * `undefined`.
 *
 * @example sameName(["ORG_OWNER", "ORG_READ_ONLY"], "org_readonly") // "ORG_READ_ONLY"
 */
export function sameName(names: readonly string[], input: string): string | undefined {
  const typed = normalise(input);
  const same = names.filter((name) => normalise(name) === typed);
  return typed !== "" && same.length === 1 ? same[0] : undefined;
}

/**
 * The one of `names` nearest to `input`, within one typo per four characters (at least one), or
 * `undefined` when none is that near or two are equally near. Case, `_`, `-` and spaces are ignored.
 *
 * @example nearestName(["ORG_OWNER", "ORG_MEMBER"], "ORG_OWNR") // "ORG_OWNER"
 */
export function nearestName(names: readonly string[], input: string): string | undefined {
  const typed = normalise(input);
  if (typed === "") return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tied = false;
  for (const name of names) {
    const known = normalise(name);
    const d = distance(known, typed);
    if (d > Math.max(1, Math.floor(known.length / 4))) continue;
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
      tied = false;
    } else if (d === bestDistance) {
      tied = true;
    }
  }
  return tied ? undefined : best;
}

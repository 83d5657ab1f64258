/**
 * Times as the job endpoints take them: ISO 8601 (the documentation's "Extend a Log Collection Job",
 * `2019-04-06T12:21:24Z`), accepted only with a zone (without one, `2026-03-01T10:00:00` differs from
 * one machine to the next) and in whole seconds (the error table's `FRACTIONAL_TIMESTAMP`): fractions
 * are refused here rather than dropped in silence.
 */

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** What a time must look like, for messages. */
export const TIMESTAMP_RULE =
  'must be an ISO 8601 time with a zone, in whole seconds, such as "2026-03-01T00:00:00Z"';

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The instant `value` names, in ms since the epoch, or the rule it breaks. */
export function parseTimestamp(value: unknown): { ms: number } | { rule: string } {
  if (typeof value !== "string") return { rule: TIMESTAMP_RULE };
  const m = ISO_8601.exec(value);
  if (m === null) return { rule: TIMESTAMP_RULE };
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = m[7];
  const offsetHours = m[10] === undefined ? 0 : Number(m[10]);
  const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);
  // Date.parse takes 2026-02-30 for March 2nd; a date that does not exist is a mistake, not a time.
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    return { rule: "must be a date that exists (a month from 01 to 12, a day that month has)" };
  }
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return { rule: "must be a time of day that exists (hours to 23, minutes and seconds to 59)" };
  }
  if (fraction !== undefined && /[1-9]/.test(fraction)) {
    return { rule: "must be a whole number of seconds (the server refuses fractions of a second)" };
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return { rule: TIMESTAMP_RULE };
  return { ms };
}

/** The rule `value` breaks as a time, or `undefined` when it names one instant. */
export function timestampRule(value: unknown): string | undefined {
  const parsed = parseTimestamp(value);
  return "rule" in parsed ? parsed.rule : undefined;
}

/** An instant as the server writes times: UTC, whole seconds (`2019-04-06T12:21:24Z`). */
export function wireTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Whether two texts name the same instant (`…T00:00:00Z` and `…T01:00:00+01:00` do). */
export function sameInstant(a: unknown, b: unknown): boolean {
  const x = typeof a === "string" ? Date.parse(a) : Number.NaN;
  const y = typeof b === "string" ? Date.parse(b) : Number.NaN;
  return !Number.isNaN(x) && x === y;
}

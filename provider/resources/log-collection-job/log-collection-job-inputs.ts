/**
 * LogCollectionJob's inputs: their rules (what `check` reports), which of them a job can change in
 * place, and how two sets of them compare.
 */
import { z } from "zod";
import { DATABASE_LOG_NAMES, isDatabaseLog, logTypeKey } from "../../api/database-log";
import { hex24Rule, quoteValue } from "../../api/ids";
import { MAX_DATE_MS } from "../../api/schemas";
import { TIMESTAMP_RULE, timestampRule } from "../../api/timestamps";
import { LOG_TYPES, RESOURCE_TYPES } from "../../api/types";
import { serverChanged, serverSchema } from "../shared/server-input";
import { type CheckFailure, checkProperties, isUnknown, oneOfRule, typeRule } from "../shared/validate";
import type { LogCollectionJobProviderInputs } from "./types";

/** The inputs a job is created with, and where: a change of any of them is a new job. */
export const CREATE_INPUTS = [
  "server",
  "groupId",
  "resourceType",
  "resourceName",
  "sizeRequestedPerFileBytes",
  "logTypes",
  "redacted",
  "logCollectionFromDate",
  "logCollectionToDate",
] as const;

const SIZE_RULE = `must be a whole number of bytes from 1 to ${Number.MAX_SAFE_INTEGER}`;

const DATE_RULE = "must be a time in whole milliseconds since the epoch";

/** The rules of a time window's end: a positive whole number of ms that a `Date` can hold. */
const dateShape = z
  .number(typeRule(DATE_RULE))
  .refine((v) => Number.isInteger(v), { error: (i) => `${DATE_RULE} (got ${quoteValue(i.input)})` })
  .refine((v) => v > 0, { error: (i) => `must be positive (got ${quoteValue(i.input)})` })
  .refine((v) => v <= MAX_DATE_MS, {
    error: (i) => `must be at most ${MAX_DATE_MS}, the latest time a Date holds (got ${quoteValue(i.input)})`,
  })
  .optional();

/** The first value `values` holds more than once, and how many times. */
function repeated(values: readonly string[]): { value: string; times: number } | undefined {
  for (const value of values) {
    const times = values.filter((v) => v === value).length;
    if (times > 1) return { value, times };
  }
  return undefined;
}

/** The rules of LogCollectionJob's inputs, one schema per property. */
export const logCollectionJobInputShape = {
  groupId: z
    .string(typeRule("must be the project's id, a string"))
    .refine((v) => hex24Rule(v) === undefined, {
      error: (issue) =>
        `must be 24 hexadecimal digits, the project (group) id (got ${quoteValue(issue.input)})`,
    }),
  resourceType: z.enum(
    RESOURCE_TYPES,
    oneOfRule(RESOURCE_TYPES, `must be one of ${RESOURCE_TYPES.join(", ")}`),
  ),
  resourceName: z
    .string(typeRule("must be a string"))
    .refine((v) => v.trim().length > 0, { error: "must not be empty or only white space" })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { error: "must not contain control characters" }),
  sizeRequestedPerFileBytes: z
    // JSON has no NaN or Infinity, but a gRPC Struct does: they arrive here and fail this rule.
    .number(typeRule(SIZE_RULE))
    .refine((v) => Number.isInteger(v), {
      error: (i) => `must be a whole number of bytes (got ${quoteValue(i.input)})`,
    })
    .refine((v) => v > 0, { error: (i) => `must be positive (got ${quoteValue(i.input)})` })
    .refine((v) => v <= Number.MAX_SAFE_INTEGER, {
      error: `must be at most ${Number.MAX_SAFE_INTEGER} bytes (larger numbers lose precision in JSON)`,
    }),
  logTypes: z
    .array(
      z.enum(LOG_TYPES, oneOfRule(LOG_TYPES, `must be one of ${LOG_TYPES.join(", ")}`)),
      typeRule("must be a list of log types"),
    )
    .min(1, { error: "must name at least one log type" })
    .refine((v) => repeated(v) === undefined, {
      error: (i) => {
        const r = repeated(i.input as string[])!;
        return `must not repeat a log type: ${JSON.stringify(r.value)} is given ${r.times} times`;
      },
    })
    .refine((v) => v.filter(isDatabaseLog).length <= 1, {
      error: `must not repeat a log type: ${DATABASE_LOG_NAMES.map((n) => JSON.stringify(n)).join(" and ")} both name the database log`,
    }),
  redacted: z.boolean(typeRule("must be true or false")),
  logCollectionFromDate: dateShape,
  logCollectionToDate: dateShape,
  // Only its form is checked here: whether a time is past, or too far, depends on when the job is
  // extended and when it was created, which the server judges (and says so with its error codes).
  expirationDate: z
    .string(typeRule(TIMESTAMP_RULE))
    .refine((v) => timestampRule(v) === undefined, {
      error: (i) => `${timestampRule(i.input)} (got ${quoteValue(i.input)})`,
    })
    .optional(),
  server: serverSchema,
} satisfies Record<keyof LogCollectionJobProviderInputs, z.ZodType>;

/**
 * Whether two `logTypes` lists ask for the same logs: the job collects a set of log types, so order is
 * no change, and neither is naming the database log `MONGODB` instead of `DATABASE`. A list not known
 * yet (preview) is a change.
 */
export function sameLogTypes(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || isUnknown(a) || isUnknown(b)) return false;
  const x = new Set<unknown>(a.map(logTypeKey));
  const y = new Set<unknown>(b.map(logTypeKey));
  return x.size === y.size && [...x].every((t) => y.has(t));
}

/** A resource type as the spec spells it (`replicaset` → `REPLICASET`); anything else as it is. */
export function specResourceType(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const upper = value.toUpperCase();
  return (RESOURCE_TYPES as readonly string[]).includes(upper) ? upper : value;
}

/** The create inputs whose value in `news` differs from the one in `olds`: each is a new job. */
export function changedCreateInputs(
  olds: Partial<LogCollectionJobProviderInputs>,
  news: LogCollectionJobProviderInputs,
) {
  return CREATE_INPUTS.filter((name) => {
    if (name === "logTypes") return !sameLogTypes(news.logTypes, olds.logTypes);
    if (name === "server") return serverChanged(news, olds);
    return JSON.stringify(news[name]) !== JSON.stringify(olds[name]);
  });
}

/** The create inputs of `source` (the state, or inputs), without a value that is not there. */
export function createInputsOf(
  source: Partial<LogCollectionJobProviderInputs>,
): LogCollectionJobProviderInputs {
  const inputs: Record<string, unknown> = {};
  for (const name of CREATE_INPUTS) if (source[name] !== undefined) inputs[name] = source[name];
  if (Array.isArray(inputs.logTypes)) inputs.logTypes = [...inputs.logTypes];
  return inputs as unknown as LogCollectionJobProviderInputs;
}

/**
 * `check`'s work: one failure per bad input, naming the rule; values not known yet pass.
 * `resourceType` in any case becomes the spec's upper case (mongocli sends it in lower case), so that
 * the engine's own comparison sees no change where only the case differs.
 */
export function checkJobInputs(news: Record<string, unknown>): {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
} {
  const inputs = { ...news };
  delete inputs.__provider;
  // Only a string is touched: a missing input must stay missing (undefined is not plain JSON).
  if (typeof inputs.resourceType === "string" && !isUnknown(inputs.resourceType)) {
    inputs.resourceType = specResourceType(inputs.resourceType);
  }
  const failures = checkProperties("LogCollectionJob", logCollectionJobInputShape, inputs);
  const { logCollectionFromDate: from, logCollectionToDate: to } = inputs;
  const bad = new Set(failures.map((f) => f.property));
  if (
    typeof from === "number" &&
    typeof to === "number" &&
    !bad.has("logCollectionFromDate") &&
    !bad.has("logCollectionToDate") &&
    from >= to
  ) {
    failures.push({
      property: "logCollectionFromDate",
      reason: `logCollectionFromDate must be before logCollectionToDate (got ${from} and ${to})`,
    });
  }
  return { inputs, failures };
}

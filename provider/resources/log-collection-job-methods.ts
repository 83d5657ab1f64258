/**
 * LogCollectionJob's provider methods, as the dynamic-provider host calls them. Loaded in the host by
 * `pulumi-opsmanager/host`, never captured by a serialized provider.
 */
import { z } from "zod";
import { DATABASE_LOG_NAMES, isDatabaseLog, logTypeKey } from "../api/database-log";
import { hex24Rule, show } from "../api/ids";
import { createLogCollectionJob, wasNotSent } from "../api/log-collection-jobs";
import { MAX_DATE_MS } from "../api/schemas";
import { LOG_TYPES, RESOURCE_TYPES } from "../api/types";
import { inContext } from "./in-context";
import type { LogCollectionJobProviderInputs, LogCollectionJobProviderOutputs } from "./provider-types";
import { currentClient, currentSettings, whenConfigured } from "./runtime";
import { checkProperties, isUnknown, oneOfRule, typeRule } from "./validate";

const INPUTS = [
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
  .refine((v) => Number.isInteger(v), { error: (i) => `${DATE_RULE} (got ${show(i.input)})` })
  .refine((v) => v > 0, { error: (i) => `must be positive (got ${show(i.input)})` })
  .refine((v) => v <= MAX_DATE_MS, {
    error: (i) => `must be at most ${MAX_DATE_MS}, the latest time a Date holds (got ${show(i.input)})`,
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
      error: (issue) => `must be 24 hexadecimal digits, the project (group) id (got ${show(issue.input)})`,
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
      error: (i) => `must be a whole number of bytes (got ${show(i.input)})`,
    })
    .refine((v) => v > 0, { error: (i) => `must be positive (got ${show(i.input)})` })
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
function specResourceType(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const upper = value.toUpperCase();
  return (RESOURCE_TYPES as readonly string[]).includes(upper) ? upper : value;
}

/** The inputs whose value in `news` differs from the one in `olds`. */
function changedInputs(olds: LogCollectionJobProviderOutputs, news: LogCollectionJobProviderInputs) {
  return INPUTS.filter((name) => {
    if (name === "logTypes") return !sameLogTypes(news.logTypes, olds.logTypes);
    // State written before check normalized the case compares equal to it.
    if (name === "resourceType") return specResourceType(news[name]) !== specResourceType(olds[name]);
    return JSON.stringify(news[name]) !== JSON.stringify(olds[name]);
  });
}

/**
 * `check`: one failure per bad input, naming the rule; values not known yet pass. `resourceType` in
 * any case becomes the spec's upper case (mongocli sends it in lower case), so that the engine's own
 * comparison sees no change where only the case differs.
 */
export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
  await whenConfigured();
  currentSettings();
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

/** `diff`: a job cannot be changed, so any change of an input is a replacement (`logTypes` as a set). */
export async function diff(
  _id: string,
  olds: LogCollectionJobProviderOutputs,
  news: LogCollectionJobProviderInputs,
) {
  const replaces = changedInputs(olds, news);
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}

function outputsFor(jobId: string, inputs: LogCollectionJobProviderInputs): LogCollectionJobProviderOutputs {
  const { logCollectionFromDate: from, logCollectionToDate: to } = inputs;
  return {
    jobId,
    groupId: inputs.groupId,
    resourceType: inputs.resourceType,
    resourceName: inputs.resourceName,
    sizeRequestedPerFileBytes: inputs.sizeRequestedPerFileBytes,
    // As declared: MONGODB or DATABASE, whichever name the server was sent.
    logTypes: [...inputs.logTypes],
    redacted: inputs.redacted,
    // Outputs are plain JSON: an absent end of the window is left out, never undefined.
    ...(from === undefined ? {} : { logCollectionFromDate: from }),
    ...(to === undefined ? {} : { logCollectionToDate: to }),
  };
}

/** `create`: one POST; the returned id is the resource's id. Never sent twice. */
export async function create(inputs: LogCollectionJobProviderInputs) {
  await whenConfigured();
  try {
    const { id } = await createLogCollectionJob(currentClient(), inputs.groupId, {
      resourceType: inputs.resourceType,
      resourceName: inputs.resourceName,
      sizeRequestedPerFileBytes: inputs.sizeRequestedPerFileBytes,
      logTypes: inputs.logTypes,
      redacted: inputs.redacted,
      logCollectionFromDate: inputs.logCollectionFromDate,
      logCollectionToDate: inputs.logCollectionToDate,
    });
    return { id, outs: outputsFor(id, inputs) };
  } catch (error) {
    // Only a POST the server did not act on is ever sent again, so none before this one made a job.
    const advice = wasNotSent(error) ? ". No log collection job was created." : "";
    const wrapped = inContext(`LogCollectionJob (project ${inputs.groupId})`, error, advice);
    const createdId = (error as { createdId?: unknown }).createdId;
    if (typeof createdId === "string") {
      // The server made the job but its answer broke the schema: record it anyway (a partially
      // created resource, which the engine keeps in state) so that it is neither lost nor made twice.
      wrapped.message += `. The server did create job ${createdId}: it is recorded in the stack; run \`pulumi refresh\` or \`pulumi up\` again to settle it.`;
      Object.assign(wrapped, {
        id: createdId,
        properties: outputsFor(createdId, inputs),
        reasons: [wrapped.message],
      });
    }
    throw wrapped;
  }
}

/** `read`: the API has no read of a job, so the state stands as recorded (no request). */
export async function read(id: string, olds: LogCollectionJobProviderOutputs) {
  return { id, props: { ...olds, jobId: id } };
}

/** `update` is never planned (every change is a replacement); it returns the state unchanged. */
export async function update(
  id: string,
  olds: LogCollectionJobProviderOutputs,
  news: LogCollectionJobProviderInputs,
) {
  const changed = changedInputs(olds, news);
  if (changed.length > 0) {
    throw new Error(
      `LogCollectionJob ${id} cannot be changed in place (${changed.join(", ")}); it must be replaced.`,
    );
  }
  return { outs: outputsFor(id, olds) };
}

/** `delete`: the API has no delete of a job; the job leaves the stack and runs its course. */
export async function remove(_id: string, _olds: LogCollectionJobProviderOutputs): Promise<void> {}

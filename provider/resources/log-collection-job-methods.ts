/**
 * LogCollectionJob's provider methods, as the dynamic-provider host calls them. Loaded in the host by
 * `pulumi-opsmanager/host`, never captured by a serialized provider.
 */
import { z } from "zod";
import { sameName } from "../api/closest";
import { hex24Rule, show } from "../api/ids";
import { createLogCollectionJob, wasNotSent } from "../api/log-collection-jobs";
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
] as const;

const SIZE_RULE = `must be a whole number of bytes from 1 to ${Number.MAX_SAFE_INTEGER}`;

/** The first value `values` holds more than once, and how many times. */
function repeated(values: readonly string[]): { value: string; times: number } | undefined {
  for (const value of values) {
    const times = values.filter((v) => v === value).length;
    if (times > 1) return { value, times };
  }
  return undefined;
}

// The Ops Manager documentation and mongocli name the database log MONGODB; the spec, and so this
// provider, name it DATABASE (NOTES.md, "The deployed server").
const databaseLogNote = (input: unknown) =>
  typeof input === "string" && sameName(["MONGODB", "MONGOD"], input) !== undefined
    ? '; did you mean "DATABASE"? (the API reference this provider follows names the database log DATABASE)'
    : undefined;

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
      z.enum(LOG_TYPES, oneOfRule(LOG_TYPES, `must be one of ${LOG_TYPES.join(", ")}`, databaseLogNote)),
      typeRule("must be a list of log types"),
    )
    .min(1, { error: "must name at least one log type" })
    .refine((v) => repeated(v) === undefined, {
      error: (i) => {
        const r = repeated(i.input as string[])!;
        return `must not repeat a log type: ${JSON.stringify(r.value)} is given ${r.times} times`;
      },
    }),
  redacted: z.boolean(typeRule("must be true or false")),
} satisfies Record<keyof LogCollectionJobProviderInputs, z.ZodType>;

/**
 * Whether two `logTypes` lists ask for the same logs: the job collects a set of log types, so order is
 * no change. A list not known yet (preview) is a change.
 */
export function sameLogTypes(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || isUnknown(a) || isUnknown(b)) return false;
  const x = new Set<unknown>(a);
  const y = new Set<unknown>(b);
  return x.size === y.size && [...x].every((t) => y.has(t));
}

/** The inputs whose value in `news` differs from the one in `olds`. */
function changedInputs(olds: LogCollectionJobProviderOutputs, news: LogCollectionJobProviderInputs) {
  return INPUTS.filter((name) =>
    name === "logTypes"
      ? !sameLogTypes(news.logTypes, olds.logTypes)
      : JSON.stringify(news[name]) !== JSON.stringify(olds[name]),
  );
}

/** `check`: one failure per bad input, naming the rule; values not known yet pass. */
export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
  await whenConfigured();
  currentSettings();
  const failures = checkProperties("LogCollectionJob", logCollectionJobInputShape, news);
  const inputs = { ...news };
  delete inputs.__provider;
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
  return {
    jobId,
    groupId: inputs.groupId,
    resourceType: inputs.resourceType,
    resourceName: inputs.resourceName,
    sizeRequestedPerFileBytes: inputs.sizeRequestedPerFileBytes,
    logTypes: [...inputs.logTypes],
    redacted: inputs.redacted,
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

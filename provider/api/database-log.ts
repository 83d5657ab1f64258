/**
 * The database log's two names: `MONGODB` on deployed servers (the Ops Manager documentation, MongoDB's
 * Go client, mongocli's `--type`), `DATABASE` in the spec. Whether a deployed server takes `DATABASE`
 * too is not documented, so the server's answer decides (docs/servers.md, "The database log's name").
 */
import { ApiError } from "../client/errors";

/** The names of the database log, the deployed servers' first. */
export const DATABASE_LOG_NAMES = ["MONGODB", "DATABASE"] as const;
export type DatabaseLogName = (typeof DATABASE_LOG_NAMES)[number];

/** Whether `logType` is the database log, under either name. */
export function isDatabaseLog(logType: unknown): boolean {
  return (DATABASE_LOG_NAMES as readonly unknown[]).includes(logType);
}

/** One name per log, for comparing lists: the database log reads as `MONGODB` whichever name it has. */
export function logTypeKey(logType: unknown): unknown {
  return isDatabaseLog(logType) ? DATABASE_LOG_NAMES[0] : logType;
}

/** What a server showed of the database log's name: kept by the caller, one per server. */
export interface DatabaseLogMemory {
  /** The name the server took. */
  accepted?: DatabaseLogName;
  /** Settles when the create that is finding out is done, learned or not. */
  learning?: Promise<void>;
}

function mentions(text: unknown, word: string): boolean {
  return typeof text === "string" && new RegExp(`\\b${word}\\b`).test(text);
}

/**
 * Whether `error` is the server refusing the log type `name`: a 400 `INVALID_ENUM_VALUE` naming it (or
 * `logTypes`), or a 400 `INVALID_ATTRIBUTE` naming `logTypes`.
 */
export function refusesLogType(error: unknown, name: string): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const said = [error.detail, ...(error.parameters ?? [])];
  if (error.errorCode === "INVALID_ENUM_VALUE") {
    return said.some((text) => mentions(text, name) || mentions(text, "logTypes"));
  }
  if (error.errorCode === "INVALID_ATTRIBUTE") return said.some((text) => mentions(text, "logTypes"));
  return false;
}

/**
 * Sends a create through `send` with `logTypes` naming the database log as the server takes it. Until
 * `memory` knows the name, one create sends the declared name and, if the server refuses that log type
 * with a 400 (so nothing was made), the other; creates naming the database log meanwhile wait for it.
 */
export async function sendNamingDatabaseLog<T>(
  memory: DatabaseLogMemory,
  logTypes: readonly string[],
  send: (logTypes: string[]) => Promise<T>,
): Promise<T> {
  const declared = logTypes.find(isDatabaseLog) as DatabaseLogName | undefined;
  if (declared === undefined) return send([...logTypes]);
  const named = (name: DatabaseLogName) => logTypes.map((t) => (isDatabaseLog(t) ? name : t));
  for (;;) {
    if (memory.accepted !== undefined) return send(named(memory.accepted));
    if (memory.learning === undefined) break;
    // Then either the name is known, or that create failed otherwise and this one finds out.
    await memory.learning;
  }
  let done: () => void = () => undefined;
  memory.learning = new Promise<void>((resolve) => {
    done = resolve;
  });
  const other = DATABASE_LOG_NAMES.find((name) => name !== declared)!;
  try {
    for (const name of [declared, other]) {
      try {
        const result = await send(named(name));
        memory.accepted = name;
        return result;
      } catch (error) {
        if (name === other || !refusesLogType(error, name)) throw error;
      }
    }
    throw new Error("unreachable: the other name's failure is thrown above");
  } finally {
    memory.learning = undefined;
    done();
  }
}

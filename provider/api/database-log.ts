/**
 * The database log's two names. Deployed servers call it `MONGODB` (the Ops Manager documentation, the
 * requests of MongoDB's Go client, mongocli's `--type`); the spec calls it `DATABASE`. Whether a
 * deployed server takes `DATABASE` too is not documented (NOTES.md), so a create is sent with the name
 * the server is known to take, learned once per client.
 */
import { ApiError } from "../client/errors";
import type { Transport } from "./transport";

/** The names of the database log, the deployed servers' first: the order a create tries them in. */
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

// The name each client's server took (clients are shared per server and credentials for the process).
const accepted = new WeakMap<Transport, DatabaseLogName>();
// Settles when the create that is finding out for a client is done, learned or not.
const learning = new WeakMap<Transport, Promise<void>>();

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
 * Sends a create through `send` with `logTypes` naming the database log as the server takes it. While
 * no create on this client has learned the name, one sends `MONGODB`; if the server refuses that log
 * type with a 400 (which means nothing was created), it sends once more with `DATABASE`. The name that
 * passed is remembered for the client, so later creates cost one request; creates naming the database
 * log meanwhile wait for it. A list without the database log is sent as it is.
 */
export async function sendNamingDatabaseLog<T>(
  transport: Transport,
  logTypes: readonly string[],
  send: (logTypes: string[]) => Promise<T>,
): Promise<T> {
  if (!logTypes.some(isDatabaseLog)) return send([...logTypes]);
  const named = (name: DatabaseLogName) => logTypes.map((t) => (isDatabaseLog(t) ? name : t));
  for (;;) {
    const known = accepted.get(transport);
    if (known !== undefined) return send(named(known));
    const pending = learning.get(transport);
    if (pending === undefined) break;
    // Then either the name is known, or that create failed otherwise and this one finds out.
    await pending;
  }
  let done: () => void = () => undefined;
  learning.set(
    transport,
    new Promise<void>((resolve) => {
      done = resolve;
    }),
  );
  try {
    for (const [index, name] of DATABASE_LOG_NAMES.entries()) {
      try {
        const result = await send(named(name));
        accepted.set(transport, name);
        return result;
      } catch (error) {
        if (index === DATABASE_LOG_NAMES.length - 1 || !refusesLogType(error, name)) throw error;
      }
    }
    throw new Error("unreachable: the last name's failure is thrown above");
  } finally {
    learning.delete(transport);
    done();
  }
}

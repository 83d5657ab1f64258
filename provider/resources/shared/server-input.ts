/**
 * The `server` input every resource of the package takes: the name of a server in `opsmanager:servers`
 * (./servers.ts), absent for the default server. Only the name is an input, never what it stands for.
 */
import { z } from "zod";
import { apiRootIdentity } from "../../api/api-root";
import { quoteValue } from "../../api/ids";
import type { HttpClient } from "../../client";
import { ConfigError } from "./config-error";
import { inContext } from "./in-context";
import { previewInputs } from "./preview-links";
import { currentClient, currentConfig, currentSettings, whenConfigured } from "./runtime";
import { serverNameRule, settingKey, unknownServerReason } from "./servers";
import type { Settings } from "./settings";
import { type CheckFailure, isUnknown, typeRule } from "./validate";

/** The rule of `server`: a name a config path can hold. Whether it is configured is {@link checkServer}'s. */
export const serverSchema = z
  .string(typeRule("must be the name of a server in opsmanager:servers, a string"))
  .refine((v) => serverNameRule(v) === undefined, {
    error: (issue) => `${serverNameRule(issue.input as string)} (got ${quoteValue(issue.input)})`,
  })
  .optional();

/**
 * `check`'s part for the server: the settings of the server `news.server` names (the default server's
 * when it names none) are resolved, so that a missing or bad setting fails the preview before any
 * request leaves; a name no configured server has is a failure of `server` that names the ones there
 * are. A name not known yet is checked when it is (at `create`).
 */
export function checkServer(news: Record<string, unknown>): CheckFailure[] {
  const { server } = news;
  if (isUnknown(server)) return [];
  if (server === undefined) {
    currentSettings();
    return [];
  }
  // A name of the wrong form is the schema's failure.
  if (typeof server !== "string" || serverNameRule(server) !== undefined) return [];
  const unknown = unknownServerReason(server, currentConfig());
  if (unknown !== undefined) return [{ property: "server", reason: `server ${unknown}` }];
  currentSettings(server);
  return [];
}

/**
 * Whether a resource moves to another server: a replacement. State written before `server` is the
 * default's. Another name for the same server (its API root), such as a server renamed while the old
 * name is still configured, or the default server given a name, is no move: the new name is recorded
 * in place, without a request. A name not known yet, or one whose settings do not resolve, is a move.
 */
export function serverChanged(news: { server?: string }, state: { server?: string }): boolean {
  if (isUnknown(news.server)) return true;
  if (news.server === state.server) return false;
  const from = identityOf(state.server);
  if (from === undefined) {
    // The old server's resource would be made anew elsewhere and never deleted: say so before anything is.
    throw new ConfigError(
      `the resource moves from ${describeServer(state.server)} to ${describeServer(news.server)}, but ${describeServer(state.server)} is no longer configured: ` +
        `keep its settings (${settingKey(state.server, "baseUrl")} and the rest) until the move is done, then remove them`,
      [settingKey(state.server, "baseUrl")],
    );
  }
  const to = identityOf(news.server);
  return to === undefined || to !== from;
}

const describeServer = (server: string | undefined) =>
  server === undefined ? "the default server" : `server ${JSON.stringify(server)}`;

/**
 * Which Ops Manager `server` names: its API root as its settings give it now, one spelling for every
 * way of writing the same URL (`https://om:443/`, `https://OM`). `undefined` when they do not resolve.
 */
export function identityOf(server: string | undefined): string | undefined {
  let settings: Settings;
  try {
    settings = currentSettings(server);
  } catch {
    return undefined;
  }
  if (!identities.has(settings)) identities.set(settings, apiRootIdentity(settings.baseUrl));
  return identities.get(settings);
}

// The identity of each settings object: currentSettings gives the same object while the settings stay
// the same, and every diff asks.
const identities = new WeakMap<Settings, string | undefined>();

/**
 * The `server` part of every resource's `diff`, in one place: a move to another server (another API
 * root, a name not known yet) is a replacement ({@link serverChanged}); another name for the same
 * server is recorded in place, an update that sends no request.
 */
export function serverDiff(
  news: { server?: string },
  state: { server?: string },
): { replace: boolean; rename: boolean } {
  const replace = serverChanged(news, state);
  return { replace, rename: !replace && news.server !== state.server };
}

/**
 * The client of `server` for the resource `prefix` names: settings that no longer resolve (a server
 * the stack holds resources on, since removed from config) fail with the resource in front.
 */
export function clientIn(prefix: string, server: string | undefined): HttpClient {
  try {
    return currentClient(server);
  } catch (error) {
    throw inContext(prefix, error);
  }
}

/** `, server dc2` for a resource on a named server, to name it in messages; "" for the default server. */
export function onServer(server: string | undefined): string {
  return server === undefined ? "" : `, server ${server}`;
}

/** `{ server }` when the resource names one, else `{}`: outputs hold no `undefined`. */
export function serverField(inputs: { server?: string }): { server?: string } {
  return inputs.server === undefined ? {} : { server: inputs.server };
}

/** A resource's own input rules: the checked inputs, and one failure per bad input. */
export type InputCheck = (news: Record<string, unknown>) => {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
};

/**
 * A resource's `check`: once configuration is in, the server's name and settings ({@link checkServer}),
 * so that bad settings fail the preview before any request leaves, and the resource's own rules; every
 * failure at once. The engine goes on with the checked inputs only when there is none.
 */
export async function checkResource<Inputs>(news: object, checkInputs: InputCheck) {
  await whenConfigured();
  const serverFailures = checkServer(news as Record<string, unknown>);
  // A dynamic preview's links between a key and its dependents are no inputs: they reach `diff` as they came.
  const links = previewInputs(news);
  const declared = { ...(news as Record<string, unknown>) };
  for (const name of Object.keys(links)) delete declared[name];
  const { inputs, failures } = checkInputs(declared);
  const checked = { ...inputs, ...links };
  return { inputs: checked as Partial<Inputs> as Inputs, failures: [...failures, ...serverFailures] };
}

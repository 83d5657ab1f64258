/**
 * The provider's own configuration, as the plugin's CheckConfig, Configure and DiffConfig answer it:
 * the core's setting rules (../resources/shared/settings.ts) in the words the user wrote them in
 * (`baseUrl`, an input of an explicit `opsmanager.Provider`, or `opsmanager:baseUrl`, the stack config
 * of the default provider), and which change of settings moves the provider's resources to another
 * server. Each provider instance is a plugin process of its own, so its settings are the process's.
 */
import { apiRootIdentity } from "../api/api-root";
import { ConfigError } from "../resources/shared/config-error";
import type { FieldDiff } from "../resources/shared/field-diff";
import {
  type ConfigLookup,
  DEFAULT_NAMING,
  type Naming,
  redactUrl,
  resolveSettings,
  SETTINGS,
  type SettingName,
  settingValue,
} from "../resources/shared/settings";
import { SETTINGS_SCHEMA } from "../resources/shared/settings-schema";
import { type CheckFailure, isUnknown } from "../resources/shared/validate";
import { configLookup } from "./answers";

const NAMES = Object.keys(SETTINGS) as SettingName[];

/** The settings the provider's state keeps secret, plain text given or not: the schema's secrets. */
export const SECRET_SETTINGS: readonly SettingName[] = NAMES.filter(
  (name) => (SETTINGS_SCHEMA[name] as { secret?: boolean }).secret === true,
);

/** The input the engine adds to every provider's: the plugin's version, no setting. */
const VERSION = "version";

/** An explicit provider's settings: its inputs, then the environment. */
export const PROVIDER_NAMING: Naming = {
  key: (name) => name,
  describe: (name) =>
    `${name} (an input of the provider, or the environment variable ${SETTINGS[name].env.join(" or ")})`,
};

/**
 * How the provider a URN names calls its settings: the engine's default provider
 * (`pulumi:providers:opsmanager::default`, `default_0_1_0` with a version, and the plugin's download URL
 * as a name after either, `default_0_1_0_github_/api.github.com/…`) takes them from stack config,
 * `opsmanager:baseUrl`; any other is an explicit provider with inputs, `baseUrl`. A URN not given (an
 * engine before Configure carried one) is the default provider's.
 */
export function namingOf(urn: string | undefined): Naming {
  if (!urn) return DEFAULT_NAMING;
  const name = urn.split("::").pop() ?? "";
  return /^default(_\d.*|_[a-z][a-z0-9+.-]*_\/.*)?$/i.test(name) ? DEFAULT_NAMING : PROVIDER_NAMING;
}

function lookupOf(values: Record<string, unknown>): ConfigLookup {
  const lookup = configLookup(values);
  return (key) => lookup.get(key);
}

/**
 * The provider's settings checked against every rule of the core, the environment's fallbacks
 * included, as the user named them: the lookup Configure records, or the {@link ConfigError} it fails
 * with.
 */
export function checkedConfig(
  urn: string | undefined,
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): { get(key: string): string | undefined } {
  resolveSettings(lookupOf(values), env, namingOf(urn));
  return configLookup(values);
}

/**
 * CheckConfig's failures: what {@link checkedConfig} refuses, as the property the user wrote and the
 * rule. None while a setting is not known yet (a preview): the engine checks again once it is.
 */
export function configFailures(
  urn: string | undefined,
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): CheckFailure[] {
  if (NAMES.some((name) => isUnknown(values[name]))) return [];
  try {
    checkedConfig(urn, values, env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const naming = namingOf(urn);
    const named =
      error.settings.length === 1 ? NAMES.find((n) => naming.key(n) === error.settings[0]) : undefined;
    const given = named === undefined ? undefined : values[named];
    // The engine prints the value of the property a failure names: a URL with a password in it is
    // named in the reason alone, redacted.
    const hidden = typeof given === "string" && redactUrl(given) !== given;
    return [{ property: named === undefined || hidden ? "" : naming.key(named), reason: error.message }];
  }
}

/** Which Ops Manager `values` reach: the API root of their base URL (the environment's when unset). */
function serverOf(values: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined {
  const url = settingValue(lookupOf(values), "baseUrl", env);
  return url === undefined ? undefined : (apiRootIdentity(url) ?? url);
}

/**
 * DiffConfig: the settings that change, and whether the change moves every resource of the provider
 * to another server (another API root of `baseUrl`, or one not known yet): a replacement, so that the
 * engine makes them anew on the new server and deletes them from the old one with the old settings.
 * Credentials, CA, timeout, and another spelling of the same server's URL change in place. A setting
 * the environment gives is compared as the environment gives it now; old settings that hold none of
 * the provider's settings, or name no server, replace nothing.
 */
export function configDiff(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): FieldDiff {
  const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
    (key) => key !== VERSION && JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
  );
  // Old settings that hold none of this package's are no provider of this package's (the engine diffs
  // the dynamic types' provider against this one when a stack moves here by aliases), whatever the
  // environment says now; nor are a URL the environment no longer gives: there is no old server to
  // compare, nor to delete from.
  const from = NAMES.some((name) => olds[name] !== undefined) ? serverOf(olds, env) : undefined;
  const moves =
    changed.includes("baseUrl") &&
    (isUnknown(news.baseUrl) || (from !== undefined && from !== serverOf(news, env)));
  return {
    replaces: moves ? ["baseUrl"] : [],
    updates: changed.filter((key) => !(moves && key === "baseUrl")),
    deleteBeforeReplace: false,
  };
}

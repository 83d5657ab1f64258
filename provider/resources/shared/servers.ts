/**
 * Named servers: one program reaching several Ops Managers. Each is an entry of the structured stack
 * config `opsmanager:servers` (`pulumi config set --path 'opsmanager:servers.dc2.baseUrl' …`), chosen
 * by a resource's `server` input. Only the name is an input; the URL and the credentials are read from
 * config at call time, so they never reach state, outputs or the serialized provider.
 *
 * The engine hands a dynamic provider each stack config value as a string, a structured one as its JSON
 * text with the secrets inside it decrypted (`Target.GetPackageConfig` in pulumi/pulumi), and a program
 * reads it the same way (`pulumi.runtime.getConfig`).
 */
import { nearestName } from "./closest";
import { ConfigError } from "./config-error";
import {
  type ConfigLookup,
  checkedSettings,
  type Naming,
  type RawSettings,
  SETTINGS,
  type SettingName,
  type Settings,
} from "./settings";

/** The stack config key that holds the named servers, one object per name. */
export const SERVERS_CONFIG = "opsmanager:servers";

/** What a server's name may be: it is a key in a config path, so no dots, brackets or spaces. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** The rule a server name breaks, or `undefined`. */
export function serverNameRule(name: string): string | undefined {
  return SERVER_NAME.test(name)
    ? undefined
    : "must be a server's name: 1 to 63 letters, digits, '-' or '_', starting with a letter or digit";
}

const SERVER_SETTINGS = Object.keys(SETTINGS) as SettingName[];

/** The stack config key of `name` for `server`: `opsmanager:publicKey`, or `opsmanager:servers.dc2.publicKey`. */
export function settingKey(server: string | undefined, name: SettingName): string {
  return server === undefined ? SETTINGS[name].config : `${SERVERS_CONFIG}.${server}.${name}`;
}

function namingOf(server: string): Naming {
  const key = (name: SettingName) => settingKey(server, name);
  return {
    server,
    key,
    describe: (name) =>
      `${key(name)} (pulumi config set ${name === "privateKey" ? "--secret " : ""}--path '${key(name)}' …)`,
  };
}

const HOW_TO_ADD = (name: string) =>
  `add it with pulumi config set --path '${SERVERS_CONFIG}.${name}.baseUrl' URL, ` +
  `pulumi config set --path '${SERVERS_CONFIG}.${name}.publicKey' KEY and ` +
  `pulumi config set --secret --path '${SERVERS_CONFIG}.${name}.privateKey' KEY`;

/**
 * The named servers in stack config, by name (`{}` when none). The value is never shown in an error:
 * it holds private keys.
 */
export function configuredServers(config: ConfigLookup | undefined): Record<string, Record<string, unknown>> {
  const text = config?.(SERVERS_CONFIG);
  if (text === undefined || text.trim() === "") return {};
  // Every call of every resource asks for its server: the same text is parsed and checked once.
  if (parsed?.text === text) return parsed.servers;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isObject(value)) {
    throw new ConfigError(
      `${SERVERS_CONFIG} must be an object of named servers, each set by path (pulumi config set --path '${SERVERS_CONFIG}.NAME.baseUrl' URL); it is set, but not as one`,
      [SERVERS_CONFIG],
    );
  }
  for (const [name, entry] of Object.entries(value)) {
    if (!isObject(entry)) {
      throw new ConfigError(
        `${SERVERS_CONFIG}.${name} must be an object of settings (baseUrl, publicKey, privateKey, caCertificate, timeoutSeconds), set by path: pulumi config set --path '${SERVERS_CONFIG}.${name}.baseUrl' URL`,
        [`${SERVERS_CONFIG}.${name}`],
      );
    }
  }
  parsed = { text, servers: value as Record<string, Record<string, unknown>> };
  return parsed.servers;
}

let parsed: { text: string; servers: Record<string, Record<string, unknown>> } | undefined;

/** The names of the configured servers, sorted, for messages. */
export function serverNames(config: ConfigLookup | undefined): string[] {
  return Object.keys(configuredServers(config)).sort();
}

/**
 * Why `name` names no configured server, or `undefined` when it does: the names there are, or how to
 * add the first one.
 */
export function unknownServerReason(name: string, config: ConfigLookup | undefined): string | undefined {
  const names = serverNames(config);
  if (names.includes(name)) return undefined;
  if (names.length === 0) {
    return `names the server ${JSON.stringify(name)}, but no server is configured under ${SERVERS_CONFIG}: ${HOW_TO_ADD(name)}`;
  }
  const meant = nearestName(names, name);
  return (
    `names the server ${JSON.stringify(name)}, which is not configured; ${SERVERS_CONFIG} has ${names.join(", ")}` +
    `${meant === undefined ? "" : ` (did you mean ${JSON.stringify(meant)}?)`}, or ${HOW_TO_ADD(name)}`
  );
}

/**
 * The settings of the named server `name`, from `opsmanager:servers.<name>` alone (named servers have
 * no environment fallbacks: the environment is the default server's). Throws one {@link ConfigError}
 * that names the exact `--path` key of each missing or bad setting.
 */
export function resolveServerSettings(name: string, config: ConfigLookup | undefined): Settings {
  const servers = configuredServers(config);
  // Own names only: `constructor` or `toString` is a name like any other, not a member of every object.
  const entry = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (entry === undefined) {
    throw new ConfigError(
      `server ${unknownServerReason(name, config)}. A resource the stack holds on it needs it configured, under that name, until the resource is deleted or moved`,
      [`${SERVERS_CONFIG}.${name}`],
    );
  }
  const naming = namingOf(name);
  const raw: RawSettings = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!(SERVER_SETTINGS as string[]).includes(key)) {
      const meant = nearestName(SERVER_SETTINGS, key);
      throw new ConfigError(
        `${SERVERS_CONFIG}.${name}.${key} is not a setting of a server; its settings are ${SERVER_SETTINGS.join(", ")}` +
          (meant === undefined ? "" : ` (did you mean ${meant}?)`),
        [`${SERVERS_CONFIG}.${name}.${key}`],
      );
    }
    const setting = key as SettingName;
    // `pulumi config set --path` stores what looks like a number as one: a timeout, or a user name
    // of digits, may come as a number.
    const number =
      typeof value === "number" &&
      (setting === "timeoutSeconds" ? Number.isFinite(value) : Number.isSafeInteger(value));
    if (typeof value === "string" || number) {
      const text = String(value).trim();
      if (text !== "") raw[setting] = text;
    } else if (value !== null && value !== undefined) {
      throw new ConfigError(
        `${naming.key(setting)} must be a string; set it with ${naming.describe(setting)}` +
          (typeof value === "number"
            ? " (digits too many for a number: quote the value in Pulumi.<stack>.yaml)"
            : ""),
        [naming.key(setting)],
      );
    }
  }
  return checkedSettings(raw, naming);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

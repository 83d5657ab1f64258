import { readFileSync } from "node:fs";
import { ConfigError } from "./config-error";

/** Where each setting comes from: stack config first, then these environment variables in order. */
export const SETTINGS = {
  baseUrl: { config: "opsmanager:baseUrl", env: ["OPSMANAGER_BASE_URL", "MCLI_OPS_MANAGER_URL"] },
  publicKey: { config: "opsmanager:publicKey", env: ["OPSMANAGER_PUBLIC_KEY", "MCLI_PUBLIC_API_KEY"] },
  privateKey: { config: "opsmanager:privateKey", env: ["OPSMANAGER_PRIVATE_KEY", "MCLI_PRIVATE_API_KEY"] },
  // The path of a PEM file, not its text: the client's `caPem` takes the text read from it.
  caCertificate: { config: "opsmanager:caCertificate", env: ["OPSMANAGER_CA_CERTIFICATE"] },
  timeoutSeconds: { config: "opsmanager:timeoutSeconds", env: ["OPSMANAGER_TIMEOUT_SECONDS"] },
} as const;

type SettingName = keyof typeof SETTINGS;
const REQUIRED: SettingName[] = ["baseUrl", "publicKey", "privateKey"];

/** Resolved settings. `privateKey` is a credential: never print it. */
export interface Settings {
  /** The named server these are the settings of (`opsmanager:servers.<name>`); absent for the default. */
  server?: string;
  baseUrl: string;
  publicKey: string;
  privateKey: string;
  /** Path of a PEM file with the server's certificate authority, when set (`opsmanager:caCertificate`). */
  caCertificatePath?: string;
  /** PEM text read from the file at {@link caCertificatePath}. */
  caPem?: string;
  /** Time allowed for one HTTP attempt. Default 30 s. */
  timeoutMs: number;
}

/** Reads one stack config value by its full name (`opsmanager:baseUrl`), or `undefined`. */
export type ConfigLookup = (key: string) => string | undefined;

export type { SettingName };

/**
 * How one server's settings are named to the user: the key each is set under, and that key with how
 * to set it. The default server's are top-level keys with environment fallbacks; a named server's sit
 * under `opsmanager:servers` (./servers.ts).
 */
export interface Naming {
  server?: string;
  key(name: SettingName): string;
  describe(name: SettingName): string;
}

/** The default server's names: `opsmanager:baseUrl (pulumi config set …, or the environment variable …)`. */
export const DEFAULT_NAMING: Naming = {
  key: (name) => SETTINGS[name].config,
  describe(name) {
    const s = SETTINGS[name];
    const secret = name === "privateKey" ? "--secret " : "";
    return `${s.config} (pulumi config set ${secret}${s.config} …, or the environment variable ${s.env.join(" or ")})`;
  },
};

// PEM text read once per path and process: every resource of a deployment shares it.
const caFiles = new Map<string, string>();

function readCaFile(path: string, naming: Naming): string {
  const cached = caFiles.get(path);
  if (cached !== undefined) return cached;
  const key = naming.key("caCertificate");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError(
      `${key} names the CA certificate file ${JSON.stringify(path)}, which cannot be read (${code}). ` +
        `Give the path of a readable PEM file with ${naming.describe("caCertificate")}.`,
      [key],
    );
  }
  if (!text.includes("-----BEGIN CERTIFICATE-----")) {
    throw new ConfigError(
      `${key} names ${JSON.stringify(path)}, which holds no PEM certificate ("-----BEGIN CERTIFICATE-----"). ` +
        "Give the path of the PEM file of the certificate authority that signed the server's certificate.",
      [key],
    );
  }
  caFiles.set(path, text);
  return text;
}

/** One default-server setting as given, trimmed: from stack config, else its environment variables. */
export function settingValue(
  config: ConfigLookup | undefined,
  name: SettingName,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const fromConfig = config?.(SETTINGS[name].config);
  const value =
    fromConfig !== undefined && fromConfig !== ""
      ? fromConfig
      : SETTINGS[name].env.map((v) => env[v]).find((v) => v !== undefined && v !== "");
  return value?.trim();
}

/**
 * Resolve the default server's settings from stack config, then the environment at call time. Throws
 * one {@link ConfigError} that names every missing or bad setting and both places it can be set, in
 * `naming`'s words (default: the stack config keys).
 */
export function resolveSettings(
  config: ConfigLookup | undefined,
  env: NodeJS.ProcessEnv = process.env,
  naming: Naming = DEFAULT_NAMING,
): Settings {
  const raw: RawSettings = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const value = settingValue(config, name, env);
    if (value !== undefined) raw[name] = value;
  }
  return checkedSettings(raw, naming);
}

/** One server's settings as given, trimmed, before their rules are checked. */
export type RawSettings = Partial<Record<SettingName, string>>;

// Every resource call resolves its server's settings; the same raw values give the same (checked)
// settings, one entry per server.
const resolved = new Map<string, { raw: RawSettings; settings: Settings }>();

/** `raw` checked against every rule, named to the user as `naming` says. */
export function checkedSettings(raw: RawSettings, naming: Naming): Settings {
  const last = resolved.get(naming.server ?? "");
  if (last !== undefined && sameRaw(last.raw, raw)) return last.settings;
  const missing = REQUIRED.filter((name) => raw[name] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `Ops Manager settings missing: ${missing.map((n) => naming.key(n)).join(", ")}. Set ${missing
        .map((n) => naming.describe(n))
        .join("; ")}.`,
      missing.map((n) => naming.key(n)),
    );
  }
  const baseUrl = raw.baseUrl!;
  const urlRule = baseUrlRule(baseUrl, `${naming.key("publicKey")} and ${naming.key("privateKey")}`);
  if (urlRule !== undefined) {
    throw new ConfigError(
      `${naming.key("baseUrl")} ${urlRule} (got ${JSON.stringify(redactUrl(baseUrl).slice(0, 100))}); for example https://om.example.com:8443`,
      [naming.key("baseUrl")],
    );
  }
  let timeoutMs = 30_000;
  if (raw.timeoutSeconds !== undefined) {
    const seconds = Number(raw.timeoutSeconds);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
      throw new ConfigError(
        `${naming.key("timeoutSeconds")} must be a number of seconds greater than 0 and at most 3600 (got ${JSON.stringify(raw.timeoutSeconds)})`,
        [naming.key("timeoutSeconds")],
      );
    }
    timeoutMs = Math.round(seconds * 1000);
  }
  const settings: Settings = { baseUrl, publicKey: raw.publicKey!, privateKey: raw.privateKey!, timeoutMs };
  if (naming.server !== undefined) settings.server = naming.server;
  if (raw.caCertificate !== undefined) {
    settings.caCertificatePath = raw.caCertificate;
    settings.caPem = readCaFile(raw.caCertificate, naming);
  }
  resolved.set(naming.server ?? "", { raw, settings });
  return settings;
}

function sameRaw(a: RawSettings, b: RawSettings): boolean {
  return (Object.keys(SETTINGS) as SettingName[]).every((name) => a[name] === b[name]);
}

/** The rule a base URL breaks, or `undefined`. The URL's value is not secret and may be shown. */
export function baseUrlRule(
  value: string,
  credentials = "opsmanager:publicKey and opsmanager:privateKey",
): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return "must start with http:// or https://";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
  if (url.hostname === "") return "must name a host";
  if (url.username !== "" || url.password !== "") {
    return `must not carry credentials; set ${credentials} instead`;
  }
  if (url.search !== "" || url.hash !== "") return "must not have a query string or fragment";
  return undefined;
}

/**
 * A URL with any user information replaced by `***`, so that it can be shown. Everything before the
 * last `@` goes, not only a well-formed authority: a URL that is refused is often malformed exactly
 * there (no scheme, or a password holding `/`, `?` or `#`), and it must not be echoed either.
 */
export function redactUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[\s\S]*@/i, "$1***@");
}

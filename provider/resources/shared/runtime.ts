/**
 * The provider's configuration inside Pulumi's dynamic-provider host, and the clients it gives. The
 * host `require`s this module once per process, so what it holds is shared by every resource of one
 * `pulumi up`. No serialized provider captures it: their methods `require` it at call time.
 */

import { apiRoot } from "../../api/api-root";
import type { HttpClient } from "../../client";
import { getHttpClient } from "../../client";
import { resolveServerSettings, settingKey } from "./servers";
import { type ConfigLookup, resolveSettings, SETTINGS, type Settings } from "./settings";

interface ConfigureRequestLike {
  config: { get(key: string): string | undefined };
}

let configLookup: ConfigLookup | undefined;
let configured: Promise<void> | undefined;

/**
 * Record the stack configuration the engine sent (`configure` of a dynamic provider, SDK ≥ 3.139).
 * The host (`@pulumi/pulumi/cmd/dynamic-provider`) caches a provider before its `configure` finishes
 * and may call its methods meanwhile, so the promise is set before anything is awaited and every
 * method awaits it.
 */
export function configure(request: ConfigureRequestLike): Promise<void> {
  const config = request.config;
  configured = (async () => {
    configLookup = (key) => {
      let value: unknown;
      try {
        value = config.get(key);
      } catch {
        // The host builds its Config from what the engine's Configure call sent; without one there is none.
        return undefined;
      }
      if (typeof value === "string") return value;
      if (value === undefined || value === null) return undefined;
      // Structured config (opsmanager:servers) as its JSON text, however the host hands it over.
      return typeof value === "object" ? JSON.stringify(unwrapSecrets(value)) : String(value);
    };
  })();
  return configured;
}

/** Wait for `configure` when one has started; without one, settings come from the environment alone. */
export async function whenConfigured(): Promise<void> {
  if (configured !== undefined) await configured;
}

/**
 * The settings now in force for `server`: a named server's from `opsmanager:servers.<server>`, else the
 * default server's from stack config, then the environment, at call time.
 */
export function currentSettings(server?: string): Settings {
  return server === undefined ? resolveSettings(configLookup) : resolveServerSettings(server, configLookup);
}

/** The stack config as `configure` recorded it (`undefined` before, or without, a `configure`). */
export function currentConfig(): ConfigLookup | undefined {
  return configLookup;
}

/** The shared client of `server` (absent: the default server), for the settings now in force. */
export function currentClient(server?: string): HttpClient {
  return clientFor(currentSettings(server));
}

/** A setting as a user sets it: `opsmanager:caCertificate or the environment variable OPSMANAGER_CA_CERTIFICATE`. */
function settingName(setting: { config: string; env: readonly string[] }): string {
  return `${setting.config} or the environment variable ${setting.env.join(" or ")}`;
}

// The client of each settings object: resolveSettings gives the same object while the settings stay
// the same, so a resource call finds its client without hashing the registry's key again.
const clientsOf = new WeakMap<Settings, HttpClient>();

/** The shared client for `settings`: one per server, credentials and CA in the process. */
export function clientFor(settings: Settings): HttpClient {
  const known = clientsOf.get(settings);
  if (known !== undefined && !known.isClosed) return known;
  const client = registeredClient(settings);
  clientsOf.set(settings, client);
  return client;
}

function registeredClient(settings: Settings): HttpClient {
  const { server } = settings;
  return getHttpClient({
    baseUrl: apiRoot(settings.baseUrl),
    // A message that suggests another URL suggests the one the user set.
    configuredUrl: settings.baseUrl,
    username: settings.publicKey,
    password: settings.privateKey,
    caPem: settings.caPem,
    timeoutMs: settings.timeoutMs,
    // Transport errors name the settings a user of the provider knows, not the client's options.
    settingNames:
      server === undefined
        ? {
            baseUrl: settingName(SETTINGS.baseUrl),
            caPem: settingName(SETTINGS.caCertificate),
            timeoutMs: settingName(SETTINGS.timeoutSeconds),
          }
        : {
            baseUrl: settingKey(server, "baseUrl"),
            caPem: settingKey(server, "caCertificate"),
            timeoutMs: settingKey(server, "timeoutSeconds"),
          },
  });
}

/**
 * `value` with every secret the host left wrapped inside it (it unwraps only the top level) unwrapped:
 * the SDK's wire form `{ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value }`.
 */
function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (record["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270") {
    return unwrapSecrets(record.value);
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unwrapSecrets(v)]));
}

/** For tests: forget the configuration, as a new host process would. */
export function resetRuntimeForTests(): void {
  configLookup = undefined;
  configured = undefined;
}

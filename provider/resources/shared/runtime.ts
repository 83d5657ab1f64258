/**
 * Process-wide state of the provider inside Pulumi's dynamic-provider host. The host caches one
 * deserialized provider per resource type and `require`s this module once, so everything here is
 * shared by every resource of one `pulumi up`: the configuration, one HTTP client (digest session and
 * connection pool) per server and credentials, and one listing of each organization's keys.
 *
 * Nothing here is captured by a serialized provider: the serialized methods `require` it at call time.
 */

import { apiRoot } from "../../api/api-root";
import type { HttpClient } from "../../client";
import { getHttpClient } from "../../client";
import { type ConfigLookup, resolveSettings, SETTINGS, type Settings } from "./settings";

interface ConfigureRequestLike {
  config: { get(key: string): string | undefined };
}

let configLookup: ConfigLookup | undefined;
let configured: Promise<void> | undefined;

/**
 * Record the stack configuration the engine sent (`configure` of a dynamic provider, SDK ≥ 3.139).
 * The host caches a provider before its `configure` finishes and may call its methods meanwhile
 * (NOTES.md), so the promise is set before anything is awaited and every method awaits it.
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
      return typeof value === "string"
        ? value
        : value === undefined || value === null
          ? undefined
          : String(value);
    };
  })();
  return configured;
}

/** Wait for `configure` when one has started; without one, settings come from the environment alone. */
export async function whenConfigured(): Promise<void> {
  if (configured !== undefined) await configured;
}

/** The settings now in force: stack config, then the environment at call time. */
export function currentSettings(): Settings {
  return resolveSettings(configLookup);
}

/** The shared client for the settings now in force. */
export function currentClient(): HttpClient {
  return clientFor(currentSettings());
}

/** A setting as a user sets it: `opsmanager:caCertificate or the environment variable OPSMANAGER_CA_CERTIFICATE`. */
function settingName(setting: { config: string; env: readonly string[] }): string {
  return `${setting.config} or the environment variable ${setting.env.join(" or ")}`;
}

/** The shared client for `settings`: one per server, credentials and CA in the process. */
export function clientFor(settings: Settings): HttpClient {
  return getHttpClient({
    baseUrl: apiRoot(settings.baseUrl),
    // A message that suggests another URL suggests the one the user set.
    configuredUrl: settings.baseUrl,
    username: settings.publicKey,
    password: settings.privateKey,
    caPem: settings.caPem,
    timeoutMs: settings.timeoutMs,
    // Transport errors name the settings a user of the provider knows, not the client's options.
    settingNames: {
      baseUrl: settingName(SETTINGS.baseUrl),
      caPem: settingName(SETTINGS.caCertificate),
      timeoutMs: settingName(SETTINGS.timeoutSeconds),
    },
  });
}

/** For tests: forget the configuration, as a new host process would. */
export function resetRuntimeForTests(): void {
  configLookup = undefined;
  configured = undefined;
}

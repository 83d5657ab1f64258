/**
 * One shared {@link HttpClient} per (base URL, user, secret, CA, limits) in this process, so that every
 * caller shares one digest session and one connection pool: N callers pay for one challenge, not N.
 */
import { createHash } from "node:crypto";
import { HttpClient } from "./http-client";
import { resolveBaseUrl } from "./options";
import type { ClientOptions } from "./types";

/** The process-wide map, on `globalThis` under a registered symbol: a serializer may copy this module. */
function registry(): Map<string, HttpClient> {
  const key = Symbol.for("pulumi-opsmanager.client-registry.v1");
  const holder = globalThis as unknown as Record<symbol, Map<string, HttpClient> | undefined>;
  let map = holder[key];
  if (!map) {
    map = new Map();
    holder[key] = map;
  }
  return map;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The registry key: secrets enter it only as SHA-256 hashes. */
function keyOf(options: ClientOptions): string {
  const retry = options.retry ?? {};
  return sha256(
    JSON.stringify([
      resolveBaseUrl(options.baseUrl),
      options.configuredUrl === undefined ? null : resolveBaseUrl(options.configuredUrl, "configuredUrl"),
      options.username,
      sha256(String(options.password)),
      sha256(options.caPem ?? ""),
      options.timeoutMs ?? null,
      options.maxResponseBytes ?? null,
      retry.maxAttempts ?? null,
      retry.baseDelayMs ?? null,
      retry.maxDelayMs ?? null,
      retry.maxElapsedMs ?? null,
      options.userAgent ?? null,
      options.settingNames?.baseUrl ?? null,
      options.settingNames?.caPem ?? null,
      options.settingNames?.timeoutMs ?? null,
    ]),
  );
}

/**
 * The process's shared client for `options`, created on first use (options are validated then). A
 * closed client is replaced.
 *
 * @example
 * const client = getHttpClient({ baseUrl, username: publicKey, password: privateKey });
 */
export function getHttpClient(options: ClientOptions): HttpClient {
  const key = keyOf(options);
  const clients = registry();
  const existing = clients.get(key);
  if (existing && !existing.isClosed) return existing;
  const client = new HttpClient(options);
  clients.set(key, client);
  return client;
}

/** Closes and forgets every shared client (for tests and orderly shutdown). */
export async function closeAllHttpClients(): Promise<void> {
  const clients = registry();
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((client) => client.close()));
}

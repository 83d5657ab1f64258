/**
 * What the fault, TLS and concurrency suites share: the serialized providers as the built package
 * defines them, a program directory holding the packed package, hosts started with no Ops Manager
 * setting leaking in from the test's environment, and the engine's way of calling a provider (check,
 * then create with the checked inputs, so many at a time).
 */
import type { RecordedRequest } from "../../simulator/types";
import { JOB_TYPE, KEY_TYPE, urn } from "../support/host";

export { JOB_TYPE, KEY_TYPE, NO_ENV } from "../support/host";
export {
  checkThenCreate,
  type ProviderFixture,
  pool,
  providerFixture,
} from "../support/provider-fixture";

export function keyUrn(name: string): string {
  return urn(KEY_TYPE, name);
}

export function jobUrn(name: string): string {
  return urn(JOB_TYPE, name);
}

/** Requests grouped by status (0: the connection was dropped before a status line). */
export function byStatus(requests: readonly RecordedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) counts[String(r.status)] = (counts[String(r.status)] ?? 0) + 1;
  return counts;
}

/** `(nonce, nc)` pairs sent more than once: each one is a replay. */
export function replayedNoncePairs(requests: readonly RecordedRequest[]): string[] {
  const seen = new Set<string>();
  const replayed: string[] = [];
  for (const r of requests) {
    if (r.digest?.nonce === undefined || r.digest.nc === undefined) continue;
    const pair = `${r.digest.nonce}/${r.digest.nc}`;
    if (seen.has(pair)) replayed.push(pair);
    seen.add(pair);
  }
  return replayed;
}

/**
 * The workload the interoperability tests send to a real server, and how they read its access log.
 */
import { expect } from "vitest";
import { AuthenticationError, type HttpClient } from "../../../provider/client";
import type { LogLine, RealServer } from "./servers";

/** Requests in flight. */
export const WIDTH = 16;

export interface LoadResult {
  failures: string[];
  patches: number;
}

/**
 * Sends requests `from` to `to - 1` at `WIDTH` in flight: every eighth one (the first included) a PATCH
 * with a JSON body to the CGI, the others GETs of the static file. Checks each answer's body.
 */
export async function load(client: HttpClient, from: number, to: number): Promise<LoadResult> {
  const failures: string[] = [];
  let patches = 0;
  let next = from;
  await Promise.all(
    Array.from({ length: WIDTH }, async () => {
      while (next < to) {
        const i = next;
        next += 1;
        try {
          if (i % 8 === 0) {
            patches += 1;
            const body = { desc: `request ${i}` };
            const res = await client.request({ method: "PATCH", path: "/item.cgi", body });
            expect(res.body).toEqual({ ok: true, method: "PATCH", bytes: JSON.stringify(body).length });
          } else {
            const res = await client.request({ method: "GET", path: "/data.json", query: { i } });
            expect(res.body).toEqual({ ok: true });
          }
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  return { failures, patches };
}

/** How many log lines have each status. */
export function byStatus(lines: readonly LogLine[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of lines) out[line.status] = (out[line.status] ?? 0) + 1;
  return out;
}

/** The access log lines written since `before` lines, once the server has written `expected` more. */
export async function linesSince(
  server: Pick<RealServer, "logAtLeast">,
  before: number,
  expected: number,
): Promise<LogLine[]> {
  return (await server.logAtLeast(before + expected)).slice(before);
}

/**
 * Sends `count` GETs at once, all in flight together, and returns what each one threw (`undefined`
 * for one that succeeded).
 */
export async function burst(client: HttpClient, count: number): Promise<unknown[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      client.request({ method: "GET", path: "/data.json", query: { burst: i } }).then(
        () => undefined,
        (error: unknown) => error,
      ),
    ),
  );
}

/** Round trips of one step of {@link wrongCredentials}, and what the requests were told. */
export interface WrongCredentialsCost {
  step: string;
  requests: number;
  roundTrips: number;
  /** Requests told the server rejected the credentials. */
  rejected: number;
  /** Requests told the server called every nonce stale, so the credentials were never judged. */
  stale: number;
}

/**
 * Sends GETs with wrong credentials to `server` (its name, for a failure's message): one alone on a new
 * client, then `WIDTH` at once on another, then one more on that one. Checks that each fails with an {@link AuthenticationError} without the password,
 * and returns what each step cost as the client counted it (the caller holds that against the server's
 * log) and what its requests were told.
 */
export async function wrongCredentials(
  newClient: () => HttpClient,
  password: string,
  server: string,
): Promise<WrongCredentialsCost[]> {
  const costs: WrongCredentialsCost[] = [];
  let client = newClient();
  for (const [step, requests, fresh] of [
    ["1 request", 1, false],
    [`${WIDTH} in flight`, WIDTH, true],
    ["1 more on that session", 1, false],
  ] as const) {
    if (fresh) client = newClient();
    const before = client.stats.roundTrips;
    const errors = await burst(client, requests);
    const cost = { step, requests, roundTrips: client.stats.roundTrips - before, rejected: 0, stale: 0 };
    for (const error of errors) {
      // A failure names the server, the step and the error's own words (vitest cuts an error short).
      expect(error, `${server}, ${step}: ${String(error)}`).toBeInstanceOf(AuthenticationError);
      const { message } = error as Error;
      expect(message).not.toContain(password);
      if (message.includes("rejected the credentials")) cost.rejected += 1;
      else if (message.includes("stale")) cost.stale += 1;
    }
    costs.push(cost);
  }
  return costs;
}

/**
 * What a server that judges credentials at the first use of a nonce may cost: 2 round trips a request,
 * the nonce's first use and a challenge; for the requests in flight together, one challenge they share
 * first and one more that may show what the server's opaque says.
 */
export function expectTwoRoundTripsEach(costs: readonly WrongCredentialsCost[]): void {
  for (const cost of costs) {
    if (cost.requests === 1) expect(cost.roundTrips, cost.step).toBe(2);
    else expect(cost.roundTrips, cost.step).toBeLessThanOrEqual(2 * cost.requests + 2);
  }
}

/** Whether every request of every step was told the credentials were rejected. */
export function allRejected(costs: readonly WrongCredentialsCost[]): boolean {
  return costs.every((c) => c.rejected === c.requests);
}

/** `1 request: 2 round trips (2.00 a request); …`, and how many were not told the credentials were rejected. */
export function describeCosts(costs: readonly WrongCredentialsCost[]): string {
  return costs
    .map((c) => {
      const told = c.rejected === c.requests ? "" : `, ${c.rejected} rejected, ${c.stale} stale`;
      return `${c.step}: ${c.roundTrips} round trips (${(c.roundTrips / c.requests).toFixed(2)} a request${told})`;
    })
    .join("; ");
}

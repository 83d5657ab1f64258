/**
 * A port where nothing listens, on the client's default retry policy: a wrong port in the base URL, or
 * a server restarting. A refused connection is retried briefly (a restart is survived), by one call
 * for all the calls to that server, and then believed for a while; a server that starts listening is
 * used again. Attempts are counted on the client, and time is a fake clock (timers and Date) that the
 * test moves a millisecond at a time while the connections stay real: the refusal window and the
 * backoff are the subject, and a busy machine moves neither.
 */
import * as http from "node:http";
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { apiRoot } from "../../provider/api/api-root";
import { HttpClient, NetworkError } from "../../provider/client";
import { REFUSAL_WINDOW_MS } from "../../provider/client/refusals";
import { RETRY_DEFAULTS } from "../../provider/client/retry";
import { advanceUntil, watched, withFakeTimeouts } from "../support/fake-clock";
import { DEFAULT_PASSWORD, DEFAULT_USER, sendJson } from "./support/digest-server";

const clients: HttpClient[] = [];
const servers: http.Server[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A client with the default retry policy, as the provider builds it. */
function clientFor(port: number): HttpClient {
  const client = new HttpClient({
    baseUrl: apiRoot(`http://127.0.0.1:${port}`),
    username: DEFAULT_USER,
    password: DEFAULT_PASSWORD,
  });
  clients.push(client);
  return client;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts answering every request with 200 `{ ok: true }` on `port` (no authentication asked). */
async function listen(port: number): Promise<http.Server> {
  const server = http.createServer((_req, res) => sendJson(res, 200, { ok: true }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

/**
 * Runs `work` with the timers and Date on a fake clock, moved 1 ms at a time (the event loop turning
 * between steps, so that refusals arrive) until it settles. The clock is real again after.
 */
async function onFakeClock<T>(work: () => Promise<T>): Promise<T> {
  return withFakeTimeouts(
    async () => {
      const run = watched(work());
      await advanceUntil(run.settled, 1, 10 * REFUSAL_WINDOW_MS);
      return run.promise;
    },
    { date: true },
  );
}

async function failure(work: Promise<unknown>): Promise<NetworkError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NetworkError);
  return error as NetworkError;
}

/** The message a refused call ends in, as today: the call, what happened, what to check. */
function expectRefusedMessage(error: NetworkError, path: string, port: number): void {
  expect(error).toMatchObject({ code: "OM_ERR_NETWORK", causeCode: "ECONNREFUSED", requestSent: false });
  expect(error.message).toMatch(
    new RegExp(
      `^GET ${path} failed: the connection was refused by 127\\.0\\.0\\.1:${port}; check the host and port ` +
        "of the base URL \\(baseUrl\\) and that the server is running \\[ECONNREFUSED\\]",
    ),
  );
}

describe("a port where nothing listens", () => {
  it("one call is retried for about two seconds, not for the whole budget", async () => {
    const port = await freePort();
    const client = clientFor(port);
    const { error, ms } = await onFakeClock(async () => {
      const started = Date.now();
      const error = await failure(client.request({ method: "GET", path: "/orgs/o/apiKeys" }));
      return { error, ms: Date.now() - started };
    });
    console.log(
      `refused port, one call: ${error.attempts} attempts over ${(error.elapsedMs! / 1000).toFixed(1)} s`,
    );
    expectRefusedMessage(error, "/orgs/o/apiKeys", port);
    // More than one attempt, so that a server restarting is survived; all of them within the short
    // window. How many fit in it is the jittered backoff's draw (a uniform wait), up to the policy's cap.
    expect(error.attempts).toBeGreaterThanOrEqual(2);
    expect(error.attempts).toBeLessThanOrEqual(RETRY_DEFAULTS.maxAttempts);
    expect(error.message).toMatch(new RegExp(`; ${error.attempts} attempts over \\d+\\.\\d s$`));
    // The last attempt starts within the window, and a refusal takes no time on the fake clock: the whole
    // retry is the window at most, and the caller waited for nothing else.
    expect(error.elapsedMs).toBeLessThanOrEqual(REFUSAL_WINDOW_MS);
    expect(ms).toBe(error.elapsedMs);
    expect(client.stats.roundTrips).toBe(error.attempts);
  });

  it("ten calls at once share one call's retries, and a call after them makes one attempt", async () => {
    const port = await freePort();
    const client = clientFor(port);
    const paths = Array.from({ length: 10 }, (_, i) => `/orgs/o${i}/apiKeys`);
    const { errors, ms } = await onFakeClock(async () => {
      const started = Date.now();
      const errors = await Promise.all(paths.map((path) => failure(client.request({ method: "GET", path }))));
      return { errors, ms: Date.now() - started };
    });
    console.log(
      `refused port, ten calls at once: ${client.stats.roundTrips} attempts in all, ` +
        `${(ms / 1000).toFixed(1)} s until the last failed`,
    );
    errors.forEach((error, i) => {
      expectRefusedMessage(error, paths[i]!, port);
    });
    // One attempt each, and one call's retries within the window for all of them.
    const retried = errors.filter((e) => e.attempts! > 1);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.attempts).toBeLessThanOrEqual(RETRY_DEFAULTS.maxAttempts);
    expect(retried[0]!.elapsedMs).toBeLessThanOrEqual(REFUSAL_WINDOW_MS);
    expect(client.stats.roundTrips).toBe(9 + retried[0]!.attempts!);
    // The last of the ten failed when the retrying one did: none waited longer on its own.
    expect(ms).toBe(retried[0]!.elapsedMs);

    // The next call learns from them: one attempt, the same message.
    const before = client.stats.roundTrips;
    const next = await onFakeClock(() =>
      failure(client.request({ method: "GET", path: "/orgs/next/apiKeys" })),
    );
    expectRefusedMessage(next, "/orgs/next/apiKeys", port);
    expect(next.attempts).toBe(1);
    expect(next.message).not.toMatch(/attempts? over/);
    expect(client.stats.roundTrips - before).toBe(1);
  });

  it("a server that starts listening after the first refusal is reached, by every call waiting on it", async () => {
    const port = await freePort();
    const client = clientFor(port);
    const answers = await withFakeTimeouts(
      async () => {
        const pending = watched(
          Promise.all(
            Array.from({ length: 5 }, (_, i) =>
              client.request({ method: "GET", path: `/orgs/o${i}/apiKeys` }),
            ),
          ),
        );
        // Every call has been refused once, and the server comes up within the window: the window is on
        // the fake clock, which has moved no further than these refusals needed.
        const moved = await advanceUntil(() => client.stats.roundTrips >= 5, 1, REFUSAL_WINDOW_MS);
        expect(moved).toBeLessThan(REFUSAL_WINDOW_MS);
        expect(pending.settled()).toBe(false);
        await listen(port);
        await advanceUntil(pending.settled, 1, REFUSAL_WINDOW_MS);
        return pending.promise;
      },
      { date: true },
    );
    expect(answers.map((a) => a.body)).toEqual(Array(5).fill({ ok: true }));
    expect(client.stats.retries).toBeGreaterThanOrEqual(5);
  });

  it("a server that comes back after its refusals were believed is used again at once", async () => {
    const port = await freePort();
    const client = clientFor(port);
    await onFakeClock(() => failure(client.request({ method: "GET", path: "/orgs/o/apiKeys" })));
    const believed = await onFakeClock(() =>
      failure(client.request({ method: "GET", path: "/orgs/o/apiKeys" })),
    );
    expect(believed.attempts).toBe(1);
    await listen(port);
    const before = client.stats.roundTrips;
    const answer = await client.request({ method: "GET", path: "/orgs/o/apiKeys" });
    expect(answer.body).toEqual({ ok: true });
    expect(client.stats.roundTrips - before).toBe(1);
  });
});

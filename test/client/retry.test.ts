import { describe, expect, it, vi } from "vitest";
import {
  ApiError,
  backoffDelay,
  InvalidArgumentError,
  isRetryable,
  NetworkError,
  parseRetryAfter,
  resolveRetryPolicy,
  TimeoutError,
  withRetries,
} from "../../provider/client";
import { advanceUntil, until, watched, withFakeTimeouts } from "../support/fake-clock";
import { freePort } from "../support/http";
import { perTest } from "./support/clients";
import { type Handler, type RecordedRequest, sendJson } from "./support/digest-server";

const { serve, client: makeClient } = perTest({ retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 4 } });

/** Answers the first `failures` authenticated requests with `status`, then 200. */
function failFirst(failures: number, status: number, headers: Record<string, string> = {}): Handler {
  return (_req, res, ctx) => {
    if (ctx.count <= failures)
      sendJson(res, status, { error: status, reason: "Failing", detail: `try ${ctx.count}` }, headers);
    else sendJson(res, 200, { ok: true });
  };
}

/**
 * How long the client waited between the answer that asked it to and its next request, on the server's
 * clock: from the moment the answer left the server to the moment the retry arrived there. The client
 * cannot have read the answer before it was sent, nor sent the retry after it arrived, so this is at
 * least the client's own wait, however busy the machine.
 */
function waitedBefore(requests: RecordedRequest[], retry: number): number {
  const answered = requests[retry - 1]?.answeredAt;
  const arrived = requests[retry]?.receivedAt;
  if (answered === undefined || arrived === undefined) throw new Error(`no request ${retry} after an answer`);
  return arrived - answered;
}

/** Node's timers count whole milliseconds: a 1,000 ms wait may end up to 1 ms early on a finer clock. */
const TIMER_GRANULARITY_MS = 1;

describe("retries over the wire", () => {
  for (const status of [503, 502, 504, 429]) {
    it(`a GET answered ${status} is retried until it succeeds`, async () => {
      const server = await serve({ handler: failFirst(2, status) });
      const client = makeClient(server.origin);
      const res = await client.request({ method: "GET", path: "/r" });
      expect(res.body).toEqual({ ok: true });
      expect(client.stats.retries).toBe(2);
      expect(server.count("accepted")).toBe(3);
      // Retries reuse the digest session: no extra challenge.
      expect(server.count("challenge")).toBe(1);
    });
  }

  it("Retry-After is honoured: the retry waits at least that long", async () => {
    const server = await serve({ handler: failFirst(1, 429, { "retry-after": "1" }) });
    const client = makeClient(server.origin, {
      retry: { baseDelayMs: 5, maxDelayMs: 5_000, maxAttempts: 3 },
    });
    await client.request({ method: "GET", path: "/r" });
    const accepted = server.requests.filter((r) => r.verdict === "accepted");
    expect(accepted).toHaveLength(2);
    expect(waitedBefore(accepted, 1)).toBeGreaterThanOrEqual(1_000 - TIMER_GRANULARITY_MS);
    expect(client.stats.retries).toBe(1);
  });

  it("a Retry-After past the time budget fails at once with the 429, saying so", async () => {
    const server = await serve({ handler: failFirst(5, 429, { "retry-after": "60" }) });
    const client = makeClient(server.origin, { retry: { maxElapsedMs: 2_000, maxDelayMs: 100_000 } });
    // At once: every timer on a fake clock that never moves, so any wait at all would leave the call
    // unsettled (and the test failing on its timeout).
    const error = await withFakeTimeouts(() =>
      client.request({ method: "GET", path: "/r" }).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).retryAfterMs).toBe(60_000);
    expect((error as Error).message).toContain("rate limited; try again later");
    expect((error as Error).message).toMatch(
      /the server asked to wait 60 s, more than the 1\.\d s left of the 2 s retry budget, so it was not retried/,
    );
    expect(server.count("accepted")).toBe(1);
  });

  it("a Retry-After longer than maxDelayMs is waited out in full, not cut to maxDelayMs", async () => {
    const server = await serve({ handler: failFirst(1, 429, { "retry-after": "1" }) });
    const client = makeClient(server.origin, { retry: { baseDelayMs: 5, maxDelayMs: 100, maxAttempts: 3 } });
    const res = await client.request({ method: "PATCH", path: "/k", body: { desc: "d" } });
    expect(res.body).toEqual({ ok: true });
    const patches = server.requests.filter((r) => r.method === "PATCH" && r.verdict === "accepted");
    expect(patches).toHaveLength(2);
    expect(waitedBefore(patches, 1)).toBeGreaterThanOrEqual(1_000 - TIMER_GRANULARITY_MS);
  });

  it("gives up after maxAttempts with the last error", async () => {
    const server = await serve({ handler: failFirst(100, 503) });
    const client = makeClient(server.origin, { retry: { baseDelayMs: 1, maxAttempts: 3 } });
    const error = await client.request({ method: "GET", path: "/r" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe("try 3");
    expect((error as Error).message).toMatch(
      /^GET \/r failed: 503 Failing — try 3 \(the server failed; try again\); 3 attempts over \d+\.\d s$/,
    );
    expect((error as ApiError).url).toMatch(/^http/);
    expect(error).toMatchObject({ attempts: 3, status: 503, code: "OM_ERR_API" });
    expect(server.count("accepted")).toBe(3);
    expect(client.stats.retries).toBe(2);
  });

  it("a POST answered 500 is sent exactly once", async () => {
    const server = await serve({ handler: failFirst(100, 500) });
    const client = makeClient(server.origin);
    await expect(client.request({ method: "POST", path: "/jobs", body: { a: 1 } })).rejects.toMatchObject({
      status: 500,
      code: "OM_ERR_API",
    });
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(client.stats.retries).toBe(0);
  });

  it("a PATCH answered 502 is sent once: PATCH is not idempotent unless its caller says so", async () => {
    const server = await serve({ handler: failFirst(1, 502) });
    const client = makeClient(server.origin);
    await expect(client.request({ method: "PATCH", path: "/k", body: { desc: "d" } })).rejects.toMatchObject({
      status: 502,
      code: "OM_ERR_API",
    });
    expect(server.requests.filter((r) => r.method === "PATCH" && r.verdict === "accepted")).toHaveLength(1);
    expect(client.stats.retries).toBe(0);
  });

  it("a PATCH declared idempotent and answered 502 is retried, as a GET is", async () => {
    const server = await serve({ handler: failFirst(1, 502) });
    const client = makeClient(server.origin);
    const res = await client.request({ method: "PATCH", path: "/k", body: { desc: "d" }, idempotent: true });
    expect(res.body).toEqual({ ok: true });
    expect(server.requests.filter((r) => r.method === "PATCH" && r.verdict === "accepted")).toHaveLength(2);
    expect(client.stats.retries).toBe(1);
  });

  it("a POST answered 503 or 429 is retried: the server did not act", async () => {
    const server = await serve({ handler: failFirst(2, 503) });
    const client = makeClient(server.origin);
    await client.request({ method: "POST", path: "/jobs", body: { a: 1 } });
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(3);

    // 429 as the error table documents it, without Retry-After: the client's own backoff.
    const limited = await serve({ handler: failFirst(2, 429) });
    const limitedClient = makeClient(limited.origin);
    const res = await limitedClient.request({ method: "POST", path: "/jobs", body: { a: 1 } });
    expect(res.body).toEqual({ ok: true });
    const posts = limited.requests.filter((r) => r.method === "POST" && r.verdict === "accepted");
    expect(posts.map((r) => r.body)).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
    expect(limitedClient.stats.retries).toBe(2);

    // 429 with Retry-After: the POST is sent again once the wait asked for has passed.
    const asked = await serve({ handler: failFirst(1, 429, { "retry-after": "1" }) });
    const askedClient = makeClient(asked.origin, {
      retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 3 },
    });
    await askedClient.request({ method: "POST", path: "/jobs", body: { a: 1 } });
    const askedPosts = asked.requests.filter((r) => r.method === "POST" && r.verdict === "accepted");
    expect(askedPosts).toHaveLength(2);
    expect(waitedBefore(askedPosts, 1)).toBeGreaterThanOrEqual(1_000 - TIMER_GRANULARITY_MS);
    expect(askedClient.stats.retries).toBe(1);
  });

  it("a POST whose connection drops after sending is sent once, and the error says it may have been acted on", async () => {
    const server = await serve({
      handler: (req, res) => {
        if (req.method === "POST") res.socket?.destroy();
        else sendJson(res, 200, {});
      },
    });
    const client = makeClient(server.origin);
    const error = await client
      .request({ method: "POST", path: "/jobs", body: { a: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).requestSent).toBe(true);
    expect((error as NetworkError).code).toBe("OM_ERR_NETWORK");
    expect((error as Error).message).toContain("may have been acted on");
    expect((error as Error).message).toMatch(/^POST \/jobs failed: /);
    expect((error as NetworkError).url).toBe(`${server.origin}/api/public/v1.0/jobs`);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("a GET whose connection drops is retried", async () => {
    const server = await serve({
      handler: (_req, res, ctx) => {
        if (ctx.count === 1) res.socket?.destroy();
        else sendJson(res, 200, { ok: true });
      },
    });
    const client = makeClient(server.origin);
    expect((await client.request({ method: "GET", path: "/g" })).body).toEqual({ ok: true });
    expect(client.stats.retries).toBe(1);
  });

  it("a POST to a closed port (connection refused) is retried, and succeeds once the server is up", async () => {
    const port = await freePort();
    const client = makeClient(`http://127.0.0.1:${port}`, {
      retry: { baseDelayMs: 40, maxDelayMs: 80, maxAttempts: 20 },
    });
    const http = await import("node:http");
    const bodies: string[] = [];
    const late = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        if (req.method === "POST") bodies.push(body);
        sendJson(res, req.method === "POST" ? 201 : 200, { ok: true });
      });
    });
    try {
      // The backoff and the client's clock are fake and move only when the test moves them: the server
      // comes up after the client has been refused and has retried, however slow the machine, and the
      // refusals' 2 s window is spent on the fake clock alone.
      const res = await withFakeTimeouts(
        async () => {
          const pending = watched(client.request({ method: "POST", path: "/jobs", body: { a: 1 } }));
          await advanceUntil(() => client.stats.retries >= 1 && client.stats.roundTrips >= 2, 1, 1_000);
          expect(pending.settled()).toBe(false);
          await new Promise<void>((resolve) => late.listen(port, "127.0.0.1", resolve));
          await advanceUntil(pending.settled, 1, 1_000);
          return pending.promise;
        },
        { date: true },
      );
      expect(res.status).toBe(201);
      expect(bodies).toEqual(['{"a":1}']);
      expect(client.stats.retries).toBeGreaterThan(0);
    } finally {
      late.closeAllConnections();
      await new Promise<void>((resolve) => late.close(() => resolve()));
    }
  });

  it("a POST to a closed port fails after maxAttempts with requestSent=false", async () => {
    const port = await freePort();
    const client = makeClient(`http://127.0.0.1:${port}`, { retry: { baseDelayMs: 1, maxAttempts: 3 } });
    const error = await client.request({ method: "POST", path: "/jobs", body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ causeCode: "ECONNREFUSED", requestSent: false });
    expect((error as Error).message).toContain("connection was refused");
    expect(client.stats.roundTrips).toBe(3);
  });

  it("a POST that times out is not retried", async () => {
    const server = await serve({
      handler: (req, res) => {
        if (req.method !== "POST") sendJson(res, 200, {});
        // A POST is never answered.
      },
    });
    const client = makeClient(server.origin, { timeoutMs: 200 });
    // The deadline on a fake clock, moved once the POST is at the server: the challenge GET before it
    // cannot time out on a busy machine.
    const error = await withFakeTimeouts(async () => {
      const call = watched(
        client.request({ method: "POST", path: "/jobs", body: {} }).catch((e: unknown) => e),
      );
      await until(() => server.requests.some((r) => r.method === "POST"));
      vi.advanceTimersByTime(200);
      return call.promise;
    });
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).requestSent).toBe(true);
    // The call is over and its client closed: nothing more can be sent, so the server's log is final.
    await client.close();
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("Retry-After against the retry budget, on the client's default policy", () => {
  /** A clock that only the recorded waits move, so that no test sleeps. */
  function fakeTime() {
    const time = { clock: 0, waits: [] as number[] };
    return {
      time,
      hooks: {
        now: () => time.clock,
        sleep: async (ms: number) => {
          time.waits.push(ms);
          time.clock += ms;
        },
      },
    };
  }

  /** The client's own policy around single attempts of a client that does not retry by itself. */
  function patchWithRetries(origin: string, hooks: ReturnType<typeof fakeTime>["hooks"]) {
    const client = makeClient(origin, { retry: { maxAttempts: 1 } });
    return withRetries(
      { method: "PATCH", idempotent: true },
      resolveRetryPolicy(),
      () =>
        client.request({ method: "PATCH", path: "/orgs/o/apiKeys/k", body: { desc: "d" }, idempotent: true }),
      hooks,
    );
  }

  const rateLimited = (seconds: string, ctx: { count: number }) => ({
    body: {
      error: 429,
      errorCode: "RATE_LIMITED",
      reason: "Too Many Requests",
      detail: `Too many requests (answer ${ctx.count}).`,
    },
    headers: { "retry-after": seconds },
  });

  it("a PATCH answered 429 with Retry-After: 12 waits the 12 s asked for, past the 10 s maxDelayMs", async () => {
    const server = await serve({
      handler: (_req, res, ctx) => {
        if (ctx.count === 1) {
          const { body, headers } = rateLimited("12", ctx);
          sendJson(res, 429, body, headers);
        } else sendJson(res, 200, { ok: true });
      },
    });
    const { time, hooks } = fakeTime();
    const res = await patchWithRetries(server.origin, hooks);
    expect(res.body).toEqual({ ok: true });
    expect(resolveRetryPolicy().maxDelayMs).toBe(10_000);
    expect(time.waits).toHaveLength(1);
    expect(time.waits[0]).toBeGreaterThanOrEqual(12_000);
    expect(server.requests.filter((r) => r.verdict === "accepted").map((r) => r.method)).toEqual([
      "PATCH",
      "PATCH",
    ]);
  });

  it("a Retry-After beyond what is left of the budget fails at once, saying so, with the server's answer", async () => {
    const server = await serve({
      handler: (_req, res, ctx) => {
        const { body, headers } = rateLimited(ctx.count === 1 ? "75" : "130", ctx);
        sendJson(res, 429, body, headers);
      },
    });
    const { time, hooks } = fakeTime();
    const error = await patchWithRetries(server.origin, hooks).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      errorCode: "RATE_LIMITED",
      detail: "Too many requests (answer 2).",
      retryAfterMs: 130_000,
      method: "PATCH",
      retryBudget: { leftMs: 45_000, totalMs: 120_000 },
    });
    expect((error as Error).message).toBe(
      `PATCH /orgs/o/apiKeys/k failed: 429 RATE_LIMITED — Too many requests (answer 2). (rate limited; try again later; ` +
        `the server asked to wait 130 s, more than the 45 s left of the 120 s retry budget, so it was not retried)`,
    );
    expect((error as ApiError).url).toBe(`${server.origin}/api/public/v1.0/orgs/o/apiKeys/k`);
    // The first wait was honoured in full; the second was not begun.
    expect(time.waits).toEqual([75_000]);
    expect(server.count("accepted")).toBe(2);
  });

  it("backoff without Retry-After is still capped at maxDelayMs", async () => {
    const policy = resolveRetryPolicy({ maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 1_000 });
    const { time, hooks } = fakeTime();
    const error = await withRetries(
      { method: "GET" },
      policy,
      async () => {
        throw new ApiError({ method: "GET", path: "/", url: "http://h/", status: 503 });
      },
      { ...hooks, random: () => 0.9999 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(time.waits).toEqual([249, 499, 999, 999, 999, 999, 999]);
  });
});

describe("retry policy", () => {
  const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000 });

  it("backs off exponentially with full jitter, capped at maxDelayMs", () => {
    expect(backoffDelay(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(400);
    expect(backoffDelay(10, policy, () => 0.999)).toBe(999);
    expect(backoffDelay(2, policy, () => 0)).toBe(0);
  });

  it("reads Retry-After as seconds or an HTTP-date", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7_000);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("retries POST only where the server cannot have acted", () => {
    const call = { method: "POST", path: "/p", url: "http://h/p" };
    expect(isRetryable({ method: "POST" }, new ApiError({ ...call, status: 500 }))).toBe(false);
    expect(isRetryable({ method: "POST" }, new ApiError({ ...call, status: 502 }))).toBe(false);
    expect(isRetryable({ method: "POST" }, new ApiError({ ...call, status: 503 }))).toBe(true);
    expect(isRetryable({ method: "POST" }, new ApiError({ ...call, status: 429 }))).toBe(true);
    expect(isRetryable({ method: "POST" }, new NetworkError({ ...call, requestSent: true }))).toBe(false);
    expect(isRetryable({ method: "POST" }, new NetworkError({ ...call, requestSent: false }))).toBe(true);
    expect(
      isRetryable({ method: "POST" }, new TimeoutError({ ...call, timeoutMs: 1, requestSent: true })),
    ).toBe(false);
    expect(
      isRetryable(
        { method: "PATCH", idempotent: true },
        new TimeoutError({ ...call, timeoutMs: 1, requestSent: true }),
      ),
    ).toBe(true);
    expect(
      isRetryable({ method: "PATCH" }, new TimeoutError({ ...call, timeoutMs: 1, requestSent: true })),
    ).toBe(false);
    expect(isRetryable({ method: "PUT" }, new ApiError({ ...call, status: 502 }))).toBe(true);
    expect(isRetryable({ method: "GET" }, new ApiError({ ...call, status: 500 }))).toBe(false);
    expect(isRetryable({ method: "DELETE" }, new ApiError({ ...call, status: 504 }))).toBe(true);
    expect(isRetryable({ method: "GET" }, new Error("x"))).toBe(false);
  });

  it("stops when the time budget would be passed", async () => {
    let clock = 0;
    let calls = 0;
    const error = await withRetries(
      { method: "GET" },
      resolveRetryPolicy({ maxAttempts: 50, baseDelayMs: 100, maxDelayMs: 100, maxElapsedMs: 350 }),
      async () => {
        calls += 1;
        throw new ApiError({ method: "GET", path: "/", url: "http://h/", status: 503 });
      },
      {
        now: () => clock,
        random: () => 0.9999,
        sleep: async (ms) => {
          clock += ms;
        },
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(calls).toBe(4);
  });

  it("rejects bad retry options eagerly, naming the option", () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(InvalidArgumentError);
    expect(() => resolveRetryPolicy({ baseDelayMs: -1 })).toThrow(/retry.baseDelayMs/);
    expect(() => resolveRetryPolicy({ maxElapsedMs: Number.NaN })).toThrow(/retry.maxElapsedMs/);
  });
});

/**
 * The abort scope (`withAbortSignal`): a request made inside it is abandoned when its signal aborts,
 * in flight, while its body is read, or in the wait before a retry, and none starts after; a request
 * declared `cutOnAbort: false` finishes the attempt in flight. One real loopback server.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AbortedError, HttpClient, withAbortSignal } from "../../provider/client";
import { DEFAULT_PASSWORD, DEFAULT_USER, sendJson } from "./support/digest-server";

let server: http.Server;
let client: HttpClient;
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    // The POST is held; the bodyless GET sent before it for a challenge is answered.
    if (req.url?.endsWith("/hold") && req.method === "POST") return;
    if (req.url?.endsWith("/trickle")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"a":');
      return; // the rest never comes
    }
    if (req.url?.endsWith("/busy")) {
      sendJson(res, 503, { error: 503, errorCode: "SERVICE_UNAVAILABLE" }, { "retry-after": "20" });
      return;
    }
    if (req.url?.endsWith("/slow")) {
      setTimeout(() => sendJson(res, 200, { ok: true }), 600);
      return;
    }
    sendJson(res, 200, { ok: true });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  client = new HttpClient({
    baseUrl: `http://127.0.0.1:${port}/api`,
    username: DEFAULT_USER,
    password: DEFAULT_PASSWORD,
    timeoutMs: 30_000,
  });
});

afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
});

/** `work` in a scope whose signal aborts, with `reason`, once `when` resolves. */
async function abortedWhen<T>(when: () => Promise<unknown>, reason: string, work: () => Promise<T>) {
  const controller = new AbortController();
  const started = Date.now();
  const result = withAbortSignal(controller.signal, work);
  await when();
  controller.abort(new Error(reason));
  const settled = await result.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...settled, ms: Date.now() - started };
}

const arrived = (count = 1) =>
  expect.poll(() => received.length, { timeout: 5_000, interval: 5 }).toBeGreaterThanOrEqual(count);

describe("a request in an abort scope", () => {
  it("a POST the server holds is abandoned at the abort, long before the attempt's timeout, saying it may have reached the server", async () => {
    const { error, ms } = await abortedWhen(
      () => arrived(2),
      "the operation was cancelled",
      () => client.request({ method: "POST", path: "/keys/hold", body: { desc: "x" } }),
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).code).toBe("OM_ERR_ABORTED");
    expect((error as AbortedError).requestSent).toBe(true);
    expect((error as Error).message).toBe(
      "POST /keys/hold was abandoned before its answer came: the operation was cancelled; the request may have reached the server, so it may have been acted on",
    );
    expect(ms).toBeLessThan(5_000);
    expect(received).toEqual(["GET /api/keys/hold", "POST /api/keys/hold"]);
  });

  it("a body that stops coming is cut at the abort", async () => {
    const { error, ms } = await abortedWhen(arrived, "the create's timeout of 5 s passed", () =>
      client.request({ method: "GET", path: "/keys/trickle" }),
    );
    expect((error as Error).message).toBe(
      "GET /keys/trickle was abandoned before its answer came: the create's timeout of 5 s passed",
    );
    expect(ms).toBeLessThan(5_000);
  });

  it("the wait before a retry ends at the abort, and no attempt follows", async () => {
    const retries = client.stats.retries;
    const waiting = () =>
      expect.poll(() => client.stats.retries, { timeout: 5_000, interval: 5 }).toBe(retries + 1);
    const { error, ms } = await abortedWhen(waiting, "the operation was cancelled", () =>
      client.request({ method: "GET", path: "/keys/busy" }),
    );
    expect((error as Error).message).toBe(
      "GET /keys/busy was not tried again after its first attempt: the operation was cancelled",
    );
    expect((error as AbortedError).requestSent).toBe(false);
    expect(ms).toBeLessThan(5_000);
    expect(received).toEqual(["GET /api/keys/busy"]);
  });

  it("a request started after the abort is not sent", async () => {
    const controller = new AbortController();
    controller.abort(new Error("the operation was cancelled"));
    const error = await withAbortSignal(controller.signal, () =>
      client.request({ method: "POST", path: "/keys", body: {} }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe("POST /keys was not sent: the operation was cancelled");
    expect((error as AbortedError).requestSent).toBe(false);
    expect(received).toEqual([]);
  });

  it("with cutOnAbort: false, the attempt in flight is answered and its answer returned", async () => {
    const { value, error } = await abortedWhen(arrived, "the operation was cancelled", () =>
      client.request({ method: "POST", path: "/jobs/slow", body: {}, cutOnAbort: false }),
    );
    expect(error).toBeUndefined();
    expect(value?.body).toEqual({ ok: true });
  });

  it("outside any scope, nothing is abandoned", async () => {
    const answered = await client.request({ method: "GET", path: "/keys" });
    expect(answered.body).toEqual({ ok: true });
  });
});

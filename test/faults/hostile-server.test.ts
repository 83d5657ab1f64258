/**
 * A server that answers, but not with what the API promises: malformed JSON, an HTML error page, a
 * wrong content type, a body of hundreds of megabytes, a body that trickles. Each time the provider
 * fails with a message that says what was wrong, and its memory stays bounded. Through the real host,
 * against a small node:http server written for the purpose.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resolveRetryPolicy } from "../../provider/client/retry";
import type { Host, HostCallError } from "../support/host";
import { checkThenCreate, keyUrn, type ProviderFixture, providerFixture } from "./support";

const ORG = "5f0000000000000000000001";
const KEY = "5f00000000000000000000aa";
const LISTING = `/orgs/${ORG}/apiKeys`;
const MB = 1024 * 1024;
const HUGE_BYTES = 400 * MB;

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let answer: Answer;
let server: http.Server;
let origin: string;
let fx: ProviderFixture;
let host: Host;
/** The request targets (path and query) the hostile server was sent. */
const requested: string[] = [];
/** Bytes the hostile server managed to write, per answer. */
let written = 0;

/** Writes `total` bytes of `chunk` repeated, as the socket drains, never holding more than one chunk. */
function stream(res: http.ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, " ");
  chunk.write('{"results":[');
  let sent = 0;
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      written += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

const json = (status: number, body: string, type = "application/json"): Answer => {
  return (_req, res) => {
    res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
};

async function create(): Promise<{ error: HostCallError; ms: number }> {
  const started = performance.now();
  const error = (await checkThenCreate(host, keyUrn("k"), fx.withKey({ orgId: ORG, apiKeyId: KEY })).then(
    () => new Error("the create succeeded"),
    (e) => e,
  )) as HostCallError;
  return { error, ms: performance.now() - started };
}

function mb(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    requested.push(req.url ?? "");
    res.on("error", () => {});
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fx = await providerFixture();
  host = await fx.newHost({
    "opsmanager:baseUrl": origin,
    "opsmanager:publicKey": "hostile",
    "opsmanager:privateKey": "5e2d7c1a-hostile-4b3a-9f8e-FAULTSUITE04",
    "opsmanager:timeoutSeconds": "1",
  });
});

afterAll(async () => {
  await fx?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe("a server that answers with the wrong thing", () => {
  // The message names the call once, at its start (after the resource); the URL is the one the server saw.
  const callFirst = new RegExp(`^OrgApiKey \\([^)]*\\): GET ${LISTING} `);
  const sentTo = `/api/public/v1.0${LISTING}?pageNum=1&itemsPerPage=500`;
  // Each test sees only the requests it made.
  beforeEach(() => {
    requested.length = 0;
  });

  it("malformed JSON is reported as not valid JSON, quoting the start of the body", async () => {
    answer = json(200, '{"results": [{"id": "5f00000000000000000000aa", "desc": ');
    const { error } = await create();
    expect(error.message).toContain(`GET ${LISTING} answered 200, but the body is not valid JSON`);
    expect(error.message).toContain('the body starts with "{\\"results\\": [{\\"id\\"');
    expect(error.message).toContain("check that the base URL points at the Ops Manager API");
    expect(error.message).toContain(`(base URL: ${origin}/api/public/v1.0)`);
    expect(error.message).toMatch(callFirst);
    expect(requested).toContain(sentTo);
  });

  it("an HTML error page is reported with its status and the start of the page", async () => {
    answer = json(
      500,
      "<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Oops</h1></body></html>",
      "text/html; charset=utf-8",
    );
    const { error } = await create();
    expect(error.message).toContain(
      `GET ${LISTING} failed: 500 — the server answered with text/html "<!DOCTYPE html><html><head><title>500 Internal Server Error`,
    );
    expect(error.message).toContain("the server failed; try again");
  });

  it("a login page answered 200 is reported as HTML, not JSON", async () => {
    answer = json(200, "<html><body><form action=/login>Sign in</form></body></html>", "text/html");
    const { error } = await create();
    expect(error.message).toContain(
      `GET ${LISTING} answered 200, but the body is text/html, not JSON (a proxy or login page, perhaps)`,
    );
  });

  it("a wrong content type is reported even when the body would parse", async () => {
    answer = json(200, JSON.stringify({ results: [], totalCount: 0, links: [] }), "text/plain");
    const { error } = await create();
    expect(error.message).toContain(`GET ${LISTING} answered 200, but the body is text/plain, not JSON`);
  });

  it("hundreds of megabytes, declared or not, stop at the 32 MiB cap with memory bounded", async () => {
    const rssBefore = host.rssBytes();
    const testRssBefore = process.memoryUsage().rss;
    const results: Array<{ declared: boolean; error: HostCallError; sent: number }> = [];
    for (const declared of [true, false]) {
      written = 0;
      answer = (_req, res) => {
        const headers: Record<string, string | number> = { "content-type": "application/json" };
        if (declared) headers["content-length"] = HUGE_BYTES;
        res.writeHead(200, headers);
        stream(res, HUGE_BYTES);
      };
      const { error } = await create();
      results.push({ declared, error, sent: written });
    }
    const hostGrowth = host.peakRssBytes() - rssBefore;
    const testGrowth = process.memoryUsage().rss - testRssBefore;
    console.log(
      `hostile server, ${mb(HUGE_BYTES)} bodies: the host's peak RSS grew ${mb(hostGrowth)}, the test process ${mb(testGrowth)}; ` +
        `the server got to write ${results.map((r) => `${mb(r.sent)} (${r.declared ? "declared" : "chunked"})`).join(", ")}`,
    );
    const [declared, chunked] = results;
    expect(declared!.error.message).toContain(
      `GET ${LISTING} answered 200 with a body larger than the 33554432-byte limit (it declared ${HUGE_BYTES} bytes); reading stopped`,
    );
    expect(chunked!.error.message).toContain(
      `GET ${LISTING} answered 200 with a body larger than the 33554432-byte limit; reading stopped`,
    );
    // Reading stopped: the server could not push the whole body through.
    for (const r of results) expect(r.sent).toBeLessThan(HUGE_BYTES / 2);
    expect(hostGrowth).toBeLessThan(100 * MB);
    expect(testGrowth).toBeLessThan(100 * MB);
  });

  it("a body that trickles a byte every 100 ms is cut at the timeout on every attempt", async () => {
    const timers = new Set<NodeJS.Timeout>();
    let answers = 0;
    answer = (_req, res) => {
      answers += 1;
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => {
        if (res.destroyed) {
          clearInterval(timer);
          timers.delete(timer);
        } else res.write(" ");
      }, 100);
      timers.add(timer);
    };
    const { error, ms } = await create();
    for (const t of timers) clearInterval(t);
    expect(error.message).toContain(`GET ${LISTING} timed out: no complete response within 1000 ms`);
    expect(error.message).toContain("opsmanager:timeoutSeconds");
    expect(error.message).toContain(`if the server at ${new URL(origin).host} is slow`);
    expect(error.message).toMatch(callFirst);
    expect(requested).toContain(sentTo);
    // Each attempt was cut at its 1 s deadline, not kept alive by the trickle: a trickle a byte every
    // 100 ms never lets undici's own body timeout fire, so an attempt not cut would never end, and the
    // call ended after exactly the policy's attempts, each at least the deadline long.
    const policy = resolveRetryPolicy();
    expect(answers).toBe(policy.maxAttempts);
    expect(error.message).toMatch(new RegExp(`; ${answers} attempts over \\d+\\.\\d s`));
    expect(ms).toBeGreaterThanOrEqual(answers * 1_000 - 50);
    expect(answers).toBeGreaterThan(1);
  });
});

/**
 * The digest client against real servers that Debian ships, counted from the servers' own access
 * logs: lighttpd (MD5, SHA-256) and Apache httpd's mod_auth_digest with AuthDigestNcCheck Off, which
 * accept a nonce's reuse, must cost N + 1 round trips for N requests at 16 in flight; Apache with
 * AuthDigestNcCheck On, which refuses a count it has already passed (requests in flight on several
 * connections arrive out of order) and forgets client entries when its small table fills, must fail
 * none of them, and what it costs is printed; so is a nonce lifetime shorter than the run.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, HttpClient } from "../../provider/client";
import {
  type Credentials,
  type LogLine,
  missingServers,
  type RealServer,
  startApache,
  startLighttpd,
} from "./support/servers";

const N = 100;
const WIDTH = 16;
const USER: Credentials = { username: "interop-user", password: "interop-pass-5d41402abc4b2a76" };
// RFC 7616 §3.4: a name that cannot go in a quoted string is sent as username*.
const UNICODE_USER: Credentials = { username: "ünïcødé-üser", password: "interop-pass-7e2c1b" };

let servers: RealServer[] = [];
let clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  clients = [];
  servers = [];
});

function track(server: RealServer): RealServer {
  servers.push(server);
  return server;
}

function clientFor(server: RealServer, credentials: Credentials = USER): HttpClient {
  const client = new HttpClient({ baseUrl: server.baseUrl, ...credentials, timeoutMs: 10_000 });
  clients.push(client);
  return client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface LoadResult {
  failures: string[];
  patches: number;
}

/**
 * Sends requests `from` to `to - 1` at `WIDTH` in flight: every eighth one (the first included) a PATCH
 * with a JSON body to the CGI, the others GETs of the static file. Checks each answer's body.
 */
async function load(client: HttpClient, from: number, to: number): Promise<LoadResult> {
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

function byStatus(lines: readonly LogLine[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of lines) out[line.status] = (out[line.status] ?? 0) + 1;
  return out;
}

/** The access log lines written since `before` lines, once the server has written `expected` more. */
async function linesSince(server: RealServer, before: number, expected: number): Promise<LogLine[]> {
  return (await server.logAtLeast(before + expected)).slice(before);
}

const reason = missingServers();
if (reason) console.log(`digest interoperability suite skipped: ${reason}`);
const suite = reason ? describe.skip : describe;

suite(reason ? `digest against real servers (skipped: ${reason})` : "digest against real servers", () => {
  const reusing: [string, Credentials, (c: Credentials) => Promise<RealServer>][] = [
    ["lighttpd MD5", USER, (credentials) => startLighttpd({ credentials, algorithm: "MD5" })],
    ["lighttpd SHA-256", USER, (credentials) => startLighttpd({ credentials, algorithm: "SHA-256" })],
    [
      "lighttpd SHA-256 with userhash and a non-ASCII user name",
      UNICODE_USER,
      (credentials) => startLighttpd({ credentials, algorithm: "SHA-256", userhash: true }),
    ],
    [
      "Apache httpd AuthDigestNcCheck Off",
      USER,
      (credentials) => startApache({ credentials, ncCheck: false }),
    ],
  ];

  for (const [name, credentials, start] of reusing) {
    it(`${name}: ${N} requests at ${WIDTH} in flight all succeed in N + 1 round trips, each PATCH body sent once`, async () => {
      const server = track(await start(credentials));
      const client = clientFor(server, credentials);
      const { failures, patches } = await load(client, 0, N);
      // lighttpd writes its access log by the time it exits.
      if (name.startsWith("lighttpd")) await server.close();
      const lines = await linesSince(server, 0, client.stats.roundTrips);
      console.log(
        `${server.name}: ${N} requests (${patches} PATCH) at ${WIDTH} in flight: ${lines.length} round trips ` +
          `${JSON.stringify(byStatus(lines))}, ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      expect(lines).toHaveLength(N + 1);
      expect(client.stats.roundTrips).toBe(N + 1);
      expect(byStatus(lines)).toEqual({ 200: N, 401: 1 });
      // The one 401 answered the first request's bodyless probe: every PATCH body crossed once.
      expect(lines[0]).toMatchObject({ method: "GET", target: "/api/item.cgi", status: 401 });
      expect(lines.filter((l) => l.method === "PATCH")).toHaveLength(patches);
    });
  }

  it("Apache httpd AuthDigestNcCheck On: 4 runs of 100 requests at 16 in flight fail none, and print what they cost", async () => {
    const server = track(await startApache({ credentials: USER, ncCheck: true }));
    const costs: string[] = [];
    let seen = 0;
    for (let run = 1; run <= 4; run += 1) {
      const client = clientFor(server);
      const { failures } = await load(client, 0, N);
      const lines = await linesSince(server, seen, client.stats.roundTrips);
      seen += lines.length;
      costs.push(`${lines.length} ${JSON.stringify(byStatus(lines))}`);
      expect(failures).toEqual([]);
      expect(lines.filter((l) => l.status === 200)).toHaveLength(N);
      expect(lines).toHaveLength(client.stats.roundTrips);
    }
    console.log(
      `Apache httpd, AuthDigestNcCheck On: ${N} requests at ${WIDTH} in flight, 4 runs: round trips ${costs.join("; ")}`,
    );
  });

  for (const ncCheck of [false, true]) {
    it(`Apache httpd AuthDigestNcCheck ${ncCheck ? "On" : "Off"}, nonces living 2 s: requests spread over 8 s all succeed`, async () => {
      const server = track(await startApache({ credentials: USER, ncCheck, nonceLifetimeSeconds: 2 }));
      const client = clientFor(server);
      const failures: string[] = [];
      // Three bursts with pauses longer than a nonce's life between them.
      for (const [from, to] of [
        [0, 40],
        [40, 70],
        [70, N],
      ] as const) {
        if (from > 0) await sleep(2_600);
        failures.push(...(await load(client, from, to)).failures);
      }
      const lines = await linesSince(server, 0, client.stats.roundTrips);
      console.log(
        `${server.name}: ${N} requests in 3 bursts 2.6 s apart: ${lines.length} round trips ` +
          `${JSON.stringify(byStatus(lines))}, ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      expect(lines.filter((l) => l.status === 200)).toHaveLength(N);
      expect(lines).toHaveLength(client.stats.roundTrips);
      if (!ncCheck) {
        // The first challenge, then at most one expired nonce per request in flight after each pause.
        expect(lines.filter((l) => l.status === 401).length).toBeLessThanOrEqual(1 + 2 * WIDTH);
      }
    });
  }

  it("wrong credentials fail fast against each server: 2 round trips and the credentials named", async () => {
    const wrong = { username: USER.username, password: "not-the-password" };
    for (const start of [
      () => startLighttpd({ credentials: USER, algorithm: "MD5" }),
      () => startApache({ credentials: USER, ncCheck: true }),
    ]) {
      const server = track(await start());
      const client = clientFor(server, wrong);
      const error = await client.request({ method: "GET", path: "/data.json" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as Error).message).toContain("rejected the credentials");
      expect((error as Error).message).not.toContain(wrong.password);
      expect(client.stats.roundTrips).toBe(2);
    }
  });
});

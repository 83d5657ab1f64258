/**
 * The digest client against the Java servers Debian ships, counted by the servers themselves: Jetty
 * 9.4's DigestAuthenticator, whose challenge is the deployed Ops Manager's character for character
 * (no `opaque`, nonces living 60 s, at most 1,024 counts per nonce), and Tomcat 10.1's, which sends
 * the same `opaque` in every challenge and accepts counts out of order, within 50 of the counts it has
 * accepted (a request reaching it later is refused and tried again). Each JVM starts once for the
 * file, with a site whose nonces live as long as by default and one whose nonces live 2 s.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { HttpClient } from "../../provider/client";
import { describeNeeding } from "../support/prerequisite";
import { type JavaServer, type JavaSite, missingJavaServers, startJavaServer } from "./support/java-servers";
import {
  allRejected,
  byStatus,
  describeCosts,
  expectTwoRoundTripsEach,
  linesSince,
  load,
  WIDTH,
  wrongCredentials,
} from "./support/load";
import type { Credentials, LogLine } from "./support/servers";

const N = 100;
const USER: Credentials = { username: "interop-user", password: "interop-pass-5d41402abc4b2a76" };
const WRONG: Credentials = { username: USER.username, password: "not-the-password" };
const SHORT_MS = 2_000;

let jetty: JavaServer | undefined;
let tomcat: JavaServer | undefined;
const clients: HttpClient[] = [];

function clientFor(site: JavaSite, credentials: Credentials = USER): HttpClient {
  const client = new HttpClient({ baseUrl: site.baseUrl, ...credentials, timeoutMs: 10_000 });
  clients.push(client);
  return client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tomcat's default nonceCountWindowSize: it accepts a count within half of it of the counts accepted. */
const TOMCAT_COUNT_WINDOW = 100;

/**
 * Checks that Tomcat refused nothing but counts out of its window (a request that reached it 50 counts
 * late, on a busy machine), each of which costs one more round trip, and at the first of them the one
 * challenge the client fetches to learn that Tomcat's opaque is server-wide; returns how many 401s that
 * made past the first challenge.
 */
function expectOnlyWindowRefusals(lines: readonly LogLine[]): number {
  const signed = lines.filter((l) => l.status === 401 && l.nc !== undefined);
  const unsigned = lines.filter((l) => l.status === 401 && l.nc === undefined).length;
  expect(outsideTomcatWindow(lines)).toEqual(signed);
  expect(unsigned).toBe(signed.length > 0 ? 2 : 1);
  return signed.length + unsigned - 1;
}

/**
 * The 401s of `lines` (Tomcat's log, in the order it answered) to a count that Tomcat's window refuses
 * for certain, whatever the order in which the requests in flight were checked and logged. When a
 * request's count is checked, Tomcat has accepted `accepted` counts of its nonce (DigestAuthenticator's
 * NonceInfo), and takes the count only if it is above `accepted - 50` and at most `accepted + 50`. The
 * log shows `logged`, the 200s of that nonce before the 401's line; the two differ by the requests in
 * flight with it, at most WIDTH - 1. So a count at most `logged - 50 + (WIDTH - 1)`, or above
 * `logged + 50 - (WIDTH - 1)`, was out of the window; any other 401 to a signed request was not.
 */
function outsideTomcatWindow(lines: readonly LogLine[]): LogLine[] {
  const half = TOMCAT_COUNT_WINDOW / 2;
  const logged = new Map<string, number>();
  const out: LogLine[] = [];
  for (const line of lines) {
    if (line.nonce === undefined || line.nc === undefined) continue;
    const before = logged.get(line.nonce) ?? 0;
    if (line.status === 200) logged.set(line.nonce, before + 1);
    else if (line.nc <= before - half + (WIDTH - 1) || line.nc > before + half - (WIDTH - 1)) out.push(line);
  }
  return out;
}

describeNeeding("digest against Jetty and Tomcat", missingJavaServers(), () => {
  beforeAll(async () => {
    // Jetty's default nonce age is 60 s, Tomcat's nonce validity 5 min: the first site keeps them.
    [jetty, tomcat] = await Promise.all([
      startJavaServer("jetty", { credentials: USER, nonceLifetimesMs: [60_000, SHORT_MS] }),
      startJavaServer("tomcat", { credentials: USER, nonceLifetimesMs: [300_000, SHORT_MS] }),
    ]);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([jetty?.close(), tomcat?.close()]);
  });

  /** The `WWW-Authenticate` values of a 401 to a GET without credentials. */
  async function challenges(site: JavaSite): Promise<string[]> {
    const res = await fetch(`${site.baseUrl}/data.json`);
    await res.arrayBuffer();
    expect(res.status).toBe(401);
    // Headers.get joins repeated headers with ", ".
    return (res.headers.get("www-authenticate") ?? "").split(/, (?=Digest )/);
  }

  it("Jetty 9.4's challenge is the deployed server's, character for character, and Tomcat's sends one opaque to every client", async () => {
    const [jettyChallenge] = await challenges((jetty as JavaServer).sites[0] as JavaSite);
    // NOTES.md: the deployed server's challenge, with this suite's realm.
    expect(jettyChallenge).toMatch(
      /^Digest realm="interop realm", domain="", nonce="[^"]+", algorithm=MD5, qop="auth", stale=false$/,
    );
    const site = (tomcat as JavaServer).sites[0] as JavaSite;
    const opaques = [...(await challenges(site)), ...(await challenges(site))].map(
      (c) => /opaque="([^"]+)"/.exec(c)?.[1],
    );
    expect(opaques).toHaveLength(4);
    expect(opaques[0]).toMatch(/^[0-9A-F]{32}$/);
    expect(new Set(opaques).size).toBe(1);
  });

  const servers: [string, () => JavaServer][] = [
    ["Jetty 9.4", () => jetty as JavaServer],
    ["Tomcat 10.1", () => tomcat as JavaServer],
  ];

  for (const [name, server] of servers) {
    it(`${name}: ${N} requests at ${WIDTH} in flight all succeed in N + 1 round trips, each PATCH body sent once`, async () => {
      const site = server().sites[0] as JavaSite;
      const before = (await site.log()).length;
      const client = clientFor(site);
      const { failures, patches } = await load(client, 0, N);
      const lines = await linesSince(site, before, client.stats.roundTrips);
      console.log(
        `${site.name}: ${N} requests (${patches} PATCH) at ${WIDTH} in flight: ${lines.length} round trips ` +
          `${JSON.stringify(byStatus(lines))}, ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      // Tomcat may refuse a request that reaches it 50 counts late (see expectOnlyWindowRefusals).
      const late = name.startsWith("Tomcat") ? expectOnlyWindowRefusals(lines) : 0;
      expect(lines).toHaveLength(N + 1 + late);
      expect(client.stats.roundTrips).toBe(N + 1 + late);
      expect(byStatus(lines)).toEqual({ 200: N, 401: 1 + late });
      const probe = `${new URL(site.baseUrl).pathname}/item.cgi`;
      expect(lines[0]).toMatchObject({ method: "GET", target: probe, status: 401 });
      expect(lines.filter((l) => l.method === "PATCH")).toHaveLength(patches);
    });

    it(`${name}: wrong credentials are judged in 2 round trips a request, alone or 16 in flight`, async () => {
      const site = server().sites[0] as JavaSite;
      const before = (await site.log()).length;
      const costs = await wrongCredentials(() => clientFor(site, WRONG), WRONG.password, site.name);
      const sent = costs.reduce((sum, c) => sum + c.roundTrips, 0);
      const lines = await linesSince(site, before, sent);
      console.log(`${site.name}, wrong credentials: ${describeCosts(costs)}`);
      expect(allRejected(costs)).toBe(true);
      expectTwoRoundTripsEach(costs);
      expect(lines).toHaveLength(sent);
      expect(lines.every((l) => l.status === 401)).toBe(true);
    });

    it(`${name}, nonces living 2 s: requests in bursts 2.6 s apart all succeed, each expiry met once by each request in flight`, async () => {
      const site = server().sites[1] as JavaSite;
      const before = (await site.log()).length;
      const client = clientFor(site);
      const failures: string[] = [];
      // Each nonce expires once: after the pause, and once more for every 2 s that sending took.
      let expiries = 0;
      for (const [from, to] of [
        [0, 50],
        [50, N],
      ] as const) {
        if (from > 0) {
          await sleep(SHORT_MS + 600);
          expiries += 1;
        }
        const started = Date.now();
        failures.push(...(await load(client, from, to)).failures);
        expiries += Math.floor((Date.now() - started) / SHORT_MS);
      }
      const lines = await linesSince(site, before, client.stats.roundTrips);
      console.log(
        `${site.name}: ${N} requests in 2 bursts 2.6 s apart: ${lines.length} round trips ` +
          `${JSON.stringify(byStatus(lines))}, ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      expect(lines.filter((l) => l.status === 200)).toHaveLength(N);
      expect(lines).toHaveLength(client.stats.roundTrips);
      // The first challenge, then each expiry met once by each request in flight; on Tomcat also any
      // count its window refused for certain (a request 50 counts late), each one more round trip, and
      // at the first of them the one challenge that tells the client Tomcat's opaque is server-wide.
      const late = name.startsWith("Tomcat") ? outsideTomcatWindow(lines).length : 0;
      const expired = lines.filter((l) => l.status === 401).length - 1;
      expect(expired).toBeGreaterThanOrEqual(1);
      expect(expired).toBeLessThanOrEqual(WIDTH * expiries + late + (late > 0 ? 1 : 0));
    });

    it(`${name}: 1,100 requests on one session, past Jetty's 1,024 counts a nonce, all succeed`, async () => {
      const site = server().sites[0] as JavaSite;
      const before = (await site.log()).length;
      const client = clientFor(site);
      const total = 1_100;
      const { failures } = await load(client, 0, total);
      const lines = await linesSince(site, before, client.stats.roundTrips);
      console.log(
        `${site.name}: ${total} requests at ${WIDTH} in flight: ${lines.length} round trips ` +
          `${JSON.stringify(byStatus(lines))}, ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      expect(lines.filter((l) => l.status === 200)).toHaveLength(total);
      expect(lines).toHaveLength(client.stats.roundTrips);
      const refused = lines.filter((l) => l.status === 401).length - 1;
      if (name.startsWith("Jetty")) {
        // Counts 1,024 and up are answered stale=true: each request in flight then moves to a new nonce.
        expect(refused).toBeGreaterThanOrEqual(1);
        expect(refused).toBeLessThanOrEqual(WIDTH);
      } else {
        // Tomcat sets no limit on a nonce's counts: past 1,024 as before.
        expect(refused).toBe(expectOnlyWindowRefusals(lines));
      }
    });
  }
});

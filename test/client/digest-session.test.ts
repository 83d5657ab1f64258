import { describe, expect, it } from "vitest";
import { ApiError, AuthenticationError } from "../../provider/client";
import { perTest } from "./support/clients";
import { DEFAULT_USER, type DigestServer, sendJson } from "./support/digest-server";

const { setup } = perTest({ retry: { baseDelayMs: 5, maxDelayMs: 20 } });

/** Runs `total` tasks with at most `width` in flight. */
async function pool(total: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < total) {
        const i = next;
        next += 1;
        await task(i);
      }
    }),
  );
}

function ncsPerNonce(s: DigestServer): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const r of s.requests) {
    if (r.nonce && r.nc) map.set(r.nonce, [...(map.get(r.nonce) ?? []), r.nc]);
  }
  return map;
}

function expectNoNcReused(s: DigestServer): void {
  expect(s.replays).toBe(0);
  for (const ncs of ncsPerNonce(s).values()) expect(new Set(ncs).size).toBe(ncs.length);
}

describe("round trips", () => {
  it("N sequential GETs cost N + 1 round trips", async () => {
    const { server, client } = await setup();
    const n = 20;
    for (let i = 0; i < n; i += 1) {
      const res = await client.request({ method: "GET", path: `/orgs/o${i}/apiKeys` });
      expect(res.body).toMatchObject({ ok: true, url: `/api/public/v1.0/orgs/o${i}/apiKeys` });
    }
    expect(server.requests).toHaveLength(n + 1);
    expect(client.stats).toEqual({ roundTrips: n + 1, challenges: 1, retries: 0 });
    expect(server.requests[0]?.authorization).toBeUndefined();
    expect(server.requests.slice(1).map((r) => r.nc)).toEqual(
      Array.from({ length: n }, (_, i) => (i + 1).toString(16).padStart(8, "0")),
    );
    expectNoNcReused(server);
  });

  it("32 concurrent GETs cost 33 round trips: one challenge, the others wait for it, no nc reused", async () => {
    const { server, client } = await setup();
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) => client.request({ method: "GET", path: `/x/${i}` })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(server.requests).toHaveLength(33);
    expect(server.count("challenge")).toBe(1);
    expect(server.count("accepted")).toBe(32);
    expect(new Set(server.requests.map((r) => r.nonce).filter(Boolean)).size).toBe(1);
    expectNoNcReused(server);
  });

  it("1,000 GETs at 32 at a time cost 1,001 round trips with no nc reused", async () => {
    const { server, client } = await setup();
    await pool(1000, 32, (i) => client.request({ method: "GET", path: `/run/${i}`, query: { pageNum: i } }));
    expect(client.stats.roundTrips).toBe(1001);
    expect(server.requests).toHaveLength(1001);
    expect(server.count("accepted")).toBe(1000);
    expectNoNcReused(server);
  });

  it("a PATCH as the very first request sends its body exactly once, after a bodyless GET probe", async () => {
    const { server, client } = await setup();
    const body = { desc: "new description", roles: ["ORG_MEMBER"] };
    await client.request({ method: "PATCH", path: "/orgs/o1/apiKeys/k1", body });
    expect(server.requests.map((r) => [r.method, r.verdict])).toEqual([
      ["GET", "challenge"],
      ["PATCH", "accepted"],
    ]);
    expect(server.requests[0]?.body).toBe("");
    expect(server.requests[1]?.body).toBe(JSON.stringify(body));
    expect(server.requests[1]?.contentType).toBe("application/json");
    await client.request({
      method: "POST",
      path: "/groups/g1/logCollectionJobs",
      body: { resourceType: "CLUSTER" },
    });
    expect(server.requests.filter((r) => r.body !== "")).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });

  it("signs the request target with its query string as the digest uri", async () => {
    const { server, client } = await setup();
    await client.request({
      method: "GET",
      path: "/orgs/o1/apiKeys",
      query: { pageNum: 2, itemsPerPage: 500, x: undefined },
    });
    const last = server.requests.at(-1);
    expect(last?.url).toBe("/api/public/v1.0/orgs/o1/apiKeys?pageNum=2&itemsPerPage=500");
    expect(last?.verdict).toBe("accepted");
    expect(last?.accept).toBe("application/json");
  });
});

describe("stale nonces and refused reuse", () => {
  it("a stale nonce costs one retry with the new nonce", async () => {
    const { server, client } = await setup();
    await client.request({ method: "GET", path: "/a" });
    server.expireAll();
    server.clearRecords();
    await client.request({ method: "GET", path: "/b" });
    expect(server.requests.map((r) => r.verdict)).toEqual(["stale", "accepted"]);
    expect(server.requests[1]?.nc).toBe("00000001");
    expect(client.stats.retries).toBe(0);
  });

  it("32 concurrent requests that hit a stale nonce adopt a single new nonce", async () => {
    const { server, client } = await setup();
    await client.request({ method: "GET", path: "/warm" });
    server.expireAll();
    server.clearRecords();
    await Promise.all(
      Array.from({ length: 32 }, (_, i) => client.request({ method: "GET", path: `/s/${i}` })),
    );
    expect(server.count("stale")).toBe(32);
    expect(server.count("accepted")).toBe(32);
    const adopted = new Set(server.requests.filter((r) => r.verdict === "accepted").map((r) => r.nonce));
    expect(adopted.size).toBe(1);
    expectNoNcReused(server);
  });

  it("a PATCH that meets a stale nonce is retried once with the same body", async () => {
    const { server, client } = await setup();
    await client.request({ method: "GET", path: "/warm" });
    server.expireAll();
    server.clearRecords();
    await client.request({ method: "PATCH", path: "/k", body: { desc: "d" } });
    expect(server.requests.map((r) => [r.method, r.verdict, r.body])).toEqual([
      ["PATCH", "stale", '{"desc":"d"}'],
      ["PATCH", "accepted", '{"desc":"d"}'],
    ]);
  });

  it("a server that expires nonces by age keeps working", async () => {
    // The server's clock is the test's: 25 ms pass between two requests, and a nonce lives 40 ms, so every
    // second request meets an expired nonce, however fast or slow this machine is.
    let clock = 0;
    const { server, client } = await setup({ nonceTtlMs: 40, now: () => clock });
    for (let i = 0; i < 6; i += 1) {
      await client.request({ method: "GET", path: `/t/${i}` });
      clock += 25;
    }
    expect(server.count("accepted")).toBe(6);
    // A nonce issued at 0 serves 0 and 25 and is stale at 50; its successor, issued at 50, serves 50 and 75…
    expect(server.requests.map((r) => r.verdict)).toEqual([
      "challenge",
      "accepted",
      "accepted",
      "stale",
      "accepted",
      "accepted",
      "stale",
      "accepted",
      "accepted",
    ]);
    expectNoNcReused(server);
  });

  it("a nonce that expires answered stale=false costs one extra round trip, and the new nonce is reused", async () => {
    // As the Ops Manager spec shows its challenge: an expired nonce gets stale=false.
    const { server, client } = await setup({ staleOnExpiry: false });
    await client.request({ method: "GET", path: "/warm" });
    server.expireAll();
    server.clearRecords();
    for (let i = 0; i < 10; i += 1) await client.request({ method: "GET", path: `/e/${i}` });
    expect(server.requests.map((r) => r.verdict)).toEqual(["stale", ...Array(10).fill("accepted")]);
    expect(server.requests[0]?.authorization).toBeDefined();
    const accepted = server.requests.filter((r) => r.verdict === "accepted");
    expect(new Set(accepted.map((r) => r.nonce)).size).toBe(1);
    expect(accepted.map((r) => r.nc)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i + 1).toString(16).padStart(8, "0")),
    );
    expect(client.digestMode).toBe("reuse");
    expectNoNcReused(server);
  });

  it("nonces that keep expiring with stale=false under 16 requests in flight cost one round trip per expiry met", async () => {
    // The server ages its nonces by the requests it accepts (3 ms of its clock each), so a nonce lives 40
    // accepted requests: each adopted nonce is reused well before it expires (two expiries in a row with no reuse
    // between them would look like a server refusing reuse), and 100 requests meet several expiries, on
    // a quiet machine or a busy one alike.
    let server: DigestServer | undefined;
    const started = await setup({
      staleOnExpiry: false,
      nonceTtlMs: 120,
      now: () => (server?.count("accepted") ?? 0) * 3,
    });
    server = started.server;
    const { client } = started;
    const failures: unknown[] = [];
    await pool(100, 16, async (i) => {
      await client.request({ method: "GET", path: `/k/${i}` }).catch((e: unknown) => failures.push(e));
    });
    const expired = server.count("stale");
    console.log(
      `stale=false expiry, 100 requests 16 in flight: ${server.requests.length} round trips, ${expired} expired nonces met`,
    );
    expect(failures).toEqual([]);
    expect(server.count("accepted")).toBe(100);
    expect(expired).toBeGreaterThan(0);
    // Only the first challenge was fetched without credentials: no fall back to a challenge per request.
    expect(server.count("challenge")).toBe(1);
    expect(server.requests).toHaveLength(100 + 1 + expired);
    expect(server.requests.every((r) => ["challenge", "accepted", "stale"].includes(r.verdict))).toBe(true);
    expect(client.digestMode).toBe("reuse");
    expectNoNcReused(server);
  });

  it("two nonce expiries in a row answered stale=false cost one extra round trip each, and 10 quick GETs after them cost 10", async () => {
    // Issue 10, case 8: requests further apart than the nonce lifetime meet an expired nonce every time,
    // and a server that answers stale=false cannot be told from one that refuses reuse. Expiries here
    // are the server's own doing (every nonce issued so far expires at once), not timing.
    const { server, client } = await setup({ staleOnExpiry: false });
    for (let i = 0; i < 3; i += 1) {
      if (i > 0) server.expireAll();
      await client.request({ method: "GET", path: `/apart/${i}` });
    }
    expect(server.requests.map((r) => r.verdict)).toEqual([
      "challenge",
      "accepted",
      "stale",
      "accepted",
      "stale",
      "accepted",
    ]);
    server.clearRecords();
    for (let i = 0; i < 10; i += 1) await client.request({ method: "GET", path: `/quick/${i}` });
    expect(server.requests.map((r) => r.verdict)).toEqual(Array(10).fill("accepted"));
    expect(new Set(server.requests.map((r) => r.nonce)).size).toBe(1);
    expect(client.digestMode).toBe("reuse");
    // A PATCH then sends its body once, signed with that nonce.
    server.clearRecords();
    await client.request({ method: "PATCH", path: "/k", body: { desc: "d" } });
    expect(server.requests.map((r) => [r.method, r.verdict, r.body])).toEqual([
      ["PATCH", "accepted", '{"desc":"d"}'],
    ]);
    expectNoNcReused(server);
  });

  it("with 300 ms nonces answered stale=false, three GETs 400 ms apart and then 10 quick GETs cost 6 + 10 round trips", async () => {
    // The same as the deployed server's expiry meets it: by age, on the server's clock, which the test
    // moves 400 ms between the three GETs and not at all during the 10 quick ones.
    let clock = 0;
    const { server, client } = await setup({ staleOnExpiry: false, nonceTtlMs: 300, now: () => clock });
    for (let i = 0; i < 3; i += 1) {
      if (i > 0) clock += 400;
      await client.request({ method: "GET", path: `/apart/${i}` });
    }
    expect(server.requests.map((r) => r.verdict)).toEqual([
      "challenge",
      "accepted",
      "stale",
      "accepted",
      "stale",
      "accepted",
    ]);
    server.clearRecords();
    for (let i = 0; i < 10; i += 1) await client.request({ method: "GET", path: `/quick/${i}` });
    expect(server.requests.map((r) => r.verdict)).toEqual(Array(10).fill("accepted"));
    expect(client.stats.roundTrips).toBe(16);
    expect(client.digestMode).toBe("reuse");
    expectNoNcReused(server);
  });

  it("against a server that refuses every nonce reuse, keeps working at 2 round trips a request and never sends a body twice after the fallback", async () => {
    const { server, client } = await setup({ refuseReuse: true });
    for (let i = 0; i < 10; i += 1) await client.request({ method: "GET", path: `/r/${i}` });
    expect(server.count("accepted")).toBe(10);
    expect(server.requests).toHaveLength(20);
    expect(client.digestMode).toBe("fresh");
    // The first refusal may be an expiry: the new nonce is reused once more, and refused again. From
    // then on a bodyless request tries the nonce that passed last (the refusal may still be an expiry)
    // and, refused, is signed with the nonce of that 401: 2 round trips, as a challenge of its own costs.
    const second = server.requests.findIndex((r, i) => r.verdict === "reuse-refused" && i > 2);
    expect(server.requests.slice(0, second + 2).map((r) => r.verdict)).toEqual([
      "challenge",
      "accepted",
      "reuse-refused",
      "accepted",
      "reuse-refused",
      "accepted",
    ]);
    const afterSwitch = server.requests.slice(second + 2);
    expect(afterSwitch.map((r) => [r.verdict, r.nc])).toEqual(
      Array.from({ length: 7 }, () => [
        ["reuse-refused", "00000002"],
        ["accepted", "00000001"],
      ]).flat(),
    );
    for (let i = 0; i < afterSwitch.length; i += 2) {
      expect(afterSwitch[i]?.nonce).toBe(server.requests[second + 1 + i]?.nonce);
    }
    // A request with a body fetches a challenge first: the body crosses the wire once.
    server.clearRecords();
    await client.request({ method: "POST", path: "/p", body: { a: 1 } });
    expect(server.requests.map((r) => [r.method, r.verdict, r.body])).toEqual([
      ["GET", "challenge", ""],
      ["POST", "accepted", '{"a":1}'],
    ]);
    // So it does with requests in flight together, bodyless and not: 2 round trips each.
    server.clearRecords();
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 4 === 0
          ? client.request({ method: "PATCH", path: `/c/${i}`, body: { desc: `d${i}` } })
          : client.request({ method: "GET", path: `/c/${i}` }),
      ),
    );
    expect(server.requests).toHaveLength(32);
    expect(server.count("accepted")).toBe(16);
    const patches = server.requests.filter((r) => r.method === "PATCH");
    expect(patches.map((r) => r.verdict)).toEqual(Array(4).fill("accepted"));
    expect(new Set(patches.map((r) => r.body)).size).toBe(4);
    expect(server.count("challenge")).toBe(4);
    expect(server.count("reuse-refused")).toBe(12);
    expect(client.digestMode).toBe("fresh");
    expectNoNcReused(server);
  });

  it("against a server that answers reuse with stale=true, keeps working", async () => {
    const { server, client } = await setup({ refuseReuse: true, refuseReuseSaysStale: true });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.request({ method: "GET", path: `/q/${i}` })),
    );
    for (let i = 0; i < 5; i += 1) await client.request({ method: "GET", path: `/r/${i}` });
    expect(server.count("accepted")).toBe(13);
    expectNoNcReused(server);
  });

  it("a server that counts nonces strictly per opaque and judges 16 requests in flight out of order fails none of them", async () => {
    // Apache httpd's mod_auth_digest with AuthDigestNcCheck On and its default table of about 12 clients.
    const { server, client } = await setup({ ncPerOpaque: true, maxClients: 12, reorder: 2 });
    const failures: string[] = [];
    await pool(100, 16, (i) =>
      client
        .request({ method: "GET", path: `/o/${i}` })
        .catch((e: unknown) => failures.push(e instanceof Error ? e.message : String(e))),
    );
    console.log(
      `strict nc per opaque, 100 requests 16 in flight judged newest first: ${server.requests.length} round trips ` +
        `(${server.count("nc-out-of-order")} counts out of order, ${server.count("client-unknown")} forgotten clients, ` +
        `${server.count("challenge")} challenges), mode ${client.digestMode}`,
    );
    expect(failures).toEqual([]);
    expect(server.count("accepted")).toBe(100);
    expect(server.count("bad-digest")).toBe(0);
    expectNoNcReused(server);
  });

  it("a server that calls every nonce stale is never reported as rejecting the credentials", async () => {
    const { server, client } = await setup({ nonceTtlMs: -1 });
    const error = await client.request({ method: "GET", path: "/s" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const message = (error as Error).message;
    expect(message).not.toContain("rejected the credentials");
    expect(message).toContain("stale");
    expect(message).toMatch(/^GET \/s failed: /);
    expect(error).toMatchObject({ method: "GET", path: "/s", url: `${server.origin}/api/public/v1.0/s` });
    // Bounded: four signed tries, each with a nonce the server gave this request alone.
    expect(server.count("stale")).toBe(4);
    expect(server.requests).toHaveLength(5);
  });

  it("follows Authentication-Info nextnonce", async () => {
    const { server, client } = await setup({ nextNonce: true });
    for (let i = 0; i < 4; i += 1) await client.request({ method: "GET", path: `/n/${i}` });
    const accepted = server.requests.filter((r) => r.verdict === "accepted");
    expect(accepted).toHaveLength(4);
    expect(new Set(accepted.map((r) => r.nonce)).size).toBe(4);
    expect(server.requests).toHaveLength(5);
  });
});

describe("credentials", () => {
  it("wrong credentials give an AuthenticationError naming the call and no secret", async () => {
    const wrong = "wrong-private-key-9f8e7d6c";
    const { server, client } = await setup({}, { password: wrong });
    const error = await client.request({ method: "GET", path: "/orgs/o1/apiKeys" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const auth = error as AuthenticationError;
    expect(auth.code).toBe("OM_ERR_AUTH");
    expect(auth.status).toBe(401);
    expect(auth.message).toContain("rejected the credentials");
    expect(auth.message).toMatch(/^GET \/orgs\/o1\/apiKeys failed: /);
    expect(auth.url).toBe(`${server.origin}/api/public/v1.0/orgs/o1/apiKeys`);
    expect(auth.message).not.toContain(wrong);
    expect(auth.message).not.toContain(DEFAULT_USER);
    expect(server.requests).toHaveLength(2);
    expect(client.stats.retries).toBe(0);
  });

  it("wrong credentials on a reused session are judged after one fresh challenge", async () => {
    // The key is revoked after the first request: the reused nonce fails, a fresh one fails, stop.
    let revoked = false;
    const { server, client } = await setup({
      handler: (_req, res) => {
        if (revoked) {
          res.writeHead(401, {
            "www-authenticate": `Digest realm="MMS Public API", nonce="x${Date.now()}", algorithm=MD5, qop="auth"`,
          });
          res.end();
          return;
        }
        sendJson(res, 200, {});
      },
    });
    await client.request({ method: "GET", path: "/a" });
    revoked = true;
    await expect(client.request({ method: "GET", path: "/b" })).rejects.toBeInstanceOf(AuthenticationError);
    expect(server.requests).toHaveLength(4);
  });

  it("a server that sends one opaque in every challenge, as Tomcat does, has wrong credentials judged in 2 round trips a request after one challenge that shows it", async () => {
    const wrong = "wrong-private-key-3c2b1a09";
    const opaque = "CB0577390D8F71AA7564BE4ED9252D83";
    // Tomcat 10.1's DigestAuthenticator's challenge, one opaque for every client.
    const { server, client } = await setup(
      {
        challenge: (nonce, stale) =>
          `Digest realm="MMS Public API", qop="auth", nonce="${nonce}", opaque="${opaque}", algorithm=MD5` +
          (stale ? ", stale=true" : ""),
      },
      { password: wrong },
    );
    const errors = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        client.request({ method: "GET", path: `/t/${i}` }).then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    );
    for (const error of errors) {
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as Error).message).toContain("rejected the credentials");
    }
    // The first challenge, 16 refused with the nonce they share, the challenge that shows the opaque is
    // the server's, and 16 refused with the nonce each request's own 401 gave it.
    expect(server.requests).toHaveLength(1 + 16 + 1 + 16);
    expect(server.count("challenge")).toBe(2);
    expect(
      server.requests.filter((r) => r.authorization !== undefined).every((r) => r.opaque === opaque),
    ).toBe(true);
    server.clearRecords();
    await expect(client.request({ method: "GET", path: "/t/more" })).rejects.toThrow(
      "rejected the credentials",
    );
    expect(server.requests).toHaveLength(2);
    expectNoNcReused(server);
  });

  it("a 401 that names an errorCode is authentication's when the caller does not declare otherwise: the request is signed again", async () => {
    const { server, client } = await setup({
      handler: (req, res) => {
        if (req.method !== "PATCH") return sendJson(res, 200, { ok: true });
        sendJson(
          res,
          401,
          {
            detail: "Current user is not authorized to perform this action.",
            errorCode: "USER_UNAUTHORIZED",
          },
          { "www-authenticate": `Digest realm="MMS Public API", nonce="role-x", algorithm=MD5, qop="auth"` },
        );
      },
    });
    await client.request({ method: "GET", path: "/a" });
    server.clearRecords();
    await client.request({ method: "PATCH", path: "/k", body: { desc: "d" } }).catch(() => undefined);
    // The transport knows no application's error bodies: it reads the 401 as a refused signature.
    expect(server.requests.filter((r) => r.method === "PATCH").length).toBeGreaterThan(1);
  });

  it("a 401 that names an errorCode and carries a Digest challenge is the answer: the PATCH is sent once, reported as that 401, and the mode does not change", async () => {
    // A caller without the role, answered as deployed servers do (401 with an errorCode), by a server
    // that also sends a challenge with it. Just after an expiry answered stale=false, so that a
    // refusal of the adopted nonce's second use would look like a server that refuses reuse.
    let issued = 0;
    const { server, client } = await setup({
      staleOnExpiry: false,
      handler: (req, res) => {
        if (req.method !== "PATCH") return sendJson(res, 200, { ok: true });
        issued += 1;
        sendJson(
          res,
          401,
          {
            detail: "Current user is not authorized to perform this action.",
            error: 401,
            errorCode: "USER_UNAUTHORIZED",
            parameters: [],
            reason: "Unauthorized",
          },
          {
            "www-authenticate": `Digest realm="MMS Public API", domain="", nonce="role-${issued}", algorithm=MD5, qop="auth", stale=false`,
          },
        );
      },
    });
    await client.request({ method: "GET", path: "/a" });
    server.expireAll();
    await client.request({ method: "GET", path: "/b" });
    server.clearRecords();
    const error = await client
      .request({
        method: "PATCH",
        path: "/orgs/o1/apiKeys/k1",
        body: { desc: "d" },
        // The caller (api/ for Ops Manager) declares which 401s are past authentication.
        pastAuthentication: (answer) => answer.errorCode !== undefined,
      })
      .catch((e: unknown) => e);
    expect(server.requests.map((r) => [r.method, r.verdict, r.body])).toEqual([
      ["PATCH", "accepted", '{"desc":"d"}'],
    ]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, errorCode: "USER_UNAUTHORIZED", code: "OM_ERR_API" });
    expect((error as Error).message).toContain(
      "PATCH /orgs/o1/apiKeys/k1 failed: 401 USER_UNAUTHORIZED — Current user is not authorized to perform this action.",
    );
    expect((error as Error).message).not.toMatch(/rejected the credentials|stale/);
    expect(client.stats.retries).toBe(0);
    // The session goes on reusing the nonce that passed: one round trip a request.
    server.clearRecords();
    for (let i = 0; i < 3; i += 1) await client.request({ method: "GET", path: `/after/${i}` });
    expect(server.requests.map((r) => [r.verdict, r.nc])).toEqual([
      ["accepted", "00000003"],
      ["accepted", "00000004"],
      ["accepted", "00000005"],
    ]);
    expect(client.digestMode).toBe("reuse");
  });

  it("a 401 without a Digest challenge says which schemes the server offered", async () => {
    const { client } = await setup({ challenge: () => 'Basic realm="x"' });
    const error = await client.request({ method: "GET", path: "/a" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain("does not support (it offered: basic)");
  });

  it("a server that does not ask for credentials is answered without them", async () => {
    const { server, client } = await setup({ auth: false });
    await client.request({ method: "GET", path: "/open" });
    await client.request({ method: "DELETE", path: "/open" });
    expect(server.requests.map((r) => [r.method, r.authorization])).toEqual([
      ["GET", undefined],
      ["DELETE", undefined],
    ]);
  });
});

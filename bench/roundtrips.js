/**
 * 1. Round trips per request: our digest client beside urllib's `digestAuth`, digest-fetch, and plain
 * undici with no authentication (the ceiling), 1,000 GETs and 1,000 PATCHes, one at a time and 32 at a
 * time, counted at the server.
 */
const undici = require("undici");
const urllib = require("urllib");
const { HttpClient } = require("../dist/provider/client");
const { startSimulator } = require("../dist/simulator");
const { startPlainServer } = require("./lib/plain-server");
const { dec, int, median, ms, pool, ratio, table, timed } = require("./lib/util");

const N = 1_000;
const ROUNDS = 3;
const SIM_OPTIONS = { seed: { keys: 5 } };
const MODES = [
  { name: "sequential", concurrency: 1 },
  { name: "32 at a time", concurrency: 32 },
];

/**
 * Each client: `open(sim, plain)` returns `send(method, path, body) → Promise<boolean>` (a 2xx answer)
 * and `close()`.
 */
const CLIENTS = [
  {
    name: "ours (HttpClient)",
    open(sim) {
      const client = new HttpClient({
        baseUrl: sim.apiRoot,
        username: sim.publicKey,
        password: sim.privateKey,
      });
      return {
        send: async (method, path, body) => {
          const [p, q] = path.split("?");
          const query = Object.fromEntries(new URLSearchParams(q ?? ""));
          await client.request({ method, path: p, query, body });
          return true;
        },
        close: () => client.close(),
      };
    },
  },
  {
    name: "urllib digestAuth",
    open(sim) {
      const client = new urllib.HttpClient();
      const digestAuth = `${sim.publicKey}:${sim.privateKey}`;
      return {
        send: async (method, path, body) => {
          const res = await client.request(`${sim.apiRoot}${path}`, {
            method,
            digestAuth,
            ...(body === undefined ? {} : { content: JSON.stringify(body), contentType: "application/json" }),
            dataType: "json",
          });
          return res.status < 300;
        },
        close: async () => {},
      };
    },
  },
  {
    name: "digest-fetch",
    async open(sim) {
      const { default: DigestClient } = await import("digest-fetch");
      const client = new DigestClient(sim.publicKey, sim.privateKey);
      return {
        send: async (method, path, body) => {
          const init = { method };
          if (body !== undefined) {
            init.body = JSON.stringify(body);
            init.headers = { "Content-Type": "application/json" };
          }
          const res = await client.fetch(`${sim.apiRoot}${path}`, init);
          await res.arrayBuffer();
          return res.status < 300;
        },
        close: async () => {},
      };
    },
  },
  {
    name: "undici, no auth (ceiling)",
    ceiling: true,
    open(_sim, plain) {
      const agent = new undici.Agent();
      return {
        send: async (method, path, body) => {
          const res = await undici.request(`${plain.url}/api/public/v1.0${path}`, {
            method,
            dispatcher: agent,
            ...(body === undefined
              ? {}
              : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
          });
          await res.body.json();
          return res.statusCode < 300;
        },
        close: () => agent.close(),
      };
    },
  },
];

/** The two requests measured: a small page of the org's keys, and a PATCH of one key's desc. */
function operations(sim) {
  const target = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey);
  return {
    GET: { path: `/orgs/${sim.orgId}/apiKeys?itemsPerPage=5`, body: () => undefined },
    PATCH: { path: `/orgs/${sim.orgId}/apiKeys/${target.id}`, body: (i) => ({ desc: `bench ${i}` }) },
  };
}

/** What the simulator answers to the GET and the PATCH: the ceiling server sends the same bodies. */
async function simulatorBodies() {
  const sim = await startSimulator(SIM_OPTIONS);
  const probe = new HttpClient({ baseUrl: sim.apiRoot, username: sim.publicKey, password: sim.privateKey });
  try {
    const ops = operations(sim);
    const [path, query] = ops.GET.path.split("?");
    const got = await probe.request({
      method: "GET",
      path,
      query: Object.fromEntries(new URLSearchParams(query)),
    });
    const patched = await probe.request({ method: "PATCH", path: ops.PATCH.path, body: ops.PATCH.body(0) });
    return { getBody: JSON.stringify(got.body), patchBody: JSON.stringify(patched.body) };
  } finally {
    await probe.close();
    await sim.close();
  }
}

async function roundtrips() {
  let plain;
  try {
    plain = await startPlainServer(await simulatorBodies());

    // A fresh simulator per run: past 10,000 nonces its nonce table is scanned on every challenge
    // (simulator/digest.ts), which would slow down whichever client ran late.
    const measure = async (c, method, mode) => {
      const sim = await startSimulator(SIM_OPTIONS);
      try {
        const ops = operations(sim);
        const session = await c.open(sim, plain);
        plain.reset();
        let failed = 0;
        const { ms: wallMs } = await timed(() =>
          pool(Array.from({ length: N }), mode.concurrency, async (_, i) => {
            const ok = await session.send(method, ops[method].path, ops[method].body(i)).catch(() => false);
            if (!ok) failed++;
          }),
        );
        await session.close();
        const roundTrips = c.ceiling ? plain.requests : sim.requests.length;
        return { method, mode: mode.name, client: c.name, requests: N, roundTrips, failed, wallMs };
      } finally {
        await sim.close();
      }
    };

    // Rounds interleave the clients so JIT warm-up and drift hit all alike; the first round only warms.
    const runs = new Map();
    for (let round = 0; round <= ROUNDS; round++) {
      for (const method of ["GET", "PATCH"]) {
        for (const mode of MODES) {
          for (const c of CLIENTS) {
            const run = await measure(c, method, mode);
            const key = `${method}|${mode.name}|${c.name}`;
            if (!runs.has(key)) runs.set(key, []);
            if (round > 0) runs.get(key).push(run);
          }
        }
      }
    }
    // Each row: the median wall time; the most round trips and failures of any round.
    const rows = [...runs.values()].map((list) => ({
      ...list[0],
      wallMs: median(list.map((r) => r.wallMs)),
      roundTrips: Math.max(...list.map((r) => r.roundTrips)),
      failed: Math.max(...list.map((r) => r.failed)),
      runsMs: list.map((r) => r.wallMs),
    }));

    const ours = (r) =>
      rows.find((o) => o.method === r.method && o.mode === r.mode && o.client.startsWith("ours"));
    const md = table(
      [
        "method",
        "mode",
        "client",
        "round trips",
        "per request",
        "failed",
        "wall",
        "requests/s",
        "round trips vs ours",
        "wall vs ours",
      ],
      rows.map((r) => [
        r.method,
        r.mode,
        r.client,
        int(r.roundTrips),
        dec(r.roundTrips / r.requests, 3),
        int(r.failed),
        ms(r.wallMs),
        int((r.requests / r.wallMs) * 1000),
        ratio(r.roundTrips, ours(r).roundTrips),
        ratio(r.wallMs, ours(r).wallMs),
      ]),
    );
    const mine = rows.filter((r) => r.client.startsWith("ours"));
    const worst = Math.max(...mine.map((r) => r.roundTrips));
    const met = mine.every((r) => r.roundTrips <= N + 1 && r.failed === 0);
    return {
      name: "roundtrips",
      title: `1. Round trips per request: ${int(N)} GETs and ${int(N)} PATCHes against the simulator`,
      tables: [md],
      notes: [
        `Wall time: median of ${ROUNDS} rounds after a warm-up round, the clients interleaved; round trips ` +
          "and failures: the most in any round. Round trips are counted at the server. The simulator has no " +
          "unauthenticated mode, so the undici ceiling runs against a plain node:http server " +
          "(bench/lib/plain-server.js) that answers with the simulator's own bodies for the same requests. " +
          "The clients and both servers share the bench process, alike for every client, ceiling included.",
      ],
      summary: [
        {
          comparison: "Round trips, ours, per 1,000 requests (GET/PATCH × sequential/32)",
          figure: mine.map((r) => int(r.roundTrips)).join(" / "),
          goal: `≤ ${int(N + 1)} (N+1)`,
          met,
        },
      ],
      results: { n: N, rows, worstOurs: worst },
      broken: mine.filter((r) => r.failed > 0).map((r) => `ours failed ${r.failed} ${r.method} (${r.mode})`),
    };
  } finally {
    await plain?.close();
  }
}

module.exports = { roundtrips };

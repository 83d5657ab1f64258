/**
 * 7. Several servers in one program (issue 22): 100 keys adopted on each of two servers named in
 * `opsmanager:servers`, from one provider host, 16 at a time, both servers at once; then the same 100
 * keys of one server adopted alone, the single-server figure each server is held to. Requests are
 * counted at each simulator: each must see only its own org's requests, and no more of them than one
 * server alone needs (N + 1 round trips: one challenge, the shared listing, one PATCH per key). A count
 * over its limit, or a request that reached the wrong server, is a broken measurement: the bench exits
 * non-zero.
 */
const { startSimulator } = require("../dist/simulator");
const { KEY_TYPE, newHost, program, urn } = require("./lib/program");
const { int, ms, poolSettled, table } = require("./lib/util");

const KEYS = 100;
const NAMES = ["dc1", "dc2"];

/** The requests since the last reset, counted as `challenge` and `METHOD` (every path checked apart). */
function counted(sim) {
  const counts = {};
  for (const q of sim.requests) {
    const what = q.authenticated ? q.method : "challenge";
    counts[what] = (counts[what] ?? 0) + 1;
  }
  return counts;
}

const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const describeCounts = (counts) =>
  Object.entries(counts)
    .map(([w, n]) => `${n} × ${w}`)
    .join(", ");

async function servers() {
  const prog = await program();
  const ours = require("../dist/provider/resources/shared/providers.js");
  const keyText = ours.ORG_API_KEY_PROVIDER;
  const sims = {};
  const hosts = [];
  const broken = [];
  const rows = [];
  try {
    for (const [i, name] of NAMES.entries()) {
      sims[name] = await startSimulator({
        profile: "deployed",
        seed: {
          keys: KEYS,
          orgId: `5f00000000000000000000e${i + 1}`,
          groupId: `5f00000000000000000000f${i + 1}`,
          publicKey: `benchsv${i + 1}`,
          privateKey: `00000000-svr${i + 1}-4000-8000-000000000001`,
          randomSeed: 100 + i,
        },
      });
    }
    const entry = (name) => ({
      baseUrl: sims[name].url,
      publicKey: sims[name].publicKey,
      privateKey: sims[name].privateKey,
    });
    const config = {
      "opsmanager:servers": JSON.stringify(Object.fromEntries(NAMES.map((n) => [n, entry(n)]))),
    };
    const toAdopt = (name) =>
      sims[name].state
        .apiKeys(sims[name].orgId)
        .filter((k) => k.publicKey !== sims[name].publicKey)
        .slice(0, KEYS)
        .map((k, i) => ({ name, key: k, desc: `adopted ${i} on ${name}` }));
    const adopt = (host, items, desc) =>
      poolSettled(items, 16, async ({ name, key }, i) => {
        const u = urn(KEY_TYPE, `${name}-${i}`);
        const inputs = {
          orgId: sims[name].orgId,
          apiKeyId: key.id,
          desc: desc(i, name),
          server: name,
          __provider: keyText,
        };
        const checked = await host.check(u, {}, inputs);
        if (checked.failures.length > 0) throw new Error(JSON.stringify(checked.failures));
        return host.create(u, checked.inputs);
      });

    // Both servers at once, from one host: one `pulumi up`.
    let host = await newHost(prog, hosts, config);
    for (const n of NAMES) sims[n].resetRequests();
    const items = NAMES.flatMap(toAdopt);
    let started = performance.now();
    const results = await adopt(host, items, (i, n) => `both ${i} on ${n}`);
    const bothMs = performance.now() - started;
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) broken.push(`${failed.length} adoptions failed: ${failed[0].error?.message}`);
    const both = Object.fromEntries(NAMES.map((n) => [n, counted(sims[n])]));
    for (const n of NAMES) {
      const own = sims[n].orgId;
      const astray = sims[n].requests.filter((q) => q.authenticated && !q.path.includes(`/orgs/${own}/`));
      if (astray.length > 0) broken.push(`${astray.length} requests to ${n} were not for its org ${own}`);
    }

    // One server alone, a new host: the limit each server is held to.
    host = await newHost(prog, hosts, config);
    sims.dc1.resetRequests();
    sims.dc2.resetRequests();
    started = performance.now();
    const aloneResults = await adopt(host, toAdopt("dc1"), (i) => `alone ${i}`);
    if (aloneResults.some((r) => !r.ok)) broken.push("an adoption on dc1 alone failed");
    const aloneMs = performance.now() - started;
    const alone = counted(sims.dc1);
    if (sims.dc2.requests.length > 0) broken.push("adopting on dc1 alone sent requests to dc2");
    const limit = { challenge: 1, GET: alone.GET ?? 0, PATCH: KEYS };
    if ((alone.challenge ?? 0) > 1 || (alone.PATCH ?? 0) > KEYS) {
      broken.push(`one server alone: ${describeCounts(alone)}, over 1 challenge and ${KEYS} PATCHes`);
    }

    for (const n of NAMES) {
      const counts = both[n];
      const over = Object.entries(counts).filter(([what, c]) => c > (limit[what] ?? 0));
      const met = over.length === 0;
      if (!met)
        broken.push(`${n}: ${over.map(([w, c]) => `${c} × ${w} (limit ${limit[w] ?? 0})`).join(", ")}`);
      rows.push([
        `${KEYS} keys on ${n}, beside ${KEYS} on the other server`,
        int(total(counts)),
        describeCounts(counts),
        `${int(total(limit))}`,
        met ? "yes" : "**no**",
      ]);
    }
    rows.push([`${KEYS} keys on dc1 alone (the limit)`, int(total(alone)), describeCounts(alone), "", ""]);

    return {
      name: "servers",
      title: "7. Two servers in one program: requests at each server, against one server alone",
      tables: [
        table(["adoption", "requests at that server", "by kind", "limit", "met"], rows),
        table(
          ["wall time", "both servers (200 keys)", "one server (100 keys)"],
          [["16 at a time, one host", ms(bothMs), ms(aloneMs)]],
        ),
      ],
      notes: [
        "Each server is its own world: its own digest session (one challenge), its own shared listing, " +
          "so two servers cost what each costs alone, and every request reached the server its resource names.",
      ],
      summary: NAMES.map((n) => ({
        comparison: `Requests at ${n}, ${KEYS} keys adopted beside ${KEYS} on another server`,
        figure: int(total(both[n])),
        goal: `≤ ${int(total(limit))} (one server alone)`,
        met: Object.entries(both[n]).every(([w, c]) => c <= (limit[w] ?? 0)),
      })),
      results: { both, alone, bothMs, aloneMs },
      broken,
    };
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
    await Promise.all(Object.values(sims).map((s) => s.close()));
  }
}

module.exports = { servers };

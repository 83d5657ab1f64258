/**
 * 4. Memory: the host's peak resident set (VmHWM) after N OrgApiKey creates and reads, N = 100, 500 and
 * 1,000, each in a new host, in an org of 5,000 keys. Beside it the trivial provider for the same calls:
 * what the host itself keeps, so that the difference is what our provider holds.
 */
const { startSimulator } = require("../dist/simulator");
const { KEY_TYPE, newHost, program, stackConfig, urn } = require("./lib/program");
const { int, mib, pool, table } = require("./lib/util");

const SIZES = [100, 500, 1_000];
const ORG_KEYS = 5_000;
const CONCURRENCY = 16;
// VmHWM of one run depends on when V8 happened to collect; the median of a few runs is steadier.
const RUNS = 3;
// What "flat" allows between 100 and 1,000 resources beyond the host's own growth: GC timing alone moves
// VmHWM by a few MiB.
const FLAT_SLACK_BYTES = 8 * 1024 * 1024;

async function measure(prog, hosts, sim, text, n) {
  const keys = sim.state.apiKeys().filter((k) => k.publicKey !== sim.publicKey);
  const host = await newHost(prog, hosts, stackConfig(sim));
  const idle = host.peakRssBytes();
  const ids = keys.slice(0, n).map((k) => k.id);
  const created = await pool(ids, CONCURRENCY, (id, i) =>
    host.create(urn(KEY_TYPE, `key-${i}`), {
      orgId: sim.orgId,
      apiKeyId: id,
      desc: `memory ${n} ${i}`,
      __provider: text,
    }),
  );
  await pool(created, CONCURRENCY, (c, i) =>
    host.read(c.id, urn(KEY_TYPE, `key-${i}`), { ...c.properties, __provider: text }),
  );
  const result = { n, idlePeak: idle, peak: host.peakRssBytes(), rss: host.rssBytes() };
  await host.close();
  hosts.splice(hosts.indexOf(host), 1);
  return result;
}

function medianByPeak(results) {
  const sorted = [...results].sort((a, b) => a.peak - b.peak);
  return { ...sorted[Math.floor(sorted.length / 2)], peaks: results.map((r) => r.peak) };
}

async function memory() {
  const prog = await program();
  const sim = await startSimulator({ seed: { keys: ORG_KEYS - 1 }, record: false });
  const hosts = [];
  try {
    const ours = [];
    const trivial = [];
    for (const n of SIZES) {
      const runs = { ours: [], trivial: [] };
      for (let r = 0; r < RUNS; r++) {
        runs.ours.push(await measure(prog, hosts, sim, prog.text.ourKey, n));
        runs.trivial.push(await measure(prog, hosts, sim, prog.text.trivial, n));
      }
      ours.push(medianByPeak(runs.ours));
      trivial.push(medianByPeak(runs.trivial));
    }
    const rows = SIZES.map((n, i) => [
      int(n),
      mib(ours[i].peak),
      mib(ours[i].rss),
      mib(trivial[i].peak),
      mib(ours[i].peak - trivial[i].peak),
    ]);
    const growth = (list) => list.at(-1).peak - list[0].peak;
    const extra = growth(ours) - growth(trivial);
    return {
      name: "memory",
      title: `4. Memory: host peak RSS after N OrgApiKey creates + reads (org of ${int(ORG_KEYS)} keys, ${CONCURRENCY} at a time)`,
      tables: [
        table(
          ["N", "ours: peak (VmHWM)", "ours: RSS at end", "trivial provider: peak", "ours − trivial"],
          rows,
        ),
      ],
      notes: [
        `Idle host after Configure: ${mib(ours[0].idlePeak)} peak. Growth from ${SIZES[0]} to ${int(SIZES.at(-1))} ` +
          `resources: ours ${mib(growth(ours))}, trivial ${mib(growth(trivial))}.`,
        `Each figure is the median of ${RUNS} hosts (peaks of ours at ${int(SIZES.at(-1))}: ${ours
          .at(-1)
          .peaks.map(mib)
          .join(", ")}).`,
        "The simulator runs in the bench process: these figures are the host's memory, not wall time.",
      ],
      summary: [
        {
          comparison: `Host peak RSS, ours, at ${SIZES.map(int).join(" / ")} keys`,
          figure: ours.map((r) => mib(r.peak)).join(" / "),
          goal: `flat: growth ${SIZES[0]}→${int(SIZES.at(-1))} within ${mib(FLAT_SLACK_BYTES)} of the host's own`,
          met: extra <= FLAT_SLACK_BYTES,
        },
      ],
      results: { ours, trivial, growthOurs: growth(ours), growthTrivial: growth(trivial) },
      broken: [],
    };
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
    await sim.close();
  }
}

module.exports = { memory };

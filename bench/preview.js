/**
 * 5. Preview cost: `check` and `diff` for 1,000 resources (900 keys, 100 jobs; some changed) through a
 * new host, as `pulumi preview` runs them after a deployment, must send no HTTP request at all.
 */
const { startSimulator } = require("../dist/simulator");
const { JOB_TYPE, KEY_TYPE, newHost, program, stackConfig, urn } = require("./lib/program");
const { int, kinds, ms, pool, table, timed } = require("./lib/util");

const KEYS = 900;
const JOBS = 100;
const CONCURRENCY = 16;

function resources(sim, prog) {
  const keys = sim.state.apiKeys().filter((k) => k.publicKey !== sim.publicKey);
  const list = [];
  for (let i = 0; i < KEYS; i++) {
    const inputs = {
      orgId: sim.orgId,
      apiKeyId: keys[i].id,
      desc: `preview ${i}`,
      __provider: prog.text.ourKey,
    };
    const next = i % 3 === 0 ? { ...inputs, desc: `preview ${i}, changed` } : inputs;
    list.push({ urn: urn(KEY_TYPE, `key-${i}`), inputs, next });
  }
  for (let i = 0; i < JOBS; i++) {
    const inputs = {
      groupId: sim.groupId,
      resourceType: "REPLICASET",
      resourceName: `rs${i}`,
      sizeRequestedPerFileBytes: 1_000_000,
      logTypes: ["DATABASE"],
      redacted: false,
      __provider: prog.text.ourJob,
    };
    const next = i % 10 === 0 ? { ...inputs, resourceName: `rs${i}-b` } : inputs;
    list.push({ urn: urn(JOB_TYPE, `job-${i}`), inputs, next });
  }
  return list;
}

async function preview() {
  const prog = await program();
  const sim = await startSimulator({ seed: { keys: 2_000 } });
  const hosts = [];
  try {
    const list = resources(sim, prog);
    const up = await newHost(prog, hosts, stackConfig(sim));
    const created = await pool(list, CONCURRENCY, (r) => up.create(r.urn, r.inputs));
    await up.close();

    const host = await newHost(prog, hosts, stackConfig(sim));
    sim.resetRequests();
    const { value: diffs, ms: wall } = await timed(() =>
      pool(list, CONCURRENCY, async (r, i) => {
        const checked = await host.check(r.urn, r.inputs, r.next);
        if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
        const olds = { ...created[i].properties, __provider: r.inputs.__provider };
        return host.diff(created[i].id, r.urn, olds, checked.inputs);
      }),
    );
    const requests = sim.requests.length;
    const outcome = {};
    for (const d of diffs) {
      const kind = d.replaces.length > 0 ? "replace" : d.changes === "DIFF_SOME" ? "update" : d.changes;
      outcome[kind] = (outcome[kind] ?? 0) + 1;
    }
    const byKind = {};
    for (const r of sim.requests)
      byKind[`${r.method} ${r.path}`] = (byKind[`${r.method} ${r.path}`] ?? 0) + 1;
    return {
      name: "preview",
      title: `5. Preview cost: check + diff of ${int(list.length)} resources through a new host`,
      tables: [
        table(
          ["resources", "calls", "HTTP requests", "wall", "diff outcome"],
          [[int(list.length), int(list.length * 2), int(requests), ms(wall), kinds(outcome)]],
        ),
      ],
      notes: [
        ...(requests > 0 ? [`PREVIEW SENT HTTP REQUESTS: ${kinds(byKind)}`] : []),
        "The simulator runs in the bench process: a preview sends it no request, so it costs no wall time.",
      ],
      summary: [
        {
          comparison: `Preview: HTTP requests for check + diff of ${int(list.length)} resources`,
          figure: int(requests),
          goal: "0",
          met: requests === 0,
        },
      ],
      results: { resources: list.length, requests, wallMs: wall, outcome, byKind },
      broken:
        requests > 0 ? [`preview sent ${requests} HTTP requests (${kinds(byKind)}); it must send none`] : [],
    };
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
    await sim.close();
  }
}

module.exports = { preview };

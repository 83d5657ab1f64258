/**
 * The deployment bench through the real engine: the same program as bench/deployment.js (in an org of
 * 5,000 keys, adopt 200 keys, half of them with a desc or roles that differ, and create 50 log
 * collection jobs) run by the Pulumi CLI that tools/pulumi-cli/build.sh builds, `pulumi up --parallel 16`
 * then `pulumi refresh --parallel 16`, on a local file backend. Beside it, in the same run, the same
 * program on a dynamic provider that does nothing (no HTTP), so that the provider's share of an `up` is
 * a ratio of two figures taken on one machine at one time. The server runs in its own process.
 */
const { execFileSync, spawn } = require("node:child_process");
const fsp = require("node:fs/promises");
const os = require("node:os");
const path = require("node:path");
const harness = require("./lib/harness");
const { ADOPT, JOBS, ORG_KEYS, PAGE, openSimulator, resources } = require("./deployment");
const { int, kinds, ms, ratio, table } = require("./lib/util");

const PARALLEL = 16;
const RUNS = Number(process.env.BENCH_ENGINE_RUNS ?? 3);

/** The program: each resource of resources.json, on our provider or on one that does nothing. */
const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const { LogCollectionJob, OrgApiKey } = require("pulumi-opsmanager");
const list = require("./resources.json");
const noop = new pulumi.Config("bench").getBoolean("noop");
// Does nothing: the engine's and the host's own cost of the same resources.
const nothing = {
  async check(olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create(inputs) { return { id: inputs.name, outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async update(id, olds, news) { return { outs: news }; },
  async delete() {},
};
for (const r of list) {
  if (noop) new pulumi.dynamic.Resource(nothing, r.name, { ...r.inputs, name: r.name });
  else if (r.type === "key") new OrgApiKey(r.name, r.inputs);
  else new LogCollectionJob(r.name, r.inputs);
}
`;

/** The CLI's bin folder, as the engine suite finds it. */
function cliBin() {
  if (process.env.OPSMANAGER_PULUMI_CLI) return process.env.OPSMANAGER_PULUMI_CLI;
  try {
    return execFileSync("bash", [path.join(harness.ROOT, "tools/pulumi-cli/build.sh"), "--where"], {
      encoding: "utf8",
    }).trim();
  } catch {
    throw new Error("no Pulumi CLI built from its Go modules: run `bash tools/pulumi-cli/build.sh` first");
  }
}

/** Runs `pulumi <args>` in `dir`; resolves to its wall time, or rejects with its output. */
function pulumi(bin, dir, env, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(path.join(bin, "pulumi"), [...args, "--color=never"], { cwd: dir, env });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.on("data", (c) => {
      out += c;
    });
    child.stdin.end();
    child.on("error", reject);
    child.on("close", (code) => {
      const wall = performance.now() - started;
      if (code === 0) resolve(wall);
      else reject(new Error(`pulumi ${args.join(" ")} exited ${code}\n${out.slice(-4000)}`));
    });
  });
}

/** One stack: `pulumi up` then `pulumi refresh` of the program, with their wall times and requests. */
async function runOnce(bin, dir, noop) {
  const sim = await openSimulator(0);
  const home = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-bench-engine-"));
  try {
    const { list, differing } = await resources(sim);
    await fsp.writeFile(path.join(dir, "resources.json"), JSON.stringify(list));
    const env = {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      PULUMI_HOME: path.join(home, "home"),
      PULUMI_BACKEND_URL: `file://${home}`,
      PULUMI_CONFIG_PASSPHRASE: "bench",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    for (const name of Object.keys(env)) if (name.startsWith("OPSMANAGER_")) delete env[name];
    const stack = `bench-${process.pid}-${Date.now()}`;
    await pulumi(bin, dir, env, ["stack", "init", stack]);
    const set = (key, value, secret) =>
      pulumi(bin, dir, env, ["config", "set", ...(secret ? ["--secret"] : []), key, value]);
    await set("opsmanager:baseUrl", sim.url);
    await set("opsmanager:publicKey", sim.publicKey);
    await set("opsmanager:privateKey", sim.privateKey, true);
    await set("bench:noop", String(noop));

    await sim.resetRequests();
    const upMs = await pulumi(bin, dir, env, [
      "up",
      "--yes",
      "--skip-preview",
      "--parallel",
      String(PARALLEL),
    ]);
    const up = await sim.requestSummary();
    await sim.resetRequests();
    const refreshMs = await pulumi(bin, dir, env, [
      "refresh",
      "--yes",
      "--skip-preview",
      "--parallel",
      String(PARALLEL),
    ]);
    const refresh = await sim.requestSummary();
    await pulumi(bin, dir, env, ["stack", "rm", "--yes", "--force", stack]);
    return { differing, up: { ms: upMs, ...up }, refresh: { ms: refreshMs, ...refresh } };
  } finally {
    await sim.close();
    await fsp.rm(home, { recursive: true, force: true });
  }
}

async function engine() {
  const bin = cliBin();
  const version = execFileSync(path.join(bin, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  const program = await harness.makeProgramDir({});
  try {
    await fsp.writeFile(
      path.join(program.dir, "Pulumi.yaml"),
      "name: bench-engine\nruntime: nodejs\nmain: index.js\n",
    );
    await fsp.writeFile(path.join(program.dir, "index.js"), PROGRAM);
    // Runs in turns, ours then the one that does nothing, so that a machine that changes speed over
    // the minutes moves both alike; each figure is the median of its runs.
    const runs = { ours: [], noop: [] };
    for (let i = 0; i < RUNS; i++) {
      runs.ours.push(await runOnce(bin, program.dir, false));
      runs.noop.push(await runOnce(bin, program.dir, true));
    }
    const median = (list, phase) =>
      [...list].sort((a, b) => a[phase].ms - b[phase].ms)[Math.floor(list.length / 2)];
    const pages = Math.ceil(ORG_KEYS / PAGE);
    const jobPages = Math.ceil(JOBS / PAGE);
    const differing = runs.ours[0].differing;
    const limits = {
      up: pages + differing + JOBS + 3 * jobPages + 1,
      refresh: pages + jobPages + 1,
    };
    const broken = [];
    const rows = [];
    const summary = [];
    for (const phase of ["up", "refresh"]) {
      const ours = median(runs.ours, phase);
      const noop = median(runs.noop, phase);
      const most = Math.max(...runs.ours.map((r) => r[phase].total));
      rows.push([
        phase === "up" ? `pulumi up: adopt ${ADOPT} keys + create ${JOBS} jobs` : "pulumi refresh",
        int(most),
        String(limits[phase]),
        `${int(ours[phase].resources.keys)} / ${int(ours[phase].resources.jobs)} / ${int(ours[phase].resources.challenges)}`,
        kinds(ours[phase].kinds),
        ms(ours[phase].ms),
        ms(noop[phase].ms),
        ratio(ours[phase].ms, noop[phase].ms),
        runs.ours.map((r) => ms(r[phase].ms)).join(", "),
      ]);
      summary.push({
        comparison: `engine: pulumi ${phase}, requests`,
        figure: int(most),
        goal: `at most ${limits[phase]}`,
        met: most <= limits[phase],
      });
      summary.push({
        comparison: `engine: pulumi ${phase}, ours / a provider that does nothing`,
        figure: ratio(ours[phase].ms, noop[phase].ms),
        goal: "reported",
      });
    }
    return {
      title: `Through the real engine (pulumi ${version}, --parallel ${PARALLEL}, ${RUNS} runs each)`,
      tables: [
        table(
          [
            "command",
            "requests (most of the runs)",
            "limit",
            "keys / jobs / challenges",
            "kinds",
            "ours, wall (median)",
            "does nothing, wall (median)",
            "ours / nothing",
            "ours, every run",
          ],
          rows,
        ),
      ],
      notes: [
        `The limits are bench/deployment.js's: up = ${pages} pages of the org's keys + ${differing} PATCH + ${JOBS} POST + ${3 * jobPages} listings of the project's jobs after its creates + 1 challenge; refresh = ${pages} pages of keys + ${jobPages} of jobs + 1 challenge. Wall times include the CLI's start, the program's run and the state's writes, which the provider that does nothing pays too.`,
      ],
      summary,
      broken,
    };
  } finally {
    await program.cleanup();
  }
}

module.exports = { engine };

if (require.main === module) {
  engine()
    .then((s) => {
      for (const t of s.tables) console.log(t);
      for (const n of s.notes) console.log(n);
      if (s.broken.length) {
        console.error(s.broken.join("\n"));
        process.exitCode = 1;
      }
    })
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}

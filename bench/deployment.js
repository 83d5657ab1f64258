/**
 * 2. A deployment through the real provider host: in an org of 5,000 keys, adopt 200 keys (half of them
 * with a desc or roles that differ) and create 50 log collection jobs, 16 calls at a time (check, then
 * create, per resource, as the engine does); then refresh everything from a new host process, as
 * `pulumi refresh` does (the keys from their organization's listing, the jobs from their project's).
 * Ours beside the baseline provider of bench/baseline, each against its own simulator seeded the same
 * way, each simulator in its own process (bench/lib/sim-process.js).
 */
const { startSimulatorProcess } = require("./lib/sim-process");
const { JOB_TYPE, KEY_TYPE, newHost, program, stackConfig, urn } = require("./lib/program");
const { cpuMs, int, kinds, ms, pool, ratio, table } = require("./lib/util");

const ORG_KEYS = 5_000;
const ADOPT = 200;
const JOBS = 50;
const CONCURRENCY = 16;
const PAGE = 500;
const RUNS = 5;
// Server time added to every authenticated request in the second comparison (one run each).
const SLOW_MS = 2;

/**
 * The program's resources: every 5th is a job, the rest keys spread over the whole org; `adopt` keys
 * (default {@link ADOPT}) and a job for every 4 of them.
 */
async function resources(sim, adopt = ADOPT) {
  const keys = (await sim.state.apiKeys()).filter((k) => k.publicKey !== sim.publicKey);
  const stride = Math.floor(keys.length / adopt);
  const list = [];
  let differing = 0;
  for (let i = 0; i < adopt; i++) {
    const key = keys[i * stride];
    const roles = key.roles.filter((r) => r.orgId !== undefined).map((r) => r.roleName);
    const inputs = { orgId: sim.orgId, publicKey: key.publicKey, desc: key.desc, roles };
    if (i % 2 === 0) {
      differing++;
      inputs.desc = `managed by Pulumi (${i})`;
      if (i % 4 === 0) inputs.roles = roles.includes("ORG_READ_ONLY") ? ["ORG_MEMBER"] : ["ORG_READ_ONLY"];
    }
    list.push({ type: "key", name: `key-${i}`, inputs });
    if (i % 4 === 3) {
      const j = list.length;
      list.push({
        type: "job",
        name: `job-${j}`,
        inputs: {
          groupId: sim.groupId,
          resourceType: "REPLICASET",
          resourceName: `rs${j}`,
          sizeRequestedPerFileBytes: 10_000_000,
          // The deployed server's name (the simulator's default profile), which the baseline and the
          // least possible provider send as it is.
          logTypes: ["MONGODB", "AUTOMATION_AGENT"],
          redacted: true,
        },
      });
    }
  }
  return { list, differing };
}

/**
 * The org, served from its own process (bench/lib/sim-process.js) as a real server would be, so its
 * answers do not wait behind the engine's side of the gRPC calls in this process. With `delayMs`, every
 * authenticated request waits that long, as a server off loopback would. It is warm: it has served a
 * long-running server's traffic first (sim-child.js `warmUp`), so a measured phase does not pay for the
 * simulator's own first run through its code. `orgKeys`: the keys of the org, the admin's included
 * (default {@link ORG_KEYS}).
 */
async function openSimulator(delayMs, orgKeys = ORG_KEYS) {
  const sim = await startSimulatorProcess({ seed: { keys: orgKeys - 1 }, delayMs });
  try {
    await sim.warmUp();
  } catch (error) {
    await sim.close();
    throw error;
  }
  return sim;
}

/**
 * A new simulator with `sim`'s keys and the program's jobs, `sim` closed. Past 10,000 nonces the
 * simulator scans its nonce table on every challenge (simulator/digest.ts), so the baseline's 20,000
 * challenges of the adoption would slow down its refresh; a restarted server starts with no nonces, as
 * after a night's expiry.
 */
async function restart(sim, delayMs) {
  const next = await openSimulator(delayMs);
  try {
    const fresh = new Map((await next.state.apiKeys()).map((k) => [k.id, k]));
    const changes = [];
    for (const key of await sim.state.apiKeys()) {
      const same = fresh.get(key.id);
      if (same === undefined) throw new Error("the simulator's seed did not reproduce the key ids");
      if (same.desc !== key.desc || JSON.stringify(same.roles) !== JSON.stringify(key.roles)) {
        changes.push({ id: key.id, change: { desc: key.desc, roles: key.roles } });
      }
    }
    await next.state.updateApiKeys(changes);
    // The jobs the adoption created, as they are (ids, dates, status): the refresh reads them.
    await next.state.addJobs(await sim.state.jobs(sim.groupId));
  } catch (error) {
    await next.close();
    throw error;
  }
  await sim.close();
  return next;
}

/**
 * Runs `call` over the resources, 16 at a time; also notes when the first resource was done, and the
 * CPU time the host and the simulator used meanwhile (every thread: GC and the kernel's share too).
 */
async function phase(list, host, sim, call) {
  const cpuBefore = { host: cpuMs(host.pid), server: cpuMs(sim.pid) };
  const start = performance.now();
  let firstMs;
  const value = await pool(list, CONCURRENCY, async (r, i) => {
    const result = await call(r, i);
    firstMs ??= performance.now() - start;
    return result;
  });
  const wallMs = performance.now() - start;
  const used = (name, pid) => {
    const after = cpuMs(pid);
    return after === undefined || cpuBefore[name] === undefined ? undefined : after - cpuBefore[name];
  };
  return {
    value,
    ms: wallMs,
    firstMs,
    hostCpuMs: used("host", host.pid),
    serverCpuMs: used("server", sim.pid),
  };
}

/** The names of an output object's properties, nested ones as `a.b`, sorted: what the engine stores. */
function shapeOf(value, prefix = "") {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.keys(value)
    .flatMap((k) => [`${prefix}${k}`, ...shapeOf(value[k], `${prefix}${k}.`)])
    .sort();
}

/** Each phase's median run (by wall time) of a provider's deployments. */
function medianOf(all) {
  const pick = (phase) =>
    [...all].sort((a, b) => a[phase].ms - b[phase].ms)[Math.floor(all.length / 2)][phase];
  return {
    ...all[0],
    adopt: pick("adopt"),
    refresh: pick("refresh"),
    runsMs: all.map((r) => ({ adopt: r.adopt.ms, refresh: r.refresh.ms })),
    jobsUnread: Math.max(...all.map((r) => r.jobsUnread)),
    broken: all.flatMap((r) => r.broken),
  };
}

/**
 * `runs` deployments of each provider, taken in turns (one of each, then again), so that a machine that
 * speeds up or slows down over the minutes of the benchmark moves every provider's figures alike.
 */
async function inTurns(runs, providers, deployOne) {
  const all = Object.fromEntries(providers.map((p) => [p, []]));
  for (let i = 0; i < runs; i++) for (const p of providers) all[p].push(await deployOne(p));
  return Object.fromEntries(providers.map((p) => [p, medianOf(all[p])]));
}

/** One provider's deployment and refresh; `texts` are its serialized providers. */
async function deploy(prog, texts, hosts, delayMs = 0) {
  let sim = await openSimulator(delayMs);
  try {
    const { list, differing } = await resources(sim);
    const typeOf = (r) => (r.type === "key" ? KEY_TYPE : JOB_TYPE);
    const text = (r) => (r.type === "key" ? texts.key : texts.job);

    const up = await newHost(prog, hosts, stackConfig(sim));
    await sim.resetRequests();
    const adopt = await phase(list, up, sim, async (r) => {
      const u = urn(typeOf(r), r.name);
      const checked = await up.check(u, {}, { ...r.inputs, __provider: text(r) });
      if (checked.failures.length > 0) throw new Error(`${r.name}: ${JSON.stringify(checked.failures)}`);
      return up.create(u, checked.inputs);
    });
    const adoptRequests = await sim.requestSummary();
    await up.close();

    sim = await restart(sim, delayMs);
    const refreshHost = await newHost(prog, hosts, stackConfig(sim));
    await sim.resetRequests();
    const refresh = await phase(list, refreshHost, sim, (r, i) =>
      refreshHost.read(adopt.value[i].id, urn(typeOf(r), r.name), {
        ...adopt.value[i].properties,
        __provider: text(r),
      }),
    );
    const refreshRequests = await sim.requestSummary();
    await refreshHost.close();

    const lost = refresh.value.filter((r, i) => r.id !== adopt.value[i].id).length;
    const wrong = list.filter(
      (r, i) => r.type === "key" && refresh.value[i].properties.desc !== r.inputs.desc,
    ).length;
    // Jobs a refresh left without the status the server has for them (the trivial provider reads none).
    const jobsUnread = list.filter((r, i) => r.type === "job" && !refresh.value[i].properties.status).length;
    return {
      differing,
      resources: list.length,
      // The adopted keys' outputs, to check that the least possible provider returns what ours does.
      keyOutputs: shapeOf(adopt.value[list.findIndex((r) => r.type === "key")].properties).join(),
      adopt: {
        ms: adopt.ms,
        firstMs: adopt.firstMs,
        hostCpuMs: adopt.hostCpuMs,
        serverCpuMs: adopt.serverCpuMs,
        requests: adoptRequests.total,
        kinds: adoptRequests.kinds,
        resources: adoptRequests.resources,
      },
      refresh: {
        ms: refresh.ms,
        firstMs: refresh.firstMs,
        hostCpuMs: refresh.hostCpuMs,
        serverCpuMs: refresh.serverCpuMs,
        requests: refreshRequests.total,
        kinds: refreshRequests.kinds,
        resources: refreshRequests.resources,
      },
      jobsUnread,
      broken: lost + wrong > 0 ? [`${lost} resources lost and ${wrong} with a wrong desc after refresh`] : [],
    };
  } finally {
    await sim.close();
  }
}

const cpu = (value) => (value === undefined ? "—" : ms(value));

async function deployment() {
  const prog = await program();
  const hosts = [];
  try {
    const texts = {
      ours: { key: prog.text.ourKey, job: prog.text.ourJob },
      base: { key: prog.text.baselineKey, job: prog.text.baselineJob },
      // The least a provider can do (bench/ideal): our requests and outputs, no checks at all.
      idealUndici: { key: prog.text.idealUndiciKey, job: prog.text.idealUndiciJob },
      idealHttp: { key: prog.text.idealHttpKey, job: prog.text.idealHttpJob },
      // The host's own cost for the same calls, with a provider that does no work: a floor for all.
      floor: { key: prog.text.trivial, job: prog.text.trivial },
    };
    // This process plays the engine, and its own first deployment is slower (its gRPC client runs cold):
    // one untimed deployment of the trivial provider first, so that no provider's first run pays for it.
    await deploy(prog, texts.floor, hosts);
    const medians = await inTurns(RUNS, Object.keys(texts), (p) => deploy(prog, texts[p], hosts));
    const { ours, base, idealUndici, idealHttp, floor } = medians;
    // The same deployment against a slower server: what the request counts cost off loopback.
    const slowOurs = await deploy(prog, texts.ours, hosts, SLOW_MS);
    const slowBase = await deploy(prog, texts.base, hosts, SLOW_MS);
    const slowRows = ["adopt", "refresh"].map((phase) => [
      phase,
      ms(slowOurs[phase].ms),
      ms(slowBase[phase].ms),
      ratio(slowBase[phase].ms, slowOurs[phase].ms),
    ]);
    const pages = Math.ceil(ORG_KEYS / PAGE);
    const jobPages = Math.ceil(JOBS / PAGE);
    // A job's create is its POST alone: its status and dates are the first refresh's to read.
    const adoptLimit = pages + ours.differing + JOBS + 1;
    const limits = {
      adopt: `${pages} pages + ${ours.differing} PATCH + ${JOBS} POST + 1 challenge = ${adoptLimit}`,
      refresh: `${pages} pages of keys + ${jobPages} of jobs + 1 challenge = ${pages + jobPages + 1}`,
    };
    const split = (r) => `${int(r.keys)} / ${int(r.jobs)} / ${int(r.challenges)}`;
    const rows = [];
    for (const phase of ["adopt", "refresh"]) {
      for (const [who, r] of [
        ["ours", ours],
        ["baseline (urllib, itemsPerPage 100, list per resource)", base],
        ["least possible over undici (bench/ideal: our requests, no checks)", idealUndici],
        ["least possible over node:http", idealHttp],
        ["trivial provider (no HTTP: the host's floor)", floor],
      ]) {
        rows.push([
          phase === "adopt" ? `adopt ${ADOPT} keys + create ${JOBS} jobs` : "refresh all (new host)",
          who,
          int(r[phase].requests),
          split(r[phase].resources),
          kinds(r[phase].kinds),
          ms(r[phase].ms),
          ms(r[phase].firstMs),
          cpu(r[phase].hostCpuMs),
          cpu(r[phase].serverCpuMs),
          who === "ours" ? limits[phase] : "",
        ]);
      }
    }
    const sum = (r) => ({ requests: r.adopt.requests + r.refresh.requests, ms: r.adopt.ms + r.refresh.ms });
    // The baseline's wall time over `r`'s, for the whole deployment and then each phase.
    const wallRatios = (r) =>
      `${ratio(sum(base).ms, sum(r).ms)} (adopt ${ratio(base.adopt.ms, r.adopt.ms)}, refresh ${ratio(base.refresh.ms, r.refresh.ms)})`;
    // The provider's own time: the phase's wall time less what the host takes for the same calls.
    const own = (r, phase) => r[phase].ms - floor[phase].ms;
    const ratios = ["adopt", "refresh"].map((phase) => [
      phase,
      ratio(base[phase].requests, ours[phase].requests),
      ratio(base[phase].ms, ours[phase].ms),
      ratio(base[phase].ms, idealUndici[phase].ms),
      ratio(base[phase].ms, idealHttp[phase].ms),
      `${ms(own(base, phase))} / ${ms(own(ours, phase))} = ${ratio(own(base, phase), own(ours, phase))}`,
    ]);
    ratios.push([
      "both",
      ratio(sum(base).requests, sum(ours).requests),
      ratio(sum(base).ms, sum(ours).ms),
      ratio(sum(base).ms, sum(idealUndici).ms),
      ratio(sum(base).ms, sum(idealHttp).ms),
      `${ms(sum(base).ms - sum(floor).ms)} / ${ms(sum(ours).ms - sum(floor).ms)} = ${ratio(sum(base).ms - sum(floor).ms, sum(ours).ms - sum(floor).ms)}`,
    ]);
    const fewer = (phase) => base[phase].requests / ours[phase].requests;
    const oursAtLimit = ours.adopt.requests <= adoptLimit && ours.refresh.requests <= pages + jobPages + 1;
    return {
      name: "deployment",
      title: `2. Deployment through the real provider host: org of ${int(ORG_KEYS)} keys, ${ADOPT} keys adopted (${ours.differing} differ), ${JOBS} jobs, ${CONCURRENCY} calls at a time`,
      tables: [
        table(
          [
            "phase",
            "provider",
            "HTTP requests",
            "keys / jobs / challenges",
            "by kind (method status)",
            "wall",
            "first resource done",
            "host CPU",
            "server CPU",
            "limit",
          ],
          rows,
        ),
        table(
          [
            "phase",
            "requests: baseline / ours",
            "wall: baseline / ours",
            "wall: baseline / least possible over undici",
            "wall: baseline / least possible over node:http",
            "wall above the host's floor: baseline / ours",
          ],
          ratios,
        ),
        table(
          [
            "phase",
            `ours, +${SLOW_MS} ms a request`,
            `baseline, +${SLOW_MS} ms a request`,
            "wall: baseline / ours",
          ],
          slowRows,
        ),
      ],
      notes: [
        `Wall time runs from the first Check to the last Create (adopt), and from the first to the last Read ` +
          `(refresh, in a new host process), median of ${RUNS} runs, the providers' runs taken in turns. Host start-up is in ` +
          `section 3; "first resource done" includes the provider's first load in the host. The baseline ` +
          "PATCHes only keys that differ (desc and roles together), which favours it. The last table adds " +
          `${SLOW_MS} ms of server time to every authenticated request (not to the 401 challenges, which favours ` +
          "the baseline): the loopback simulator answers in well under a millisecond, a real server does not.",
        "The least possible provider (bench/ideal) makes exactly our requests and returns our outputs, but " +
          "checks nothing: no input rules, no schema at the wire, no timeouts, retries or error messages. It is " +
          "the limit for wall time, as the request counts are the limit for requests. Over undici, the " +
          "transport this package is built on; over node:http, to show what that transport costs. The wall-time " +
          "goal is on the deployment, the adoption and then the refresh, as the issue defines it.",
        "The simulator runs in its own process (bench/lib/sim-process.js), as a real Ops Manager runs apart " +
          "from the engine: in the bench process its answers waited behind the gRPC client that plays the " +
          "engine. The request counts come from the simulator's log, summarized in its process. Each phase " +
          "starts against a warm simulator: before it, the simulator has served a long-running server's " +
          "traffic (listings, PATCHes, POSTs, from 8 fresh digest sessions), as a real Ops Manager has; a cold " +
          "one slowed the baseline's 20,000 requests by more than a second.",
        "Host CPU and server CPU are each process's CPU time over the phase, every thread counted (garbage " +
          "collection, the kernel's share of its sockets), from /proc in 10 ms steps. The engine's side (the " +
          "gRPC client in the bench process), the host and the simulator share this machine's cores: when " +
          "their CPU adds up to the cores times the wall time, the phase is CPU-bound, and the wall time is " +
          "what the host's CPU time costs on this machine rather than what the server makes it wait.",
      ],
      summary: [
        {
          comparison: "Deployment, ours: requests adopt / refresh",
          figure: `${int(ours.adopt.requests)} / ${int(ours.refresh.requests)}`,
          goal: `at the limit (${pages + ours.differing + JOBS + 1} / ${pages + jobPages + 1})`,
          met: oursAtLimit,
        },
        {
          comparison: `Deployment, refresh: requests for ${ADOPT} keys / for ${JOBS} jobs / challenges, ours (baseline)`,
          figure: `${split(ours.refresh.resources)} (${split(base.refresh.resources)})`,
          goal: "reported",
          met: undefined,
        },
        {
          comparison: "Deployment: fewer requests than the baseline (adopt / refresh)",
          figure: `${ratio(base.adopt.requests, ours.adopt.requests)} / ${ratio(base.refresh.requests, ours.refresh.requests)}`,
          goal: "≥ 20×",
          met: fewer("adopt") >= 20 && fewer("refresh") >= 20,
        },
        {
          // The goal is on "the deployment", which it defines as the adoption and then the refresh.
          comparison: "Deployment: less wall time than the baseline, adoption + refresh (each phase)",
          figure: wallRatios(ours),
          goal: "≥ 10×",
          met: sum(base).ms / sum(ours).ms >= 10,
        },
        {
          comparison:
            "Deployment: less wall time than the baseline, the least possible provider over undici / over node:http (each phase)",
          figure: `${wallRatios(idealUndici)} / ${wallRatios(idealHttp)}`,
          goal: "reported (the limit for wall time)",
          met: undefined,
        },
      ],
      results: {
        orgKeys: ORG_KEYS,
        adopt: ADOPT,
        jobs: JOBS,
        concurrency: CONCURRENCY,
        ours,
        baseline: base,
        leastOverUndici: idealUndici,
        leastOverHttp: idealHttp,
        floor,
      },
      broken: [
        ...[...ours.broken, ...slowOurs.broken].map((b) => `ours: ${b}`),
        ...(ours.jobsUnread > 0 ? [`ours: ${ours.jobsUnread} jobs without a status after refresh`] : []),
        ...[...base.broken, ...slowBase.broken].map((b) => `baseline: ${b}`),
        ...idealUndici.broken.map((b) => `least possible over undici: ${b}`),
        ...idealHttp.broken.map((b) => `least possible over node:http: ${b}`),
        ...[idealUndici, idealHttp]
          .filter((ideal) => ideal.keyOutputs !== ours.keyOutputs)
          .map(
            (ideal) =>
              `least possible provider: its keys' outputs (${ideal.keyOutputs}) are not ours (${ours.keyOutputs}); bench/ideal must return what ours does`,
          ),
      ],
    };
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
  }
}

module.exports = { deployment, resources, openSimulator, ORG_KEYS, ADOPT, JOBS, PAGE };

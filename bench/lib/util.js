/** Small helpers shared by the benchmark scripts: concurrency, statistics, Markdown tables. */

/** Runs `task(item, index)` over `items`, at most `limit` at a time; resolves to the results in order. */
async function pool(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Like {@link pool}, but records each task's outcome instead of stopping at the first failure. */
async function poolSettled(items, limit, task) {
  return pool(items, limit, (item, index) =>
    task(item, index).then(
      (value) => ({ ok: true, value }),
      (error) => ({ ok: false, error }),
    ),
  );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

const int = (n) => Math.round(n).toLocaleString("en-US");
const dec = (n, digits = 2) => n.toFixed(digits);
const ms = (n) => `${int(n)} ms`;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
/** Bytes as whole KiB; `—` when not measured. */
const kib = (bytes) => (bytes === undefined ? "—" : `${int(bytes / 1024)} KiB`);
/** `a / b` as `12.3×`, or `—` when it has no meaning. */
const ratio = (a, b) => (b > 0 && Number.isFinite(a / b) ? `${(a / b).toFixed(a / b >= 100 ? 0 : 1)}×` : "—");

/** A Markdown table; numbers are right-aligned. */
function table(headers, rows) {
  const right = headers.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^[\d,.\-−×% —]+( ms| MiB| B)?×?$/.test(String(r[i]))),
  );
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [
    line(headers),
    line(headers.map((_, i) => (right[i] ? "---:" : "---"))),
    ...rows.map((r) => line(r.map(String))),
  ].join("\n");
}

/** Counts of recorded simulator requests by `METHOD status`, e.g. `{ "GET 200": 10, "GET 401": 1 }`. */
function byKind(requests) {
  const counts = {};
  for (const r of requests) {
    const kind = `${r.method} ${r.status}`;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/**
 * Counts of recorded simulator requests by what they were about: `challenges` (the 401s that bring a
 * nonce), `keys` (an organization's keys), `jobs` (a project's log collection jobs).
 */
function byResource(requests) {
  const counts = { keys: 0, jobs: 0, challenges: 0 };
  for (const r of requests) {
    if (r.status === 401) counts.challenges++;
    else if (r.path.includes("/logCollectionJobs")) counts.jobs++;
    else if (r.path.includes("/apiKeys")) counts.keys++;
  }
  return counts;
}

/**
 * How a deployment's job creates reached the server: how many POSTs, how long from the first to the
 * last, the median gap between two in a row, and how many listings of the jobs came with them.
 */
function jobCreatePace(requests) {
  const posts = requests
    .filter((r) => r.method === "POST" && /\/logCollectionJobs$/.test(r.path) && r.status === 201)
    .map((r) => r.receivedAt);
  const listings = requests.filter(
    (r) => r.method === "GET" && /\/logCollectionJobs$/.test(r.path) && r.status === 200,
  ).length;
  const gaps = posts
    .slice(1)
    .map((t, i) => t - posts[i])
    .sort((a, b) => a - b);
  return {
    posts: posts.length,
    listings,
    spanMs: posts.length < 2 ? 0 : posts[posts.length - 1] - posts[0],
    medianGapMs: gaps.length === 0 ? 0 : gaps[Math.floor(gaps.length / 2)],
  };
}

const kinds = (counts) =>
  Object.entries(counts)
    .sort()
    .map(([k, n]) => `${k}: ${int(n)}`)
    .join(", ");

/**
 * CPU time (user + system, every thread) a process has used so far, in ms, from /proc: 10 ms steps.
 * `undefined` where there is no /proc (the tables then show `—`).
 */
function cpuMs(pid) {
  try {
    const stat = require("node:fs").readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: utime is the 12th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
// Linux's USER_HZ, what /proc counts CPU time in; 100 on every mainstream kernel.
const CLOCK_TICKS = 100;

module.exports = {
  pool,
  poolSettled,
  median,
  timed,
  int,
  dec,
  ms,
  mib,
  ratio,
  table,
  byKind,
  byResource,
  jobCreatePace,
  kib,
  kinds,
  cpuMs,
};

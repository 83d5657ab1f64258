/**
 * Loaded with `node --require` into each provider host and provider plugin the engine bench's Pulumi
 * CLI starts (see `hostWrapper` and `pluginLauncher` in ../engine.js), and loads ./timeline.js when
 * `OPSMANAGER_BENCH_TIMELINE_DIR` is set: writes the process's peak resident memory (the kernel's `maxRSS`) and
 * CPU time to `$OPSMANAGER_BENCH_USAGE_DIR/<pid>.json`, every quarter second and when it ends. The
 * engine ends its plugins with SIGINT, which would end the process before an `exit` listener runs, so
 * the process exits on it instead (as a signal's death reports it, 128 + its number): the last figures
 * are written then, and so is a `--cpu-prof` profile, which a death by signal loses.
 */
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.OPSMANAGER_BENCH_USAGE_DIR;
if (dir) {
  const file = path.join(dir, `${process.pid}.json`);
  const write = () => {
    const { maxRSS } = process.resourceUsage();
    const { user, system } = process.cpuUsage();
    try {
      fs.writeFileSync(file, JSON.stringify({ maxRssKiB: maxRSS, cpuMs: (user + system) / 1000 }));
    } catch {
      // The bench removed its folder: nobody reads the figures any more.
    }
  };
  setInterval(write, 250).unref();
  process.on("exit", write);
  for (const [signal, number] of [
    ["SIGINT", 2],
    ["SIGTERM", 15],
  ]) {
    process.once(signal, () => process.exit(128 + number));
  }
}
// The command's timeline, when the bench asked for one: loaded from here, beside this file, rather
// than by a --require of its own in a list of options the shell splits at spaces.
if (process.env.OPSMANAGER_BENCH_TIMELINE_DIR) require("./timeline.js");

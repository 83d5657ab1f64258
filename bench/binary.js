/**
 * The plugin as the release ships it (tools/release/): this machine's single executable beside today's
 * script (`bin/pulumi-resource-opsmanager`, run by the `node` on PATH), each started as the engine
 * starts a plugin, timed from the spawn to the port line it prints, in turns; and each archive's size.
 * The deployment's `pulumi up` through the executable is a row of the engine bench (./engine.js).
 */
const { execFileSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { hostBinary, hostPlatform, releaseDir } = require("./lib/release");
const { int, median, mib, ms, table } = require("./lib/util");

const RUNS = Number(process.env.BENCH_BINARY_RUNS ?? 11);
/** Issue 40: the executable's cold start at most a third of the script's, same machine, same run. */
const GOAL = 1 / 3;
const SCRIPT = path.join(__dirname, "..", "bin", "pulumi-resource-opsmanager");
/** The plugin's built entry before the bundle (tools/bundle-script.js): what the script ran until 0d44e24. */
const UNBUNDLED = path.join(__dirname, "..", "dist", "provider", "plugin", "main.js");

/** Clock ticks per second of /proc's CPU times (Linux), or undefined where there is no /proc. */
function clockTicks() {
  if (!fs.existsSync("/proc/self/stat")) return undefined;
  return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
}

/**
 * Starts `command` (a file and its first arguments) with an engine address where none listens, as the
 * engine would; resolves to the wall time from the spawn to its port line and, on Linux, the CPU time
 * it had used by then.
 */
function startOnce([file, ...args], ticks) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, [...args, "127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
    let figures;
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.stdout.once("data", () => {
      const wallMs = performance.now() - started;
      let cpuMs;
      if (ticks !== undefined) {
        const fields = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
        cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
      }
      figures = { wallMs, cpuMs };
      child.kill("SIGTERM");
    });
    child.on("error", reject);
    child.once("exit", (code) =>
      figures === undefined
        ? reject(new Error(`${file} exited ${code} before its port:\n${stderr}`))
        : resolve(figures),
    );
  });
}

async function binary() {
  const exe = await hostBinary();
  try {
    const ticks = clockTicks();
    const subjects = { binary: [exe.file], script: [SCRIPT], unbundled: ["node", UNBUNDLED] };
    const runs = { binary: [], script: [], unbundled: [] };
    // One unmeasured start each fills the file cache; then they alternate so drift hits them alike.
    for (let run = -1; run < RUNS; run++) {
      for (const [name, file] of Object.entries(subjects)) {
        const figures = await startOnce(file, ticks);
        if (run >= 0) runs[name].push(figures);
      }
    }
    const med = (name, field) => median(runs[name].map((r) => r[field]));
    const factor = med("binary", "wallMs") / med("script", "wallMs");
    const cpu = (name) => (ticks === undefined ? "—" : ms(med(name, "cpuMs")));
    const nodeVersion = execFileSync("node", ["--version"], { encoding: "utf8" }).trim();
    const rows = [
      [`single executable (${hostPlatform()}, Node 22.20.0 inside)`, "binary"],
      [`script bin/pulumi-resource-opsmanager (node ${nodeVersion} on PATH)`, "script"],
      [`the built entry unbundled, dist/provider/plugin/main.js (the script until 0d44e24)`, "unbundled"],
    ].map(([label, name]) => [
      label,
      ms(med(name, "wallMs")),
      cpu(name),
      runs[name].map((r) => int(r.wallMs)).join(", "),
      `${(med(name, "wallMs") / med("script", "wallMs")).toFixed(2)}×`,
    ]);

    const { archiveEntries } = require("../tools/release/archive");
    const dir = await releaseDir();
    const archives = fs
      .readFileSync(path.join(dir, "checksums.txt"), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split("  ")[1]);
    const sizes = [];
    for (const name of archives) {
      const entries = await archiveEntries(path.join(dir, name));
      const executable = entries.find((e) => e.name.startsWith("pulumi-resource-opsmanager"));
      sizes.push({ name, bytes: fs.statSync(path.join(dir, name)).size, executableBytes: executable.size });
    }
    return {
      name: "binary",
      title: `The plugin's single executable: cold start beside the script (median of ${RUNS} runs), and the archives`,
      tables: [
        table(["plugin", "spawn to port line", "CPU by then", "runs (ms)", "vs script"], rows),
        table(
          ["archive", "bytes", "size", "executable inside"],
          sizes.map((s) => [s.name, int(s.bytes), mib(s.bytes), mib(s.executableBytes)]),
        ),
      ],
      notes: [
        "Each plugin is started with an engine address where no engine listens and timed from the spawn to the " +
          "first line of its standard output (its port), then ended; the three alternate, after one unmeasured start " +
          "each. CPU is the process's user and system time at the port line, from /proc (10 ms steps). The script " +
          "runs the plugin's bundle from this checkout (dist/provider/plugin/bundle.js, the SDK from node_modules/); " +
          "the unbundled entry, which the script ran when issue 40 set its goal, reads the built package's files; " +
          "the executable reads nothing but itself. All load every module of the plugin before they print the port. " +
          "The goal is judged against the script as it ships.",
      ],
      summary: [
        {
          comparison: "Plugin cold start (spawn to port line), single executable / script",
          figure: `${ms(med("binary", "wallMs"))} / ${ms(med("script", "wallMs"))} = ${factor.toFixed(2)}×`,
          goal: "≤ 0.33×",
          met: factor <= GOAL,
        },
        {
          comparison: "Plugin archive sizes",
          figure: sizes
            .map(
              (s) =>
                `${s.name.replace(/^pulumi-resource-opsmanager-v[^-]+-|\.tar\.gz$/g, "")} ${mib(s.bytes)}`,
            )
            .join(", "),
          goal: "reported",
          met: undefined,
        },
      ],
      results: { runs, sizes, factor },
      broken: [],
    };
  } finally {
    exe.cleanup();
  }
}

module.exports = { binary };

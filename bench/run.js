/**
 * `npm run bench`: every comparison of the benchmark suite but `engine-large`, or some of them by name
 * (`node bench/run.js deployment preview`, `node bench/run.js engine-large`). Prints one Markdown table
 * per comparison and a summary, writes .bench-results/latest.json, and exits non-zero only when a
 * measurement broke.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

// The Pulumi SDK's dependencies print deprecation and experimental warnings on load; they are not ours.
process.removeAllListeners("warning");

const SECTIONS = {
  roundtrips: () => require("./roundtrips").roundtrips(),
  deployment: () => require("./deployment").deployment(),
  coldstart: () => require("./coldstart").coldstart(),
  binary: () => require("./binary").binary(),
  memory: () => require("./memory").memory(),
  preview: () => require("./preview").preview(),
  lifecycle: () => require("./lifecycle").lifecycle(),
  servers: () => require("./servers").servers(),
  engine: () => require("./engine").engine(),
  "engine-large": () => require("./engine").engineLarge(),
};
// Run only when named: the ten times larger deployment takes minutes on its own, beyond the deadline
// of a whole run.
const ON_REQUEST = new Set(["engine-large"]);
const DEADLINE_MS = 30 * 60_000;

async function main() {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) {
    console.error(`unknown section ${unknown.join(", ")}; choose from ${Object.keys(SECTIONS).join(", ")}`);
    return 2;
  }
  const names = asked.length > 0 ? asked : Object.keys(SECTIONS).filter((name) => !ON_REQUEST.has(name));
  const deadline = setTimeout(() => {
    console.error(`the benchmark did not finish within ${DEADLINE_MS / 60_000} minutes`);
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();

  const { table } = require("./lib/util");
  const { cleanupProgram } = require("./lib/program");
  const commit = gitCommit();
  // Wall times are only as good as the machine was quiet: other processes show in the load average.
  const loadAtStart = os.loadavg()[0];
  console.log(
    `# pulumi-opsmanager benchmarks\n\n${new Date().toISOString()}, commit ${commit}, Node ${process.version}, ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${os.platform()}; all traffic on loopback; load average at start ${loadAtStart.toFixed(2)}.\n`,
  );
  const sections = [];
  const broken = [];
  try {
    for (const name of names) {
      const started = performance.now();
      try {
        const section = await SECTIONS[name]();
        sections.push(section);
        broken.push(...section.broken.map((b) => `${name}: ${b}`));
        console.log(`## ${section.title}\n`);
        for (const t of section.tables) console.log(`${t}\n`);
        for (const note of section.notes) console.log(`${note}\n`);
      } catch (error) {
        broken.push(`${name}: ${error.stack ?? error}`);
        console.log(`## ${name}\n\nBROKEN: ${error.message}\n`);
      }
      console.error(`(${name} took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await cleanupProgram();
  }

  const summary = sections.flatMap((s) => s.summary);
  console.log("## Summary\n");
  console.log(
    table(
      ["comparison", "figure", "goal", "met"],
      // A figure with no goal (`met` undefined) is reported, neither met nor missed.
      summary.map((s) => [
        s.comparison,
        s.figure,
        s.goal,
        s.met === undefined ? "" : s.met ? "yes" : "**no**",
      ]),
    ),
  );
  if (broken.length > 0) console.log(`\nBROKEN MEASUREMENTS:\n${broken.map((b) => `- ${b}`).join("\n")}`);

  const outDir = path.join(__dirname, "..", ".bench-results");
  fs.mkdirSync(outDir, { recursive: true });
  const json = {
    date: new Date().toISOString(),
    commit,
    node: process.version,
    cpus: os.cpus().length,
    loadAverageAtStart: loadAtStart,
    summary,
    broken,
    sections: Object.fromEntries(sections.map((s) => [s.name, s.results])),
  };
  fs.writeFileSync(path.join(outDir, "latest.json"), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nResults written to .bench-results/latest.json.`);
  return broken.length > 0 ? 1 : 0;
}

function gitCommit() {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: __dirname,
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: __dirname, encoding: "utf8" }).trim();
    return dirty === "" ? sha : `${sha} (uncommitted changes in the tree)`;
  } catch {
    return "unknown";
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

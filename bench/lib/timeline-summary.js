/**
 * `node bench/lib/timeline-summary.js <file.json>…`: when each provider process of an engine bench
 * command did what, from the files that `OPSMANAGER_BENCH_TIMELINE=<folder>` makes the engine bench
 * write (../engine.js, ./timeline.js), in milliseconds from the command's start. For each process: its
 * start, its port line and its end; for each kind of gRPC call and HTTP request, how many, when the
 * first began and the last ended, and the median time from a call's arrival to its close (the lower
 * middle one of an even count); and, for each kind of 32 or more, when each sixteenth had closed,
 * which shows a phase that waits on another (the first reads of a refresh wait for the organization's
 * listing).
 */
const fs = require("node:fs");
const path = require("node:path");

const int = (n) => Math.round(n).toLocaleString("en-US");

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The lines that summarize one command's file. */
function summarize(timeline) {
  const at = (t) => int(t - timeline.start);
  const lines = [
    `${timeline.provider} ${timeline.command}: ${int(timeline.end - timeline.start)} ms, ${timeline.processes.length} provider process(es)`,
  ];
  for (const { pid, events } of [...timeline.processes].sort(
    (a, b) => a.events[0].start - b.events[0].start,
  )) {
    const marks = events.filter((e) => !e.what.startsWith("grpc ") && !e.what.startsWith("http "));
    lines.push(`  process ${pid}: ${marks.map((e) => `${e.what} ${at(e.start)}`).join(", ")}`);
    const kinds = new Map();
    for (const e of events) {
      if (!e.what.startsWith("grpc ") && !e.what.startsWith("http ")) continue;
      if (!kinds.has(e.what)) kinds.set(e.what, []);
      kinds.get(e.what).push(e);
    }
    const byFirstStart = [...kinds].map(([what, list]) => ({
      what,
      list,
      first: Math.min(...list.map((e) => e.start)),
    }));
    for (const { what, list, first } of byFirstStart.sort((a, b) => a.first - b.first)) {
      const last = Math.max(...list.map((e) => e.end));
      const took = median(list.map((e) => e.end - e.start));
      lines.push(
        `    ${what.padEnd(28)} ×${String(list.length).padEnd(4)} ${at(first).padStart(6)} to ${at(last).padStart(6)}, median ${took.toFixed(1)} ms each`,
      );
      if (list.length >= 32) {
        const ends = list.map((e) => e.end).sort((a, b) => a - b);
        const steps = Array.from({ length: 16 }, (_, i) =>
          at(ends[Math.ceil(((i + 1) * ends.length) / 16) - 1]),
        );
        lines.push(`      closed by sixteenths: ${steps.join(" ")}`);
      }
    }
  }
  return lines;
}

if (require.main === module) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write("usage: node bench/lib/timeline-summary.js <timeline.json>…\n");
    process.exit(2);
  }
  for (const file of files) {
    const timeline = JSON.parse(fs.readFileSync(file, "utf8"));
    process.stdout.write(`${path.basename(file)}\n${summarize(timeline).join("\n")}\n\n`);
  }
}

module.exports = { summarize };

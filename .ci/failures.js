// Prints, for a vitest JSON report, each failed test (file, name, the first lines of its error) and
// each file that failed to run, briefly: .ci/run prints this recap just before its closing line, so
// that the end of a CI log, which may be all that is kept, says what failed.
const fs = require("node:fs");
const path = require("node:path");
const { stripVTControlCharacters } = require("node:util");

const [file, label] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(fs.readFileSync(file, "utf8"));
} catch {
  process.exit(0); // .ci/run already reports a run that wrote no results
}
const clip = (line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line);
const firstLines = (text, n) =>
  stripVTControlCharacters(text)
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "" && !/^\s+at /.test(l))
    .slice(0, n)
    .map((l) => `      ${clip(l.trim())}`);
const out = [];
for (const suite of report.testResults ?? []) {
  const where = path.relative(process.cwd(), suite.name);
  const failed = (suite.assertionResults ?? []).filter((a) => a.status === "failed");
  for (const a of failed) {
    out.push(`  ✗ ${where} > ${a.fullName}`, ...firstLines((a.failureMessages ?? []).join("\n"), 4));
  }
  if (failed.length === 0 && suite.status === "failed") {
    out.push(`  ✗ ${where} (the file failed to run)`, ...firstLines(suite.message ?? "", 4));
  }
}
if (out.length > 0) console.log([`ci: what failed in the ${label}:`, ...out].join("\n"));

/**
 * `node bench/lib/profile-summary.js <file.cpuprofile>…`: where a provider host's CPU went, from the
 * profiles that `OPSMANAGER_BENCH_HOST_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=<dir>"` makes the
 * engine bench's hosts write. Prints the sampled time by where it was spent (idle, the garbage
 * collector, Node's own module loader, a package under node_modules, or a folder of this package's
 * provider/), then the functions that spent the most.
 */
const fs = require("node:fs");

/** The place a profile node's time counts to. */
function placeOf(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : `(native) ${functionName}`;
  const packages = url.match(/node_modules\/(@[^/]+\/)?[^/]+/g);
  if (packages) {
    const name = packages[packages.length - 1].replace("node_modules/", "");
    if (name !== "pulumi-opsmanager") return name;
    const folder = url.match(/dist\/provider\/([^/]+(\/[^/]+)?)\//);
    return `pulumi-opsmanager ${folder ? folder[1] : "dist"}`;
  }
  if (url.startsWith("node:internal/modules")) return "node: module loading";
  if (url.startsWith("node:")) return "node: other";
  return url;
}

function summarize(file) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const places = new Map();
  const functions = new Map();
  for (const [id, ms] of self) {
    const { callFrame } = nodes.get(id);
    const place = placeOf(callFrame);
    places.set(place, (places.get(place) ?? 0) + ms);
    const name = `${callFrame.functionName || "(anonymous)"} ${callFrame.url.replace(/.*node_modules\//, "")}:${callFrame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const total = (profile.endTime - profile.startTime) / 1000;
  const busy = total - (places.get("(idle)") ?? 0);
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `${ms.toFixed(0).padStart(8)} ms  ${k}`)
      .join("\n");
  return `${file}: ${total.toFixed(0)} ms profiled, ${busy.toFixed(0)} ms busy\n${top(places, 20)}\n-- functions\n${top(functions, 15)}\n`;
}

for (const file of process.argv.slice(2)) console.log(summarize(file));

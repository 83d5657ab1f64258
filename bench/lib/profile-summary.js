/**
 * `node bench/lib/profile-summary.js <file.cpuprofile>…`: where a provider host's CPU went, from the
 * profiles that `OPSMANAGER_BENCH_HOST_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=<dir>"` makes the
 * engine bench's hosts write. Prints the sampled time by where it was spent (idle, the garbage
 * collector, Node's own module loader, a package under node_modules, or a folder of this package's
 * provider/), then the functions that spent the most. A frame of an esbuild bundle (the plugin's script,
 * dist/provider/plugin/bundle.js) counts to the module it came from, as esbuild's `// <path>` comment
 * before each module in the bundle names it, when the bundle is still there to read.
 */
const fs = require("node:fs");
const path = require("node:path");
const { fileURLToPath } = require("node:url");

/** Of each bundle read, the first line of each module in it and the module's path, in order. */
const bundles = new Map();

/** The modules of the bundle at `url` (`[]` for a file that is not one, or is gone). */
function bundleModules(url) {
  if (!bundles.has(url)) {
    const modules = [];
    // The engine bench's program folder is gone once it ends: its pulumi-opsmanager is this clone.
    const file = fileURLToPath(url);
    const inPackage = /[\\/]node_modules[\\/]pulumi-opsmanager[\\/](.*)$/.exec(file);
    const here = inPackage ? path.join(__dirname, "..", "..", inPackage[1]) : file;
    try {
      const lines = fs.readFileSync(fs.existsSync(file) ? file : here, "utf8").split("\n");
      lines.forEach((line, i) => {
        const m = /^\/\/ ((?:node_modules|dist)\/\S+\.c?js)$/.exec(line);
        if (m) modules.push({ line: i, path: m[1] });
      });
    } catch {
      // Not a file here any more: its frames count to the file.
    }
    bundles.set(url, modules);
  }
  return bundles.get(url);
}

/**
 * The URL a frame counts to: inside a bundle, the module it came from, as it was installed
 * (`node_modules/zod/…`, or this package's `node_modules/pulumi-opsmanager/dist/provider/…`).
 */
function sourceUrl({ url, lineNumber }) {
  if (!url.startsWith("file:") || !url.endsWith(".js")) return url;
  const modules = bundleModules(url);
  let found;
  for (const module of modules) {
    if (module.line > lineNumber) break;
    found = module;
  }
  if (found === undefined) return url;
  return found.path.startsWith("node_modules/") ? found.path : `node_modules/pulumi-opsmanager/${found.path}`;
}

/** The place a profile node's time counts to, given the URL its frame counts to ({@link sourceUrl}). */
function placeOf({ functionName }, url) {
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
    const url = sourceUrl(callFrame);
    const place = placeOf(callFrame, url);
    places.set(place, (places.get(place) ?? 0) + ms);
    const where = url === callFrame.url ? "" : ` (${url.replace(/.*node_modules\//, "")})`;
    const name = `${callFrame.functionName || "(anonymous)"} ${callFrame.url.replace(/.*node_modules\//, "")}:${callFrame.lineNumber + 1}${where}`;
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

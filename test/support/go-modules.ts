/**
 * A Go environment that takes the SDK's module from a release's GOPROXY folder, as a user testing a
 * release does (`GOPROXY=file://<release>/go,https://proxy.golang.org GONOSUMDB=github.com/pulumi-opsmanager`),
 * with a module cache of its own. The machine's cache may hold an older build of the same version
 * (every commit's SDK module is v<package.json's version>), which the go command would take instead of
 * the release's and never check again; the SDK's dependencies are hard-linked into the new cache from
 * the machine's, so nothing is downloaded or unpacked twice, and a dependency it lacks comes through
 * the proxies.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { repoRoot } from "./program-dir";

/** The SDK's module path (sdk/go.mod). */
export const SDK_MODULE = "github.com/pulumi-opsmanager/pulumi-opsmanager/sdk";

/** A module path as the module cache spells it: each capital letter `!` and its lower case. */
const escaped = (modulePath: string) => modulePath.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

/** Hard-links every file under `from` into `to`, making its folders; copies where links cannot be made. */
async function linkTree(from: string, to: string): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else await fsp.link(source, target).catch(() => fsp.copyFile(source, target));
  }
}

/**
 * Makes a module cache at `cache` holding the machine's copies of the modules sdk/go.sum names, and
 * returns the environment of a go command that takes `SDK_MODULE` from `proxyDir` (a release's `go/`).
 */
export async function releaseGoEnv(proxyDir: string, cache: string): Promise<NodeJS.ProcessEnv> {
  const shared = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  const sums = readFileSync(path.join(repoRoot(), "sdk", "go.sum"), "utf8");
  for (const line of sums.split("\n")) {
    const [modulePath, version] = line.split(" ");
    if (modulePath === undefined || version === undefined || version.endsWith("/go.mod")) continue;
    const dir = `${escaped(modulePath)}@${version}`;
    const download = path.join("cache", "download", escaped(modulePath), "@v");
    const [info, ...needed] = ["info", "mod", "zip", "ziphash"].map((ext) =>
      path.join(download, `${version}.${ext}`),
    );
    if (![dir, ...needed].every((f) => existsSync(path.join(shared, f)))) continue;
    // The .info is optional: the go command reads it to resolve a query, not a version go.sum names.
    const present = existsSync(path.join(shared, info!)) ? [info!, ...needed] : needed;
    await linkTree(path.join(shared, dir), path.join(cache, dir));
    await fsp.mkdir(path.join(cache, download), { recursive: true });
    for (const f of present) {
      await fsp
        .link(path.join(shared, f), path.join(cache, f))
        .catch(() => fsp.copyFile(path.join(shared, f), path.join(cache, f)));
    }
  }
  return {
    ...process.env,
    GOMODCACHE: cache,
    // The machine's cache as a proxy too: the go.mod files of the dependency graph, offline.
    GOPROXY: `file://${proxyDir},file://${path.join(shared, "cache", "download")},https://proxy.golang.org`,
    // The module is in no checksum database until it is published; GOPRIVATE would also skip the proxy.
    GONOSUMDB: "github.com/pulumi-opsmanager",
    // Files the go command writes into the cache stay removable with the test's folder; a build may add
    // the requirements the new module brings to go.mod, as a user's `go mod tidy` would; and without the
    // cache's own path in what is compiled, the machine's build cache serves every run after the first
    // (a build in a new module cache is otherwise compiled anew: some minutes of sdk/v3).
    GOFLAGS: "-modcacherw -mod=mod -trimpath",
    GOWORK: "off",
  };
}

/**
 * The release as a user meets it: the folder `npm run release` writes (OPSMANAGER_RELEASE_DIR, or built
 * once into `<repo>/dist-release` and reused while the checkout is unchanged), served by a loopback
 * HTTP server in place of GitHub, which the CLI reaches through its own override
 * (`PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES`).
 *
 * Where there is no release and none can be built (no `tools/release/release.js`), the suites that need
 * it are skipped, saying why, and fail under `CI=true`.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../support/program-dir";

const execFileAsync = promisify(execFile);

/** The one version of the release: package.json's. */
export const VERSION = (
  JSON.parse(fs.readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { version: string }
).version;

/** Where the schema and every SDK say the plugin is downloaded from. */
export const DOWNLOAD_URL = "github://api.github.com/pulumi-opsmanager/pulumi-opsmanager";

/** The platforms the release has a plugin for, as the CLI names them (`<os>-<arch>`). */
export const PLATFORMS = [
  "linux-amd64",
  "linux-arm64",
  "darwin-amd64",
  "darwin-arm64",
  "windows-amd64",
] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The platform of this machine as the CLI names it (it downloads this one). */
export const HOST_PLATFORM = `${process.platform === "win32" ? "windows" : process.platform}-${
  process.arch === "x64" ? "amd64" : process.arch
}` as Platform;

/** The archive of a platform's plugin, as the CLI asks for it. */
export const archiveName = (platform: Platform): string =>
  `pulumi-resource-opsmanager-v${VERSION}-${platform}.tar.gz`;

/** The binary's name inside a platform's archive. */
export const binaryName = (platform: Platform): string =>
  platform.startsWith("windows") ? "pulumi-resource-opsmanager.exe" : "pulumi-resource-opsmanager";

/** Where the CLI installs a downloaded plugin of this version, under PULUMI_HOME. */
export const installedPlugin = (home: string): string =>
  path.join(home, "plugins", `resource-opsmanager-v${VERSION}`, "pulumi-resource-opsmanager");

const RELEASE_SCRIPT = path.join(repoRoot(), "tools", "release", "release.js");
const BUILT = path.join(repoRoot(), "dist-release");

/** Why the release cannot be had here, or undefined when it can (named, or buildable). */
export function releaseMissing(): string | undefined {
  const named = process.env.OPSMANAGER_RELEASE_DIR;
  if (named) {
    return fs.existsSync(path.join(named, "checksums.txt"))
      ? undefined
      : `a release in OPSMANAGER_RELEASE_DIR=${named} (no checksums.txt there)`;
  }
  if (!fs.existsSync(RELEASE_SCRIPT)) {
    return "the release (OPSMANAGER_RELEASE_DIR, or tools/release/release.js to build it)";
  }
  return undefined;
}

/** What the release is built from: the commit and every change to it, tracked or not. */
function checkoutKey(): string {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: repoRoot(), encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  // The release's own folder, its lock and its download cache are outputs, not inputs.
  const untracked = git("ls-files", "--others", "--exclude-standard", "-z")
    .split("\0")
    .filter((file) => file !== "" && !/^(dist-release|\.release-cache)/.test(file));
  const hash = createHash("sha256")
    .update(git("rev-parse", "HEAD"))
    .update(git("diff", "HEAD", "--binary"));
  for (const file of untracked.sort()) {
    hash.update(file);
    try {
      hash.update(fs.readFileSync(path.join(repoRoot(), file)));
    } catch {
      // Gone meanwhile.
    }
  }
  return hash.digest("hex");
}

const STAMP = ".built-from";
let releasePromise: Promise<string> | undefined;

/**
 * The release folder: OPSMANAGER_RELEASE_DIR, else `<repo>/dist-release`, built by
 * `node tools/release/release.js --out <repo>/dist-release` unless it was built from this very checkout.
 * Test files in other workers wait for one build (a lock folder beside it) instead of building twice.
 */
export function releaseDir(): Promise<string> {
  releasePromise ??= (async () => {
    const named = process.env.OPSMANAGER_RELEASE_DIR;
    if (named) return path.resolve(named);
    const key = checkoutKey();
    const current = () => fs.existsSync(path.join(BUILT, STAMP)) && readText(path.join(BUILT, STAMP)) === key;
    if (current()) return BUILT;
    await withLock(`${BUILT}.lock`, async () => {
      if (current()) return;
      await fsp.rm(BUILT, { recursive: true, force: true });
      try {
        await execFileAsync(process.execPath, [RELEASE_SCRIPT, "--out", BUILT], {
          cwd: repoRoot(),
          maxBuffer: 64 * 1024 * 1024,
          timeout: 30 * 60_000,
        });
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        throw new Error(
          `node tools/release/release.js --out ${BUILT} failed\n${stdout ?? ""}${stderr ?? ""}`,
        );
      }
      await fsp.writeFile(path.join(BUILT, STAMP), key);
    });
    return BUILT;
  })();
  return releasePromise;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Runs `fn` holding a lock folder; a lock whose holder no longer runs is taken over. */
async function withLock(lock: string, fn: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await fsp.mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readText(path.join(lock, "pid")));
      if (holder > 0 && !alive(holder)) {
        await fsp.rm(lock, { recursive: true, force: true });
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    await fsp.writeFile(path.join(lock, "pid"), String(process.pid));
    await fn();
  } finally {
    await fsp.rm(lock, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** `checksums.txt` of a release, by file name. */
export function checksums(dir: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of fs.readFileSync(path.join(dir, "checksums.txt"), "utf8").split("\n")) {
    const match = /^([0-9a-f]{64}) [ *]?(.+)$/.exec(line.trim());
    if (match) sums.set(match[2]!, match[1]!);
  }
  return sums;
}

/** One request the release server answered. */
export interface ServedRequest {
  method: string;
  path: string;
  status: number;
  userAgent: string;
}

/** A loopback HTTP server over a release folder, standing in for GitHub's release downloads. */
export interface ReleaseServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: ServedRequest[];
  /** The value of PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES that sends the CLI here for our repository. */
  override: string;
  close(): Promise<void>;
}

/**
 * Serves the files of `dir` (GET, by name, nothing outside it); `without` names files answered 404 as
 * if the release lacked them.
 */
export async function serveRelease(
  dir: string,
  options: { without?: string[] } = {},
): Promise<ReleaseServer> {
  const requests: ServedRequest[] = [];
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://release");
    const name = decodeURIComponent(url.pathname);
    const file = path.resolve(root, `.${name}`);
    const answer = (status: number, body?: fs.ReadStream | string) => {
      requests.push({
        method: req.method ?? "",
        path: name,
        status,
        userAgent: req.headers["user-agent"] ?? "",
      });
      res.statusCode = status;
      if (typeof body === "string" || body === undefined) res.end(body ?? "");
      else body.pipe(res);
    };
    if (req.method !== "GET") return answer(405, "only GET\n");
    const outside = !file.startsWith(`${root}${path.sep}`);
    const withheld = options.without?.includes(path.relative(root, file)) ?? false;
    if (outside || withheld || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      return answer(404, "Not Found\n");
    }
    res.setHeader("content-type", "application/octet-stream");
    res.setHeader("content-length", String(fs.statSync(file).size));
    answer(200, fs.createReadStream(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    override: `^${DOWNLOAD_URL.replaceAll(".", "\\.")}=${url}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Extracts one platform's archive into `into` and returns the path of its binary. */
export async function extractBinary(dir: string, platform: Platform, into: string): Promise<string> {
  await fsp.mkdir(into, { recursive: true });
  await execFileAsync("tar", ["-xzf", path.join(dir, archiveName(platform)), "-C", into]);
  return path.join(into, binaryName(platform));
}

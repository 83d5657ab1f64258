/**
 * The release as a user meets it: the folder `npm run release` writes (OPSMANAGER_RELEASE_DIR, or built
 * once into `<repo>/dist-release` and reused), served by a loopback
 * HTTP server in place of GitHub, which the CLI reaches through its own override
 * (`PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES`).
 *
 * Where there is no release and none can be built (no `tools/release/release.js`), the suites that need
 * it are skipped, saying why, and fail under `CI=true`.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../support/program-dir";
import { RELEASE_BUILD_TIMEOUT_MS, releaseDir as sharedReleaseDir } from "../../support/release";

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

/**
 * The release folder: OPSMANAGER_RELEASE_DIR, else `<repo>/dist-release`, built once by
 * `node tools/release/release.js --out <repo>/dist-release` when it is not there (test/support/release.ts,
 * shared with the tests of the archives, so that test files in other workers build it once).
 */
export const releaseDir = sharedReleaseDir;

/** How long the first test file of a run may wait for the release to be built. */
export const RELEASE_LIMIT_MS = RELEASE_BUILD_TIMEOUT_MS;

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
 * if the release lacked them; with `prefix` (a mirror's folder, `/pulumi-opsmanager/v0.1.0`) they are
 * served under it and nowhere else.
 */
export async function serveRelease(
  dir: string,
  options: { without?: string[]; prefix?: string } = {},
): Promise<ReleaseServer> {
  const requests: ServedRequest[] = [];
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://release");
    const name = decodeURIComponent(url.pathname);
    const prefix = options.prefix ?? "";
    const file = name.startsWith(`${prefix}/`) ? path.resolve(root, `.${name.slice(prefix.length)}`) : root;
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

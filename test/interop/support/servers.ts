/**
 * Real digest servers from Debian's packages, started by the tests on 127.0.0.1 with their own
 * configuration, password file, pid file and logs in a temporary directory: Apache httpd with
 * mod_auth_digest, and lighttpd with mod_auth. Each serves a static JSON file (GET) and a tiny CGI
 * (PATCH) behind digest authentication, and logs one line per request: method, target, status.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import * as net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";

export const APACHE = "/usr/sbin/apache2";
export const LIGHTTPD = "/usr/sbin/lighttpd";
const APACHE_MODULES = "/usr/lib/apache2/modules";

export const REALM = "interop realm";

/** One line of a server's access log. */
export interface LogLine {
  method: string;
  target: string;
  status: number;
  /** Tomcat's log only: the nonce and the count the request signed with, absent for a request without credentials. */
  nonce?: string;
  nc?: number;
}

export interface RealServer {
  name: string;
  /** The client's base URL: the served directory, which the client takes as its API root. */
  baseUrl: string;
  /** The access log so far. */
  log(): Promise<LogLine[]>;
  /** Waits until the access log holds `count` lines (the server may write them after answering). */
  logAtLeast(count: number): Promise<LogLine[]>;
  /** Stops the server and waits for it to exit. */
  close(): Promise<void>;
}

export interface Credentials {
  username: string;
  password: string;
}

/** Why the servers cannot run here, or `undefined` when they can. */
export function missingServers(): string | undefined {
  const missing = [APACHE, LIGHTTPD].filter((bin) => !existsSync(bin));
  if (missing.length === 0) return undefined;
  return (
    `${missing.join(" and ")} not installed: the digest interoperability suite needs Debian's apache2 ` +
    "and lighttpd packages (.ci/run installs them: apt-get install -y --no-install-recommends apache2 lighttpd)"
  );
}

/** A free TCP port on 127.0.0.1 (Apache cannot listen on port 0 and tell us which port it got). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An `htdigest` line: `user:realm:H(user:realm:password)`, and with `userhash` lighttpd's fourth field
 * `H(user:realm)`, by which it finds a user who sends the name hashed (RFC 7616 §3.4.4).
 */
export function htdigestLine(
  user: string,
  password: string,
  algorithm: "md5" | "sha256" = "md5",
  userhash = false,
): string {
  const h = (text: string) => createHash(algorithm).update(text, "utf8").digest("hex");
  const line = `${user}:${REALM}:${h(`${user}:${REALM}:${password}`)}`;
  return `${userhash ? `${line}:${h(`${user}:${REALM}`)}` : line}\n`;
}

const CGI = `#!/bin/sh
body=$(head -c "\${CONTENT_LENGTH:-0}")
printf 'Content-Type: application/json\\r\\n\\r\\n{"ok":true,"method":"%s","bytes":%s}\\n' "$REQUEST_METHOD" "\${#body}"
`;

/**
 * A temporary directory with the served files: `<dir>/htdocs/api/data.json` and
 * `<dir>/htdocs/api/item.cgi`. Readable by everyone, so a server that drops root can serve it.
 */
async function siteDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await mkdir(path.join(dir, "htdocs", "api"), { recursive: true });
  await writeFile(path.join(dir, "htdocs", "api", "data.json"), '{"ok":true}\n');
  await writeFile(path.join(dir, "htdocs", "api", "item.cgi"), CGI, { mode: 0o755 });
  for (const d of [dir, path.join(dir, "htdocs"), path.join(dir, "htdocs", "api")]) await chmod(d, 0o755);
  return dir;
}

function parseLog(text: string): LogLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [method = "", target = "", status = "0"] = line.trim().split(" ");
      return { method, target, status: Number(status) };
    });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`the server did not listen on port ${port} within 10 s: ${output()}`);
}

async function run(
  name: string,
  bin: string,
  args: string[],
  dir: string,
  port: number,
  accessLog: string,
): Promise<RealServer> {
  let output = "";
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await waitForPort(port, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // After close, the log as it was when the server exited (its directory is gone).
  let final: LogLine[] | undefined;
  const log = async () => final ?? parseLog(existsSync(accessLog) ? await readFile(accessLog, "utf8") : "");
  return {
    name,
    baseUrl: `http://127.0.0.1:${port}/api`,
    log,
    logAtLeast: async (count) => {
      const deadline = Date.now() + 5_000;
      let lines = await log();
      while (lines.length < count && Date.now() < deadline) {
        await sleep(50);
        lines = await log();
      }
      return lines;
    },
    close: async () => {
      if (final) return;
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      final = await log();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether this process is root: a server it starts must then serve as an unprivileged user. */
function asRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

export interface ApacheOptions {
  credentials: Credentials;
  /** `AuthDigestNcCheck`. */
  ncCheck: boolean;
  /** `AuthDigestNonceLifetime` in seconds. Default: Apache's (300). */
  nonceLifetimeSeconds?: number;
  /**
   * `AuthDigestShmemSize` in bytes: the table of clients whose counts mod_auth_digest checks. Default:
   * Apache's (1000 bytes), which a few dozen clients fill; when full it is forgotten in bulk, and then
   * every client is told `stale=true`, so whether requests get through depends on how the load lands.
   */
  shmemBytes?: number;
}

/** Apache httpd (event MPM) with mod_auth_digest, on a free port. */
export async function startApache(options: ApacheOptions): Promise<RealServer> {
  const dir = await siteDir("interop-apache-");
  const port = await freePort();
  const { username, password } = options.credentials;
  await writeFile(path.join(dir, "users.htdigest"), htdigestLine(username, password), { mode: 0o644 });
  const accessLog = path.join(dir, "access.log");
  const modules = [
    ["mpm_event_module", "mod_mpm_event.so"],
    ["authn_core_module", "mod_authn_core.so"],
    ["authn_file_module", "mod_authn_file.so"],
    ["authz_core_module", "mod_authz_core.so"],
    ["authz_user_module", "mod_authz_user.so"],
    ["auth_digest_module", "mod_auth_digest.so"],
    ["mime_module", "mod_mime.so"],
    ["cgid_module", "mod_cgid.so"],
  ];
  const conf = [
    `ServerRoot "${dir}"`,
    "ServerName 127.0.0.1",
    `Listen 127.0.0.1:${port}`,
    `PidFile "${dir}/httpd.pid"`,
    `DefaultRuntimeDir "${dir}"`,
    `Mutex file:${dir} default`,
    `ErrorLog "${dir}/error.log"`,
    "LogLevel warn",
    ...(asRoot() ? ["User nobody", "Group nogroup"] : []),
    ...modules.map(([name, file]) => `LoadModule ${name} ${APACHE_MODULES}/${file}`),
    ...(options.shmemBytes === undefined ? [] : [`AuthDigestShmemSize ${options.shmemBytes}`]),
    `ScriptSock "${dir}/cgid.sock"`,
    "StartServers 1",
    "ServerLimit 2",
    "ThreadsPerChild 32",
    "MaxRequestWorkers 64",
    "KeepAlive On",
    "MaxKeepAliveRequests 0",
    "TypesConfig /dev/null",
    "AddType application/json .json",
    'LogFormat "%m %U%q %>s" wire',
    `CustomLog "${accessLog}" wire`,
    `DocumentRoot "${dir}/htdocs"`,
    `<Directory "${dir}/htdocs/api">`,
    "  Options +ExecCGI",
    "  AddHandler cgi-script .cgi",
    "  AuthType Digest",
    `  AuthName "${REALM}"`,
    "  AuthDigestProvider file",
    `  AuthUserFile "${dir}/users.htdigest"`,
    `  AuthDigestNcCheck ${options.ncCheck ? "On" : "Off"}`,
    ...(options.nonceLifetimeSeconds === undefined
      ? []
      : [`  AuthDigestNonceLifetime ${options.nonceLifetimeSeconds}`]),
    "  Require valid-user",
    "</Directory>",
    "",
  ].join("\n");
  const confFile = path.join(dir, "httpd.conf");
  await writeFile(confFile, conf);
  const label =
    `Apache httpd, AuthDigestNcCheck ${options.ncCheck ? "On" : "Off"}` +
    (options.nonceLifetimeSeconds === undefined
      ? ""
      : `, AuthDigestNonceLifetime ${options.nonceLifetimeSeconds}`);
  return run(label, APACHE, ["-f", confFile, "-DFOREGROUND"], dir, port, accessLog);
}

export interface LighttpdOptions {
  credentials: Credentials;
  algorithm: "MD5" | "SHA-256";
  /** Ask for the user name hashed (RFC 7616 §3.4.4). */
  userhash?: boolean;
}

/** lighttpd with mod_auth (htdigest file), on a free port. Its access log is written by the time it exits. */
export async function startLighttpd(options: LighttpdOptions): Promise<RealServer> {
  const dir = await siteDir("interop-lighttpd-");
  const port = await freePort();
  const { username, password } = options.credentials;
  const hash = options.algorithm === "SHA-256" ? "sha256" : "md5";
  await writeFile(
    path.join(dir, "users.htdigest"),
    htdigestLine(username, password, hash, options.userhash),
    {
      mode: 0o644,
    },
  );
  // lighttpd opens its logs after dropping to the unprivileged user: give them a directory it can write.
  const logs = path.join(dir, "logs");
  await mkdir(logs);
  if (asRoot()) await chmod(logs, 0o777);
  const accessLog = path.join(logs, "access.log");
  const require = [
    '"method" => "digest"',
    `"algorithm" => "${options.algorithm}"`,
    `"realm" => "${REALM}"`,
    '"require" => "valid-user"',
    ...(options.userhash ? ['"userhash" => "enable"'] : []),
  ].join(", ");
  const conf = [
    `server.document-root = "${dir}/htdocs"`,
    'server.bind = "127.0.0.1"',
    `server.port = ${port}`,
    `server.pid-file = "${logs}/lighttpd.pid"`,
    `server.errorlog = "${logs}/error.log"`,
    ...(asRoot() ? ['server.username = "nobody"', 'server.groupname = "nogroup"'] : []),
    'server.modules = ("mod_auth", "mod_authn_file", "mod_accesslog", "mod_cgi")',
    'mimetype.assign = (".json" => "application/json")',
    'cgi.assign = (".cgi" => "")',
    `accesslog.filename = "${accessLog}"`,
    'accesslog.format = "%m %U%q %s"',
    'auth.backend = "htdigest"',
    `auth.backend.htdigest.userfile = "${dir}/users.htdigest"`,
    `auth.require = ("/api/" => (${require}))`,
    "",
  ].join("\n");
  const confFile = path.join(dir, "lighttpd.conf");
  await writeFile(confFile, conf);
  const label = `lighttpd ${options.algorithm}${options.userhash ? ", userhash" : ""}`;
  return run(label, LIGHTTPD, ["-D", "-f", confFile], dir, port, accessLog);
}

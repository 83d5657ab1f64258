/**
 * What the command line's tests share: the built CLI run as a user runs it, its printed lines pasted
 * into a shell, and the provider's own client to try the settings they leave.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { apiRoot } from "../../provider/api/api-root";
import { HttpClient } from "../../provider/client";
import { repoRoot } from "../support/program-dir";

const execFileAsync = promisify(execFile);
const CLI = path.join(repoRoot(), "dist", "simulator", "cli.js");

const running: ChildProcess[] = [];
const clients: HttpClient[] = [];

/** Stops every CLI started here and closes every client made here (for `afterEach`). */
export async function cleanUp(): Promise<void> {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((c) => stop(c)));
}

/** A running CLI and what it printed before its last startup line. */
export interface Started {
  child: ChildProcess;
  stdout: string;
}

/** Starts the CLI and waits for its last startup line (or its exit, which rejects). */
export function startCli(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  running.push(child);
  let stdout = "";
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("# Press Ctrl+C to stop.\n")) resolve({ child, stdout });
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`the simulator exited with ${code}: ${stderr}`)));
  });
}

/** Runs the CLI to its end (for one that fails to start, or `--help`). */
export async function runCli(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  running.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

/** Sends `signal` (SIGTERM unless told) to a running CLI and resolves with its exit code. */
export async function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.kill(signal);
  return exited;
}

/**
 * Pastes `text` into `sh`, with `pulumi` a shell function that records its arguments, then prints
 * the environment the pasted lines left: what a user's shell and stack would hold.
 */
export async function paste(text: string): Promise<{ pulumiCalls: string[][]; env: Record<string, string> }> {
  const script = [
    `pulumi() { for a in "$@"; do printf '%s\\037' "$a"; done; printf '\\036'; }`,
    text,
    `node -e 'process.stdout.write("\\035" + JSON.stringify(process.env))'`,
  ].join("\n");
  const { stdout } = await execFileAsync("sh", ["-c", script], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  const [calls = "", env = "{}"] = stdout.split("\u001d");
  const pulumiCalls = calls
    .split("\u001e")
    .filter((c) => c !== "")
    .map((c) => c.split("\u001f").filter((a) => a !== ""));
  return { pulumiCalls, env: JSON.parse(env) as Record<string, string> };
}

/** The credentials a client needs: a server's origin and its admin key. */
export interface Credentials {
  baseUrl: string;
  publicKey: string;
  privateKey: string;
}

/** The provider's own client for `settings`, closed by {@link cleanUp}. */
export function clientFor(settings: Credentials): HttpClient {
  const client = new HttpClient({
    baseUrl: apiRoot(settings.baseUrl),
    username: settings.publicKey,
    password: settings.privateKey,
  });
  clients.push(client);
  return client;
}

/** Lists the organization's keys through the provider's own client, with `settings`. */
export async function listKeys(settings: Credentials, orgId: string) {
  const client = clientFor(settings);
  const response = await client.request({ method: "GET", path: `/orgs/${orgId}/apiKeys` });
  return { response, client };
}

/**
 * A Pulumi project in a temporary folder, run with the real `pulumi` as a user runs it: its own local
 * file backend, `PULUMI_HOME` and passphrase, the package installed in its `node_modules` as `npm pack`
 * ships it, and nothing from the shell's environment that the provider reads.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { NO_ENV } from "../../support/host";
import { fillNodeModules, PACKAGE_NAME, packRepo, repoRoot } from "../../support/program-dir";
import type { CliBin } from "./cli";

/** What one `pulumi` command did. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Resolve with the result instead of throwing when the command fails. */
  allowFailure?: boolean;
  /** Text for the command's standard input. */
  input?: string;
  /** Called with the child process once it runs (to signal it). */
  onSpawn?: (child: import("node:child_process").ChildProcess) => void;
  /** Extra environment. */
  env?: Record<string, string>;
}

export interface ProjectOptions {
  /** A folder of `examples/` to copy (its Pulumi.yaml, program and tsconfig). */
  example?: string;
  /** Files to write into the project (after the example's), by name. */
  files?: Record<string, string>;
  /** A package tarball to install as `pulumi-opsmanager` instead of this checkout packed. */
  packageTarball?: string;
  /** The stack's name. Default `dev`. */
  stack?: string;
}

/** A stack of a project, in folders of its own. */
export interface EngineStack {
  /** The project's folder (the program). */
  dir: string;
  stack: string;
  /** The passphrase of its secrets provider. */
  passphrase: string;
  /** Runs `pulumi <args>` in the project. */
  pulumi(args: string[], options?: RunOptions): Promise<RunResult>;
  /** `pulumi config set [--secret] [--path] key value`. */
  config(key: string, value: string, options?: { secret?: boolean; path?: boolean }): Promise<void>;
  /** `pulumi stack export`, parsed. */
  exportState(): Promise<StackState>;
  /** Installs another package tarball as `pulumi-opsmanager` (an upgrade or a downgrade). */
  installPackage(tarball?: string): Promise<void>;
  /** A new file path in the stack's own temporary folder. */
  tempFile(name: string): string;
  /** Removes every folder of the stack. */
  cleanup(): Promise<void>;
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  additionalSecretOutputs?: string[];
  pendingReplacement?: boolean;
  delete?: boolean;
  initErrors?: string[];
  /** Where the program registered it, as the SDK sent it: `project:///<file>#<line>,<column>`. */
  sourcePosition?: string;
}

export interface StackState {
  version: number;
  deployment: {
    resources?: StateResource[];
    pending_operations?: Array<{ resource: StateResource; type: string }>;
    secrets_providers?: unknown;
  };
}

/** Environment every command gets: offline, nothing shared with the user's ~/.pulumi. */
export function baseEnv(bin: CliBin, home: string, backend: string, passphrase: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...NO_ENV };
  for (const name of Object.keys(env)) {
    // A developer's own Pulumi settings (an access token, another backend) stay out.
    if (name.startsWith("PULUMI_") || env[name] === undefined) delete env[name];
  }
  return {
    ...env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // `--event-log` is one of the CLI's debug flags.
    PULUMI_DEBUG_COMMANDS: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    NO_COLOR: "1",
  };
}

/** How long one command may run before it is stopped and fails. */
const COMMAND_LIMIT_MS = 180_000;

/** The files of an example folder a user's project holds (its node_modules is made here). */
const PROJECT_FILES = ["Pulumi.yaml", "index.ts", "index.js", "tsconfig.json", "package.json"];

/** Makes a project and its stack (`pulumi stack init`) in a new temporary folder. */
export async function makeStack(bin: CliBin, options: ProjectOptions = {}): Promise<EngineStack> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-engine-"));
  try {
    return await makeStackIn(root, bin, options);
  } catch (error) {
    await fsp.rm(root, { recursive: true, force: true });
    throw error;
  }
}

async function makeStackIn(root: string, bin: CliBin, options: ProjectOptions): Promise<EngineStack> {
  const dir = path.join(root, "project");
  const home = path.join(root, "home");
  const backend = path.join(root, "state");
  const stack = options.stack ?? "dev";
  const passphrase = randomBytes(12).toString("hex");
  await Promise.all([dir, home, backend].map((d) => fsp.mkdir(d, { recursive: true })));
  const env = baseEnv(bin, home, backend, passphrase);

  if (options.example) {
    const from = path.join(repoRoot(), "examples", options.example);
    for (const name of PROJECT_FILES) {
      if (fs.existsSync(path.join(from, name)))
        await fsp.copyFile(path.join(from, name), path.join(dir, name));
    }
  }
  for (const [name, text] of Object.entries(options.files ?? {})) {
    await fsp.writeFile(path.join(dir, name), text);
  }
  const nodeModules = path.join(dir, "node_modules");
  // The package is installed from its tarball below (packRepo: false), so its own dependencies are
  // linked here by name, as package.json lists them.
  const { dependencies = {} } = JSON.parse(
    await fsp.readFile(path.join(repoRoot(), "package.json"), "utf8"),
  ) as { dependencies?: Record<string, string> };
  await fillNodeModules(nodeModules, {
    packRepo: false,
    links: ["typescript", "@types/node", ...Object.keys(dependencies)],
  });

  async function installPackage(tarball?: string): Promise<void> {
    const target = path.join(nodeModules, PACKAGE_NAME);
    await fsp.rm(target, { recursive: true, force: true });
    await fsp.mkdir(target, { recursive: true });
    await runProcess("tar", ["-xzf", tarball ?? (await packRepo()), "-C", target, "--strip-components=1"], {
      cwd: dir,
      env,
    });
  }
  await installPackage(options.packageTarball);

  async function pulumi(args: string[], opts: RunOptions = {}): Promise<RunResult> {
    const result = await runProcess(path.join(bin, "pulumi"), [...args, "--color=never"], {
      cwd: dir,
      env: { ...env, ...opts.env },
      input: opts.input,
      onSpawn: opts.onSpawn,
    });
    if (result.code !== 0 && !opts.allowFailure) {
      throw new Error(
        `pulumi ${args.join(" ")} exited ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
      );
    }
    return result;
  }

  await pulumi(["stack", "init", stack]);
  return {
    dir,
    stack,
    passphrase,
    pulumi,
    async config(key, value, opts = {}) {
      const flags = [...(opts.secret ? ["--secret"] : []), ...(opts.path ? ["--path"] : [])];
      // The value goes in on standard input, as a user types a secret at the prompt: never in argv.
      await pulumi(["config", "set", ...flags, key], { input: `${value}\n` });
    },
    async exportState() {
      return JSON.parse((await pulumi(["stack", "export"])).stdout) as StackState;
    },
    installPackage,
    tempFile: (name) => path.join(root, name),
    async cleanup() {
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}

/** Runs a program to its end, collecting its output; a run past the limit is killed and fails. */
export function runProcess(
  file: string,
  args: string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    input?: string;
    onSpawn?: RunOptions["onSpawn"];
  },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // Its own process group, as a shell runs a command: a Ctrl-C (SIGINT to the group) reaches the CLI
    // and every plugin it started, as at a terminal.
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      reject(
        new Error(
          `${path.basename(file)} ${args.join(" ")} ran past ${COMMAND_LIMIT_MS} ms\n${stdout}\n${stderr}`,
        ),
      );
    }, COMMAND_LIMIT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    // A program that ends without reading its input (a preview that fails its check at once) closes
    // the pipe first: EPIPE then says nothing its exit code does not, and left unhandled it would end
    // the test run.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin.end(options.input ?? "");
    options.onSpawn?.(child);
  });
}

/** One line of an `--event-log` file. */
export interface EngineEvent {
  sequence: number;
  timestamp: number;
  resourcePreEvent?: { metadata: { op: string; urn: string; type: string } };
  resOutputsEvent?: { metadata: { op: string; urn: string; type: string } };
  diagnosticEvent?: { message: string; severity: string; urn?: string };
  summaryEvent?: unknown;
}

/** The events of an `--event-log` file, in order. */
export function readEvents(file: string): EngineEvent[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as EngineEvent)
    .sort((a, b) => a.sequence - b.sequence);
}

/**
 * `op name` of each step the engine finished (`resOutputsEvent`) on a resource of this package, in
 * order: the stack and the default provider are left out.
 */
export function finishedSteps(events: EngineEvent[]): string[] {
  return events.flatMap((e) => {
    const metadata = e.resOutputsEvent?.metadata;
    if (!metadata?.type.startsWith("pulumi-nodejs:dynamic/opsmanager:")) return [];
    return [`${metadata.op} ${metadata.urn.split("::").pop()}`];
  });
}

/** Path of this repository (for the examples and git history). */
export const REPO = repoRoot();

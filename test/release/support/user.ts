/**
 * A user's machine for the release: a fresh PULUMI_HOME with no plugin in it, the real CLI (and, for
 * Python and YAML, the language hosts) on PATH, automatic plugin acquisition on as it is by default,
 * and the CLI's download override sending our repository's release downloads to a loopback server.
 * Commands run with no Node.js reachable (test/support/no-node.ts) unless a program needs it itself.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type { TestContext } from "vitest";
import { startSimulator } from "../../../simulator";
import type { Simulator } from "../../../simulator/types";
import { baseEnv, type RunResult, runProcess, type StackState } from "../../engine/support/stack";
import { STEADY_JOBS } from "../../engine/support/world";
import { withoutNode } from "../../support/no-node";
import { type ReleaseServer, serveRelease } from "./release";

export interface UserOptions {
  /** The CLI's bin folder. */
  bin: string;
  /** More folders for PATH after the CLI's (the language hosts). */
  path?: string[];
  /** The server standing in for GitHub. */
  server: ReleaseServer;
  /** Leave node reachable (a TypeScript program's language host needs it). Default: hidden. */
  keepNode?: boolean;
  /** Environment of every command. */
  env?: Record<string, string>;
}

/** A user's machine: a temporary folder with the project, PULUMI_HOME and a file backend. */
export interface User {
  root: string;
  /** The project's folder. */
  dir: string;
  home: string;
  /** The environment every command of this user runs with: a change to it holds for the next command. */
  env: NodeJS.ProcessEnv;
  /** Runs `file args` in the project as this user (node hidden unless keepNode). */
  run(file: string, args: string[], options?: { allowFailure?: boolean; input?: string }): Promise<RunResult>;
  /** Runs `pulumi args` in the project. */
  pulumi(args: string[], options?: { allowFailure?: boolean; input?: string }): Promise<RunResult>;
  cleanup(): Promise<void>;
}

/** Makes a user's machine with the project's `files`. */
export async function makeUser(options: UserOptions, files: Record<string, string> = {}): Promise<User> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-release-"));
  const dir = path.join(root, "project");
  const home = path.join(root, "home");
  const backend = path.join(root, "state");
  await Promise.all([dir, home, backend].map((d) => fsp.mkdir(d, { recursive: true })));
  for (const [name, text] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fsp.writeFile(path.join(dir, name), text);
  }
  const env = baseEnv(options.bin, home, backend, randomBytes(12).toString("hex"));
  // On by default for a user: `pulumi up` installs the plugins a program needs.
  delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
  delete env.OPSMANAGER_PYTHON_VENV;
  env.PATH = [options.bin, ...(options.path ?? []), process.env.PATH ?? ""].join(path.delimiter);
  env.PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES = options.server.override;
  Object.assign(env, options.env);

  const run: User["run"] = async (file, args, opts = {}) => {
    const [command, ...argv] = options.keepNode
      ? [file, ...args]
      : withoutNode([file, ...args], env.PATH ?? "");
    const result = await runProcess(command, argv, { cwd: dir, env, input: opts.input });
    if (result.code !== 0 && !opts.allowFailure) {
      throw new Error(
        `${path.basename(file)} ${args.join(" ")} exited ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
      );
    }
    return result;
  };
  return {
    root,
    dir,
    home,
    env,
    run,
    pulumi: (args, opts) => run(path.join(options.bin, "pulumi"), [...args, "--color=never"], opts),
    cleanup: () => fsp.rm(root, { recursive: true, force: true }),
  };
}

/** A test's user of the release, with the release's server and an Ops Manager simulator of its own. */
export interface ReleaseWorld {
  user: User;
  server: ReleaseServer;
  sim: Simulator;
}

/**
 * A simulator, a server over the `release` folder (`serve`: its options) and a user with the project's
 * `files` who downloads from it, all three removed when the test ends. The hook is the test context's
 * own, so that tests that run concurrently each remove only their own.
 */
export async function openReleaseWorld(
  onTestFinished: TestContext["onTestFinished"],
  release: string,
  options: Omit<UserOptions, "server">,
  more: { files?: Record<string, string>; serve?: Parameters<typeof serveRelease>[1] } = {},
): Promise<ReleaseWorld> {
  const sim = await startSimulator(STEADY_JOBS);
  onTestFinished(() => sim.close());
  const server = await serveRelease(release, more.serve);
  onTestFinished(() => server.close());
  const user = await makeUser({ ...options, server }, more.files);
  onTestFinished(() => user.cleanup());
  return { user, server, sim };
}

/** `pulumi stack init`, then the simulator's settings as the README sets them, the private key a secret. */
export async function initStack(
  user: User,
  sim: Simulator,
  config: Record<string, string> = {},
): Promise<void> {
  await user.pulumi(["stack", "init", "dev"]);
  const plain = { "opsmanager:baseUrl": sim.url, "opsmanager:publicKey": sim.publicKey, ...config };
  for (const [key, value] of Object.entries(plain))
    await user.pulumi(["config", "set", key], { input: `${value}\n` });
  await user.pulumi(["config", "set", "--secret", "opsmanager:privateKey"], { input: `${sim.privateKey}\n` });
}

/** `pulumi stack export`, parsed. */
export async function exportState(user: User): Promise<StackState> {
  return JSON.parse((await user.pulumi(["stack", "export"])).stdout) as StackState;
}

/** Whether the plugin the CLI installed is in PULUMI_HOME/plugins (an executable file). */
export function pluginInstalled(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

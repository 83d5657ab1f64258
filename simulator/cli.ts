#!/usr/bin/env node
/**
 * Runs the simulator until SIGINT or SIGTERM and prints, as lines to paste into a shell, the settings
 * that point the provider at it (stack config, or the environment), then the org, the project and a
 * key to adopt:
 *
 * `node dist/simulator/cli.js [--profile deployed|spec] [--port N] [--host H] [--state FILE] [--keys N] [--servers N] [--tls-key F --tls-cert F]`
 *
 * `--profile` picks the server it plays: `deployed` (default), the Ops Manager that users run, or
 * `spec`, the API reference as written.
 *
 * `--servers N` starts N simulators instead (./servers: `sim1`, `sim2`, …, each its own world, on
 * consecutive ports) and prints each one's settings under its name in the stack config object
 * `opsmanager:servers`, for a program that manages several Ops Managers. Given as `--servers 1`, it
 * prints that form for the one server too, so that a script's output has one shape whatever its N.
 *
 * It listens on port {@link DEFAULT_PORT} unless told otherwise, so that settings saved in a stack
 * stay right from one start to the next. It prints the simulator's own seeded admin credentials on
 * purpose: it is a local test server, and they are what a user pastes.
 */
import * as fs from "node:fs";
import { startSimulator } from "./server";
import { MAX_SERVERS, serverName, startSimulators } from "./servers";
import { serversStartupText, startupText } from "./startup-text";
import type { SimulatorOptions } from "./types";

/** The port the simulator listens on when `--port` is not given. */
export const DEFAULT_PORT = 8180;

const USAGE = `usage: node dist/simulator/cli.js [--profile deployed|spec] [--port N] [--host H] [--state FILE] [--keys N] [--servers N] [--tls-key F --tls-cert F]

  --profile P    the server it plays: deployed (default), the Ops Manager users run, or spec, the API
                 reference as written
  --port N       port to listen on (default ${DEFAULT_PORT}; 0 for any free port)
  --host H       address to listen on (default 127.0.0.1)
  --state FILE   keep the simulator's state in this JSON file across starts
  --keys N       how many API keys to generate in the organization besides the admin key (default 5)
  --servers N    start N simulators (1 to ${MAX_SERVERS}), sim1, sim2, ..., each its own organization,
                 project, keys and admin credentials, on consecutive ports from --port, and print each
                 one's settings under its name in opsmanager:servers; with --state FILE, sim1 keeps
                 FILE and the others FILE with -sim2, -sim3, ... before its extension
  --tls-key F, --tls-cert F
                 serve HTTPS with this PEM key and certificate (every server of --servers)`;

/** The command line's options: the simulator's, and how many servers `--servers` asked for. */
export interface CliOptions extends SimulatorOptions {
  /** `--servers N`: start N named simulators; without it, one, printed as before `--servers` was. */
  servers?: number;
}

/** A bad command line, or a request for help: its message is what to print. */
class UsageError extends Error {
  readonly help: boolean;

  constructor(message: string, help = false) {
    super(message);
    this.name = "UsageError";
    this.help = help;
  }
}

/** Parses the command line into simulator options; throws with a usage message on bad input. */
export function parseArgs(argv: readonly string[]): CliOptions {
  const opts: CliOptions = { port: DEFAULT_PORT };
  let tlsKey: string | undefined;
  let tlsCert: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") throw new UsageError(USAGE, true);
    const value = argv[i + 1];
    if (value === undefined) throw new UsageError(`${flag} needs a value\n${USAGE}`);
    i++;
    switch (flag) {
      case "--port":
        opts.port = integerArg(flag, value);
        if (opts.port > 65535) throw new UsageError(`--port must be from 0 to 65535, got ${value}\n${USAGE}`);
        break;
      case "--host":
        opts.host = value;
        break;
      case "--profile":
        if (value !== "deployed" && value !== "spec") {
          throw new UsageError(`--profile needs deployed or spec, got ${value}\n${USAGE}`);
        }
        opts.profile = value;
        break;
      case "--state":
        opts.stateFile = value;
        break;
      case "--keys":
        opts.seed = { ...opts.seed, keys: integerArg(flag, value) };
        break;
      case "--servers":
        opts.servers = integerArg(flag, value);
        if (opts.servers < 1 || opts.servers > MAX_SERVERS) {
          throw new UsageError(`--servers must be from 1 to ${MAX_SERVERS}, got ${value}\n${USAGE}`);
        }
        break;
      case "--tls-key":
        tlsKey = value;
        break;
      case "--tls-cert":
        tlsCert = value;
        break;
      default:
        throw new UsageError(`unknown option ${flag}\n${USAGE}`);
    }
  }
  const last = (opts.port ?? DEFAULT_PORT) + (opts.servers ?? 1) - 1;
  if (opts.port !== 0 && last > 65535) {
    throw new UsageError(
      `--servers ${opts.servers} from --port ${opts.port} would go past port 65535\n${USAGE}`,
    );
  }
  if ((tlsKey === undefined) !== (tlsCert === undefined))
    throw new UsageError(`--tls-key and --tls-cert go together\n${USAGE}`);
  if (tlsKey !== undefined && tlsCert !== undefined) {
    opts.tls = { key: fs.readFileSync(tlsKey, "utf8"), cert: fs.readFileSync(tlsCert, "utf8") };
  }
  return opts;
}

function integerArg(flag: string, value: string): number {
  if (!/^\d+$/.test(value))
    throw new UsageError(`${flag} needs a non-negative integer, got ${value}\n${USAGE}`);
  return Number(value);
}

/**
 * Why the simulator could not listen, in words that name the port (the one that failed, of several)
 * and the option to change.
 */
function listenFailure(error: unknown, opts: CliOptions): string | undefined {
  const { code, port: failed } = error as NodeJS.ErrnoException & { port?: number };
  const first = opts.port ?? DEFAULT_PORT;
  const port = failed ?? first;
  const several = opts.servers !== undefined && first !== 0;
  const where = `port ${port}${several ? ` (${serverName(port - first + 1)}'s)` : ""} on ${opts.host ?? "127.0.0.1"}`;
  if (code === "EADDRINUSE") {
    const choose = several
      ? `choose another first port with --port N (--servers ${opts.servers} takes ${opts.servers} consecutive ports from it), ` +
        "or --port 0 for any free ports"
      : "choose another with --port N, or --port 0 for any free port";
    return `${where} is already in use (another simulator, perhaps); ${choose}`;
  }
  if (code === "EACCES") {
    return `${where} needs privileges this process does not have; choose a port from 1024 with --port N`;
  }
  if (code === "EADDRNOTAVAIL") return `${where}: no such address on this machine; check --host`;
  return undefined;
}

/** Starts what the options ask for: its text, and how to close it. */
async function start(opts: CliOptions): Promise<{ text: string; close: () => Promise<unknown> }> {
  const { servers, ...options } = opts;
  if (servers === undefined) {
    const sim = await startSimulator(options);
    return { text: startupText(sim, options), close: () => sim.close() };
  }
  const sims = await startSimulators(servers, options);
  return {
    text: serversStartupText(sims, options),
    close: () => Promise.all(sims.map((sim) => sim.close())),
  };
}

async function main(): Promise<void> {
  let opts: CliOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (error) {
    const help = error instanceof UsageError && error.help;
    (help ? process.stdout : process.stderr).write(`${(error as Error).message}\n`);
    process.exitCode = help ? 0 : 2;
    return;
  }
  let started: Awaited<ReturnType<typeof start>>;
  try {
    started = await start(opts);
  } catch (error) {
    const reason = listenFailure(error, opts) ?? (error as Error).message;
    process.stderr.write(`simulator failed to start: ${reason}\n`);
    process.exitCode = 1;
    return;
  }
  const stop = () => {
    started.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Before the lines are printed: whoever reads them may stop the simulator at once.
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stdout.write(started.text);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`simulator failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}

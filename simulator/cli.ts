#!/usr/bin/env node
/**
 * Runs the simulator until SIGINT or SIGTERM and prints, as lines to paste into a shell, the settings
 * that point the provider at it (stack config, or the environment), then the org, the project and a
 * key to adopt:
 *
 * `node dist/simulator/cli.js [--profile deployed|spec] [--port N] [--host H] [--state FILE] [--keys N] [--tls-key F --tls-cert F]`
 *
 * `--profile` picks the server it plays: `deployed` (default), the Ops Manager that users run, or
 * `spec`, the API reference as written.
 *
 * It listens on port {@link DEFAULT_PORT} unless told otherwise, so that settings saved in a stack
 * stay right from one start to the next. It prints the simulator's own seeded admin credentials on
 * purpose: it is a local test server, and they are what a user pastes.
 */
import * as fs from "node:fs";
import { startSimulator } from "./server";
import { STACK_SETTINGS } from "./stack-settings";
import type { Simulator, SimulatorOptions } from "./types";

/** The port the simulator listens on when `--port` is not given. */
export const DEFAULT_PORT = 8180;

const USAGE = `usage: node dist/simulator/cli.js [--profile deployed|spec] [--port N] [--host H] [--state FILE] [--keys N] [--tls-key F --tls-cert F]

  --profile P    the server it plays: deployed (default), the Ops Manager users run, or spec, the API
                 reference as written
  --port N       port to listen on (default ${DEFAULT_PORT}; 0 for any free port)
  --host H       address to listen on (default 127.0.0.1)
  --state FILE   keep the simulator's state in this JSON file across starts
  --keys N       how many API keys to generate in the organization besides the admin key (default 5)
  --tls-key F, --tls-cert F
                 serve HTTPS with this PEM key and certificate`;

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
export function parseArgs(argv: readonly string[]): SimulatorOptions {
  const opts: SimulatorOptions = { port: DEFAULT_PORT };
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

/** `value` as one shell word (POSIX): as it is when that is safe, else in single quotes. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * What the simulator prints once it listens: every line a shell command or a `#` comment, so that the
 * whole of it, or any line of it, can be pasted into a POSIX shell.
 */
export function startupText(sim: Simulator, opts: SimulatorOptions): string {
  const { baseUrl, publicKey, privateKey, caCertificate } = STACK_SETTINGS;
  const keys = sim.state.apiKeys(sim.orgId).filter((k) => k.publicKey !== sim.publicKey);
  const adopt = keys[0];
  const lines = [
    `# Ops Manager simulator listening on ${sim.url} (API root ${sim.apiRoot}, profile ${sim.profile})`,
    "#",
    "# Stack config, in your Pulumi project's directory:",
    `pulumi config set ${baseUrl.config} ${shellWord(sim.url)}`,
    `pulumi config set ${publicKey.config} ${shellWord(sim.publicKey)}`,
    `pulumi config set --secret ${privateKey.config} ${shellWord(sim.privateKey)}`,
    "#",
    "# Or the environment:",
    `export ${baseUrl.env}=${shellWord(sim.url)}`,
    `export ${publicKey.env}=${shellWord(sim.publicKey)}`,
    `export ${privateKey.env}=${shellWord(sim.privateKey)}`,
    ...(opts.tls
      ? [
          "#",
          `# Over HTTPS, also give the PEM file of the CA that signed --tls-cert: ${caCertificate.config}`,
          `# (pulumi config set ${caCertificate.config} FILE, or export ${caCertificate.env}=FILE).`,
        ]
      : []),
    "#",
    `# Organization (orgId): ${sim.orgId}`,
    `# Project (groupId):    ${sim.groupId}`,
    adopt
      ? `# A key to adopt:       apiKeyId ${adopt.id}, publicKey ${adopt.publicKey} (${JSON.stringify(adopt.desc)})`
      : "# No key to adopt besides the admin key: --keys N generates some.",
    `# Keys in the org:      ${keys.length + 1}, the admin key included`,
    ...keys.slice(1, 5).map((k) => `#   ${k.id}  ${k.publicKey}  ${k.desc}`),
    ...(opts.stateFile ? [`# State file: ${opts.stateFile}`] : []),
    "# Press Ctrl+C to stop.",
  ];
  return `${lines.join("\n")}\n`;
}

/** Why the simulator could not listen, in words that name the option to change. */
function listenFailure(error: unknown, opts: SimulatorOptions): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `port ${opts.port ?? DEFAULT_PORT} on ${opts.host ?? "127.0.0.1"}`;
  if (code === "EADDRINUSE") {
    return (
      `${where} is already in use (another simulator, perhaps); choose another with --port N, ` +
      "or --port 0 for any free port"
    );
  }
  if (code === "EACCES") {
    return `${where} needs privileges this process does not have; choose a port from 1024 with --port N`;
  }
  if (code === "EADDRNOTAVAIL") return `${where}: no such address on this machine; check --host`;
  return undefined;
}

async function main(): Promise<void> {
  let opts: SimulatorOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (error) {
    const help = error instanceof UsageError && error.help;
    (help ? process.stdout : process.stderr).write(`${(error as Error).message}\n`);
    process.exitCode = help ? 0 : 2;
    return;
  }
  let sim: Simulator;
  try {
    sim = await startSimulator(opts);
  } catch (error) {
    const reason = listenFailure(error, opts) ?? (error as Error).message;
    process.stderr.write(`simulator failed to start: ${reason}\n`);
    process.exitCode = 1;
    return;
  }
  const stop = () => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Before the lines are printed: whoever reads them may stop the simulator at once.
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stdout.write(startupText(sim, opts));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`simulator failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}

#!/usr/bin/env node
/**
 * Runs the simulator until SIGINT or SIGTERM and prints how to reach it:
 *
 * `node dist/simulator/cli.js [--profile deployed|spec] [--port N] [--host H] [--state FILE] [--keys N] [--tls-key F --tls-cert F]`
 *
 * `--profile` picks the server it plays: `deployed` (default), the Ops Manager that users run, or
 * `spec`, the API reference as written.
 *
 * It prints the simulator's own seeded admin credentials on purpose: it is a local test server.
 */
import * as fs from "node:fs";
import { startSimulator } from "./server";
import type { SimulatorOptions } from "./types";

const USAGE =
  "usage: node dist/simulator/cli.js [--profile deployed|spec] [--port N] [--host H] [--state FILE] [--keys N] [--tls-key F --tls-cert F]";

/** Parses the command line into simulator options; throws with a usage message on bad input. */
export function parseArgs(argv: readonly string[]): SimulatorOptions {
  const opts: SimulatorOptions = {};
  let tlsKey: string | undefined;
  let tlsCert: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") throw new Error(USAGE);
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    i++;
    switch (flag) {
      case "--port":
        opts.port = integerArg(flag, value);
        break;
      case "--host":
        opts.host = value;
        break;
      case "--profile":
        if (value !== "deployed" && value !== "spec") {
          throw new Error(`--profile needs deployed or spec, got ${value}\n${USAGE}`);
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
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  if ((tlsKey === undefined) !== (tlsCert === undefined))
    throw new Error(`--tls-key and --tls-cert go together\n${USAGE}`);
  if (tlsKey !== undefined && tlsCert !== undefined) {
    opts.tls = { key: fs.readFileSync(tlsKey, "utf8"), cert: fs.readFileSync(tlsCert, "utf8") };
  }
  return opts;
}

function integerArg(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`${flag} needs a non-negative integer, got ${value}\n${USAGE}`);
  return Number(value);
}

async function main(): Promise<void> {
  let opts: SimulatorOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const sim = await startSimulator(opts);
  const keys = sim.state.apiKeys(sim.orgId).filter((k) => k.publicKey !== sim.publicKey);
  const lines = [
    `Ops Manager simulator listening on ${sim.url} (profile ${sim.profile})`,
    `  API root:     ${sim.apiRoot}`,
    `  public key:   ${sim.publicKey}`,
    `  private key:  ${sim.privateKey}`,
    `  org id:       ${sim.orgId}`,
    `  group id:     ${sim.groupId}`,
    `  keys in org:  ${keys.length + 1}`,
    ...keys.slice(0, 5).map((k) => `    ${k.id}  ${k.publicKey}  ${k.desc}`),
    ...(opts.stateFile ? [`  state file:   ${opts.stateFile}`] : []),
    "Press Ctrl+C to stop.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  const stop = () => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`simulator failed to start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}

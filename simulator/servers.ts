/**
 * Several simulators at once, each its own Ops Manager: its own port, state, admin credentials,
 * organization, project, generated keys and state file, so that a program managing several servers
 * can be tried against them, and a key adopted on the wrong one is not found there.
 */
import * as path from "node:path";
import { startSimulator } from "./server";
import type { SeedOptions, Simulator, SimulatorOptions } from "./types";

/** The most simulators {@link startSimulators} starts at once. */
export const MAX_SERVERS = 16;

/** A simulator of several, with its name (`sim1`, `sim2`, …). */
export interface NamedSimulator extends Simulator {
  /** `sim1` for the first, `sim2` for the second, …: the name its stack settings go under. */
  name: string;
  /** The file it keeps its state in ({@link serverStateFile}), when `stateFile` was given. */
  stateFile: string | undefined;
}

/** The name of server `index` (from 1): `sim1`, `sim2`, … */
export function serverName(index: number): string {
  return `sim${index}`;
}

/**
 * What server `index` (from 1) is seeded with: the single simulator's ids with `index - 1` as their
 * second-to-last byte, the public key `simadmin` followed by its index, a private key ending in its
 * index, and `index` as its random seed. The first server's are the single simulator's defaults, so
 * that adding servers leaves it as it was.
 * @example
 * serverSeed(2);
 * // { orgId: "5f0000000000000000000101", groupId: "5f0000000000000000000102",
 * //   adminKeyId: "5f0000000000000000000103", publicKey: "simadmin2",
 * //   privateKey: "00000000-sim0-4000-8000-000000000002", randomSeed: 2 }
 */
export function serverSeed(index: number): SeedOptions {
  const id = (last: string) => `5f${"0".repeat(18)}${(index - 1).toString(16).padStart(2, "0")}${last}`;
  return {
    orgId: id("01"),
    groupId: id("02"),
    adminKeyId: id("03"),
    publicKey: index === 1 ? "simadmin" : `simadmin${index}`,
    privateKey: `00000000-sim0-4000-8000-${String(index).padStart(12, "0")}`,
    randomSeed: index,
  };
}

/**
 * The state file of server `index` (from 1) when the servers share `file`: `file` itself for the
 * first, so that adding servers leaves it as it was; for the others, `file` with `-sim2`, `-sim3`, …
 * before its extension.
 * @example
 * serverStateFile("state/sim.json", 2); // "state/sim-sim2.json"
 */
export function serverStateFile(file: string, index: number): string {
  if (index === 1) return file;
  const { dir, name, ext } = path.parse(file);
  return path.format({ dir, name: `${name}-${serverName(index)}`, ext });
}

function validateCount(count: number, port: number): void {
  if (!(Number.isInteger(count) && count >= 1 && count <= MAX_SERVERS)) {
    throw new RangeError(`count must be an integer from 1 to ${MAX_SERVERS}, got ${count}`);
  }
  if (port !== 0 && port + count - 1 > 65535) {
    throw new RangeError(`${count} servers from port ${port} would go past port 65535`);
  }
}

/**
 * Starts `count` simulators (1 to {@link MAX_SERVERS}), one after the other, named `sim1`, `sim2`, …
 * Each gets `options` with its own seed ({@link serverSeed}, under anything `options.seed` sets, such
 * as `keys`), its own state file ({@link serverStateFile}) and its own port: consecutive ports from
 * `options.port`, or each any free port when that is 0 or not given. When one fails to start, those
 * already started are closed and its error is thrown (a listen error carries its `port`).
 * @example
 * const [dc1, dc2] = await startSimulators(2);
 * // dc1.name === "sim1"; dc2.orgId !== dc1.orgId; dc1's credentials are refused by dc2
 * await Promise.all([dc1.close(), dc2.close()]);
 */
export async function startSimulators(
  count: number,
  options: SimulatorOptions = {},
): Promise<NamedSimulator[]> {
  const port = options.port ?? 0;
  validateCount(count, port);
  const started: NamedSimulator[] = [];
  try {
    for (let index = 1; index <= count; index++) {
      const stateFile =
        options.stateFile === undefined ? undefined : serverStateFile(options.stateFile, index);
      const sim = await startSimulator({
        ...options,
        port: port === 0 ? 0 : port + index - 1,
        seed: { ...serverSeed(index), ...options.seed },
        stateFile,
      });
      started.push(Object.assign(sim, { name: serverName(index), stateFile }));
    }
  } catch (error) {
    await Promise.allSettled(started.map((sim) => sim.close()));
    throw error;
  }
  return started;
}

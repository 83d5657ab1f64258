/**
 * What a simulator holds, as a user would compare it before and after a deployment, and the settings
 * a stack needs to reach it, set with the commands the README prints.
 */
import type { TestContext } from "vitest";
import { startSimulator, startSimulators } from "../../../simulator";
import type { Simulator, SimulatorOptions } from "../../../simulator/types";
import type { CliBin } from "./cli";
import { type EngineStack, makeStack, type ProjectOptions } from "./stack";

/** Jobs stay IN_PROGRESS for a whole test: a refresh that finds nothing changed does not depend on speed. */
export const STEADY_JOBS: SimulatorOptions = { jobDurationMs: 3_600_000 };

export interface World {
  stack: EngineStack;
  /** The simulators: one for the default server, or `sim1`, `sim2` for named servers. */
  sims: Simulator[];
  /** The first simulator. */
  sim: Simulator;
}

/**
 * A test's own simulators and stack, configured as the README says (the default server, or named
 * servers `sim1` and `sim2`), removed when the test ends. The hook is the test context's own, so that
 * tests that run concurrently each remove only their own.
 */
export async function openWorld(
  onTestFinished: TestContext["onTestFinished"],
  bin: CliBin,
  options: {
    servers?: 1 | 2;
    simulator?: SimulatorOptions;
    /** The project; a function to build it once the simulators are up (ids they seed, say). */
    project: ProjectOptions | ((sims: Simulator[]) => ProjectOptions);
  },
): Promise<World> {
  const simulator = options.simulator ?? STEADY_JOBS;
  const sims =
    options.servers === 2 ? await startSimulators(2, simulator) : [await startSimulator(simulator)];
  onTestFinished(async () => {
    await Promise.all(sims.map((s) => s.close()));
  });
  const project = typeof options.project === "function" ? options.project(sims) : options.project;
  const stack = await makeStack(bin, project);
  onTestFinished(() => stack.cleanup());
  if (sims.length === 1) await configureDefaultServer(stack, sims[0]!);
  else for (const [i, sim] of sims.entries()) await configureNamedServer(stack, `sim${i + 1}`, sim);
  return { stack, sims, sim: sims[0]! };
}

/** Every key (desc, sorted roles, access list) and job id of a simulator, comparable with `toEqual`. */
export function snapshot(sim: Simulator): unknown {
  return {
    keys: sim.state
      .apiKeys()
      .map((key) => ({
        id: key.id,
        publicKey: key.publicKey,
        desc: key.desc,
        roles: key.roles.map((r) => `${r.orgId ?? r.groupId}:${r.roleName}`).sort(),
        accessList: sim.state
          .accessList(key.id)
          .map((e) => e.cidrBlock)
          .sort(),
      }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    jobs: sim.state
      .jobs()
      .map((job) => job.id)
      .sort(),
  };
}

/** The default server's settings, as the README's Configure section sets them. */
export async function configureDefaultServer(stack: EngineStack, sim: Simulator): Promise<void> {
  await stack.config("opsmanager:baseUrl", sim.url);
  await stack.config("opsmanager:publicKey", sim.publicKey);
  await stack.config("opsmanager:privateKey", sim.privateKey, { secret: true });
}

/** A named server's settings, with `pulumi config set --path` as the README shows. */
export async function configureNamedServer(stack: EngineStack, name: string, sim: Simulator): Promise<void> {
  const key = (setting: string) => `opsmanager:servers.${name}.${setting}`;
  await stack.config(key("baseUrl"), sim.url, { path: true });
  await stack.config(key("publicKey"), sim.publicKey, { path: true });
  await stack.config(key("privateKey"), sim.privateKey, { path: true, secret: true });
}

/** Requests that changed something on the server (anything but a GET). */
export function writes(sim: Simulator): string[] {
  return sim.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path} ${r.status}`);
}

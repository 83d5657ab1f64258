import { configure, resetRuntimeForTests } from "../../provider/resources/shared/runtime";
import { startSimulator } from "../../simulator";
import type { Simulator, SimulatorOptions } from "../../simulator/types";

/** Start a simulator and configure the provider's runtime with its settings, as the host would. */
export async function simulatorWithProvider(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(options);
  configureFor(sim);
  return sim;
}

/** Configure the in-process provider runtime with a simulator's URL and credentials. */
export function configureFor(sim: Simulator, extra: Record<string, string> = {}): void {
  resetRuntimeForTests();
  const config: Record<string, string> = {
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": sim.privateKey,
    ...extra,
  };
  void configure({ config: { get: (key: string) => config[key] } });
}

/** Requests the simulator saw below the API root, as `METHOD path` lines. */
export function wire(sim: Simulator): string[] {
  return sim.requests
    .filter((r) => r.status !== 401)
    .map((r) => `${r.method} ${r.path.replace("/api/public/v1.0", "")}`);
}

/**
 * What a simulator holds, as a user would compare it before and after a deployment, and the settings
 * a stack needs to reach it, set with the commands the README prints.
 */
import type { Simulator } from "../../../simulator/types";
import type { EngineStack } from "./stack";

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

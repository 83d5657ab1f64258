/**
 * Rotation under the real engine: a changed keeper, and `pulumi up --replace`, make the new key before
 * the old one is deleted, and the key's project assignment and access list follow the new key in the
 * same `pulumi up`.
 */
import { expect, it } from "vitest";
import type { Simulator } from "../../simulator/types";
import { describeEngine } from "./support/cli";
import { finishedSteps, readEvents } from "./support/stack";
import { openWorld, type World } from "./support/world";

const DESC = "CI pipeline (created by Pulumi)";
const KEY_URN_END = "pulumi-nodejs:dynamic/opsmanager:OrgApiKey::ci";

describeEngine("test/engine/rotation: a created key rotated under the real pulumi", (bin) => {
  /** The one key the program made, with its project roles and access list as the server has them. */
  function theKey(sim: Simulator) {
    const keys = sim.state.apiKeys().filter((k) => k.desc === DESC);
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    return {
      id: key.id,
      privateKey: key.privateKey,
      projectRoles: key.roles
        .filter((r) => r.groupId === sim.groupId)
        .map((r) => r.roleName)
        .sort(),
      accessList: sim.state
        .accessList(key.id)
        .map((e) => e.cidrBlock)
        .sort(),
    };
  }

  async function rotate({ stack, sim }: World, args: string[]): Promise<string[]> {
    const before = theKey(sim);
    const log = stack.tempFile(`events-${Date.now()}.json`);
    await stack.pulumi(["up", "--yes", "--event-log", log, ...args]);
    const after = theKey(sim);
    expect(after.id).not.toBe(before.id);
    expect(sim.state.apiKey(before.id)).toBeUndefined();
    expect(after.projectRoles).toEqual(["GROUP_AUTOMATION_ADMIN", "GROUP_READ_ONLY"]);
    expect(after.accessList).toEqual(["198.51.100.7/32", "203.0.113.0/24"]);
    // The stack hands out the new key, and the state's assignment names it.
    const shown = await stack.pulumi(["stack", "output", "privateKey", "--show-secrets"]);
    expect(shown.stdout.trim()).toBe(after.privateKey);
    const state = await stack.exportState();
    const assignment = state.deployment.resources?.find((r) => r.type.endsWith(":ApiKeyProjectAssignment"));
    expect(assignment?.outputs?.apiKeyId).toBe(after.id);
    await stack.pulumi(["preview", "--expect-no-changes"]);
    return finishedSteps(readEvents(log));
  }

  it("a new keeper, then up --replace: the new key first, the old deleted last, the assignment and access list on the new key", async ({
    onTestFinished,
  }) => {
    const world = await openWorld(onTestFinished, bin, { project: { example: "ci-key" } });
    const { stack, sim } = world;
    await stack.pulumi(["up", "--yes", "--skip-preview"]);
    const first = theKey(sim);
    expect(first.accessList).toEqual(["198.51.100.7/32", "203.0.113.0/24"]);

    await stack.config("ci-key:rotated", "2026-12");
    const preview = await stack.pulumi(["preview"]);
    expect(preview.stdout).toMatch(
      /\+- +pulumi-nodejs:dynamic\/opsmanager:OrgApiKey ci replace \[diff: ~keepers\]/,
    );
    const keeperSteps = await rotate(world, []);
    expect(keeperSteps).toEqual([
      "create-replacement ci",
      "replace ci",
      "create-replacement ci-in-project",
      "replace ci-in-project",
      "delete-replaced ci-in-project",
      "delete-replaced ci",
    ]);

    const urn = (await stack.exportState()).deployment.resources?.find((r) =>
      r.urn.endsWith(KEY_URN_END),
    )?.urn;
    expect(urn).toBeDefined();
    const replaceSteps = await rotate(world, ["--replace", urn!]);
    expect(replaceSteps).toEqual(keeperSteps);

    await stack.pulumi(["destroy", "--yes"]);
    expect(sim.state.apiKeys().filter((k) => k.desc === DESC)).toEqual([]);
  });
});

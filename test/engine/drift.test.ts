/**
 * Drift under the real engine: a key's desc changed on the server by hand, `pulumi refresh`, then what
 * `pulumi preview --diff` prints, and `pulumi up` putting the declared value back.
 */
import { expect, it } from "vitest";
import { describeEngine } from "./support/cli";
import { openWorld } from "./support/world";

const DECLARED = "CI pipeline (managed by Pulumi)";

describeEngine("test/engine/drift: a change made outside Pulumi, under the real pulumi", (bin) => {
  it("refresh records a desc changed by hand, preview --diff shows it going back, up puts it back", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: { example: "quickstart" } });
    await stack.pulumi(["up", "--yes", "--skip-preview"]);
    const key = sim.state.apiKeys().find((k) => k.desc === DECLARED);
    expect(key).toBeDefined();

    sim.state.updateApiKey(key!.id, { desc: "changed by hand" });
    // Before a refresh the engine compares the program with the state: nothing to do.
    await stack.pulumi(["preview", "--expect-no-changes"]);

    const refresh = await stack.pulumi(["refresh", "--yes"]);
    expect(refresh.stdout).toMatch(/~ +pulumi-nodejs:dynamic\/opsmanager:OrgApiKey ci-key update/);
    const outputs = JSON.parse((await stack.pulumi(["stack", "output", "--json"])).stdout);
    expect(outputs.apiKeyId).toBe(key!.id);

    const preview = await stack.pulumi(["preview", "--diff"]);
    // What a user reads: the resource to update and its desc from the server's value to the declared one.
    expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/opsmanager:OrgApiKey: \(update\)/);
    expect(preview.stdout).toMatch(/~ desc +: "changed by hand" => "CI pipeline \(managed by Pulumi\)"\n/);
    expect(preview.stdout).toMatch(/~ 1 to update/);
    // Nothing else about the key moves: its roles are as declared on the server.
    expect(preview.stdout).not.toMatch(/~ roles/);

    sim.resetRequests();
    await stack.pulumi(["up", "--yes"]);
    expect(sim.state.apiKey(key!.id)?.desc).toBe(DECLARED);
    expect(sim.requests.filter((r) => r.method === "PATCH" && r.status === 200).map((r) => r.body)).toEqual([
      { desc: DECLARED, roles: ["ORG_MEMBER", "ORG_READ_ONLY"] },
    ]);
    await stack.pulumi(["preview", "--expect-no-changes"]);
    await stack.pulumi(["destroy", "--yes"]);
  });
});

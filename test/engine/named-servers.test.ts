/**
 * Several servers under the real engine: two simulators named in `opsmanager:servers` with
 * `pulumi config set --path` (the private keys with `--secret`), and a server renamed the way the
 * README describes: the new name beside the old, the program moved to it, `pulumi up`, the old removed.
 */
import { expect, it } from "vitest";
import type { Simulator } from "../../simulator/types";
import { describeEngine } from "./support/cli";
import { configureNamedServer, openWorld, snapshot, writes } from "./support/world";

describeEngine("test/engine/named-servers: two Ops Managers in one stack, under the real pulumi", (bin) => {
  it("the private keys are stored encrypted; a rename is an update with no request; refresh and destroy on the new name", async ({
    onTestFinished,
  }) => {
    // Configured as sim1 and sim2 with `pulumi config set --path`, the private keys with --secret.
    const { stack, sims } = await openWorld(onTestFinished, bin, {
      servers: 2,
      project: { example: "two-servers" },
    });
    const [dc1, dc2] = sims as [Simulator, Simulator];
    const before = sims.map(snapshot);

    // The stack's settings file holds each private key as ciphertext only.
    const settings = await import("node:fs").then((fs) =>
      fs.readFileSync(`${stack!.dir}/Pulumi.${stack!.stack}.yaml`, "utf8"),
    );
    expect(settings).toContain("secure:");
    expect(settings).not.toContain(dc1.privateKey);
    expect(settings).not.toContain(dc2.privateKey);

    await stack.pulumi(["up", "--yes", "--skip-preview"]);
    const keys = (await stack.exportState()).deployment.resources?.filter((r) =>
      r.type.endsWith(":OrgApiKey"),
    );
    const idOn = (server: string) => keys?.find((r) => r.outputs?.server === server)?.id;
    // Each server was sent only its own resource's PATCH.
    expect(writes(dc1)).toEqual([`PATCH /api/public/v1.0/orgs/${dc1.orgId}/apiKeys/${idOn("sim1")} 200`]);
    expect(writes(dc2)).toEqual([`PATCH /api/public/v1.0/orgs/${dc2.orgId}/apiKeys/${idOn("sim2")} 200`]);
    expect(dc1.state.apiKey(idOn("sim1")!)?.roles.map((r) => r.roleName)).toEqual(["ORG_READ_ONLY"]);

    // Rename sim1 to dc1: the new name beside the old (the same URL), the program moved to it.
    await configureNamedServer(stack, "dc1", dc1);
    await stack.config("two-servers:firstServer", "dc1");
    const preview = await stack.pulumi(["preview", "--diff"]);
    expect(preview.stdout).toMatch(/~ +pulumi-nodejs:dynamic\/opsmanager:OrgApiKey: \(update\)/);
    expect(preview.stdout).not.toMatch(/replace/);
    for (const sim of sims) sim.resetRequests();
    await stack.pulumi(["up", "--yes"]);
    expect(writes(dc1)).toEqual([]);
    expect(writes(dc2)).toEqual([]);
    const state = await stack.exportState();
    expect(
      state.deployment.resources
        ?.filter((r) => r.type.endsWith(":OrgApiKey"))
        .map((r) => r.outputs?.server)
        .sort(),
    ).toEqual(["dc1", "sim2"]);

    // The old name removed: the stack refreshes, previews no change and destroys on the new one.
    await stack.pulumi(["config", "rm", "--path", "opsmanager:servers.sim1"]);
    await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);
    await stack.pulumi(["preview", "--expect-no-changes"]);
    await stack.pulumi(["destroy", "--yes"]);
    expect(sims.map(snapshot)).toEqual(before);
  });
});

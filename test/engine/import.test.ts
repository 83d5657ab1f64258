/**
 * `pulumi import` of these types, under the real engine: what it does today (dynamic resources cannot
 * be imported: the engine sends no provider, pulumi/pulumi#16175), and the adopt path the README
 * offers instead, run.
 */
import { expect, it } from "vitest";
import { describeEngine } from "./support/cli";
import { openWorld, snapshot, writes } from "./support/world";

const PROJECT = `name: adopt
runtime:
  name: nodejs
  options:
    typescript: true
`;

describeEngine("test/engine/import: pulumi import, and adoption instead", (bin) => {
  it("import fails in preview with the SDK's host error and changes nothing; declaring the key adopts it with no request", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, {
      simulator: {},
      project: { files: { "Pulumi.yaml": PROJECT, "index.ts": "export {};\n" } },
    });
    const key = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
    const before = snapshot(sim);

    const imported = await stack.pulumi(
      ["import", "pulumi-nodejs:dynamic/opsmanager:OrgApiKey", "ci", key.id, "--yes"],
      { allowFailure: true },
    );
    expect(imported.code).not.toBe(0);
    // The engine's read of an import carries no serialized provider, which the SDK's host cannot load.
    expect(imported.stdout).toContain("error: Preview failed: code must be a string, not undefined");
    expect((await stack.exportState()).deployment.resources ?? []).toEqual([]);
    expect(sim.requests).toEqual([]);

    // Instead: declare the key by its id with the desc and roles it has. `pulumi up` adopts it,
    // sending nothing that changes it.
    const roles = key.roles.map((r) => r.roleName).sort();
    await stack.pulumi(["config", "set", "keyId", key.id]);
    await import("node:fs").then((fs) =>
      fs.writeFileSync(
        `${stack!.dir}/index.ts`,
        `import * as pulumi from "@pulumi/pulumi";
import { OrgApiKey } from "pulumi-opsmanager";
const config = new pulumi.Config();
const key = new OrgApiKey("ci", {
  orgId: "${sim!.orgId}",
  apiKeyId: config.require("keyId"),
  desc: ${JSON.stringify(key.desc)},
  roles: ${JSON.stringify(roles)},
});
export const publicKey = key.publicKey;
`,
      ),
    );
    const up = await stack.pulumi(["up", "--yes"]);
    expect(up.stdout).toMatch(/\+ +pulumi-nodejs:dynamic\/opsmanager:OrgApiKey ci created/);
    expect(writes(sim)).toEqual([]);
    expect(snapshot(sim)).toEqual(before);
    expect(JSON.parse((await stack.pulumi(["stack", "output", "--json"])).stdout).publicKey).toBe(
      key.publicKey,
    );
    await stack.pulumi(["preview", "--expect-no-changes"]);
    // Destroy releases it: the key stays on the server as it was.
    await stack.pulumi(["destroy", "--yes"]);
    expect(snapshot(sim)).toEqual(before);
  });
});

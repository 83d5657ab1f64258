/**
 * The provider plugin under the real engine: the README's first program and examples/ci-key through
 * `pulumi-resource-opsmanager` (found by `plugins.providers` in `Pulumi.yaml`), from preview to
 * destroy, with what crossed the wire, what state and output hold of the private key, the field diff
 * a user reads, and bad input stopped at preview before any request.
 */
import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { expect, it } from "vitest";
import { describeEngine } from "./support/cli";
import { CI_KEY_PROGRAM, FIRST_PROGRAM, pluginProject } from "./support/plugin-project";
import { openWorld, snapshot, writes } from "./support/world";

describeEngine("test/engine/plugin: the provider plugin under the real engine", (bin) => {
  it("examples/ci-key: preview sends nothing; up, no-change preview, refresh, destroy; the private key a secret", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: pluginProject(CI_KEY_PROGRAM) });
    await stack.pulumi(["config", "set", "orgId", sim.orgId]);
    await stack.pulumi(["config", "set", "groupId", sim.groupId]);
    await stack.pulumi(["config", "set", "rotated", "2026-01"]);
    const before = snapshot(sim);

    await stack.pulumi(["preview"]);
    expect(sim.requests).toEqual([]);

    const up = await stack.pulumi(["up", "--yes"]);
    expect(up.stdout).toMatch(/\+ +opsmanager:index:OrgApiKey +ci +created/);
    expect(up.stdout).toMatch(/\+ +opsmanager:index:ApiKeyProjectAssignment +ci-in-project +created/);
    const created = sim.state.apiKeys().find((k) => k.desc === "CI pipeline (created by Pulumi)")!;
    expect(created.roles.map((r) => r.roleName).sort()).toEqual([
      "GROUP_AUTOMATION_ADMIN",
      "GROUP_READ_ONLY",
      "ORG_MEMBER",
    ]);
    expect(
      sim.state
        .accessList(created.id)
        .map((e) => e.cidrBlock)
        .sort(),
    ).toEqual(["198.51.100.7/32", "203.0.113.0/24"]);

    sim.resetRequests();
    await stack.pulumi(["preview", "--expect-no-changes"]);
    expect(writes(sim)).toEqual([]);
    await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);
    await stack.pulumi(["preview", "--expect-no-changes"]);
    expect(writes(sim)).toEqual([]);

    // The private key: [secret] in output, the key itself on request, only ciphertext in state.
    expect((await stack.pulumi(["stack", "output", "privateKey"])).stdout.trim()).toBe("[secret]");
    const shown = await stack.pulumi(["stack", "output", "privateKey", "--show-secrets"]);
    expect(shown.stdout.trim()).toBe(created.privateKey);
    const exported = await stack.exportState();
    expect(JSON.stringify(exported)).not.toContain(created.privateKey);
    expect(JSON.stringify(exported)).not.toContain(sim.privateKey);
    const key = exported.deployment.resources?.find((r) => r.type === "opsmanager:index:OrgApiKey");
    expect(key?.outputs?.privateKey).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });
    expect(key?.outputs).not.toHaveProperty("__provider");

    // A new keeper replaces the key, and the preview says which field forces it.
    await stack.pulumi(["config", "set", "rotated", "2026-02"]);
    const rotation = await stack.pulumi(["preview", "--diff"]);
    expect(rotation.stdout).toMatch(/\+-opsmanager:index:OrgApiKey: \(replace\)/);
    expect(rotation.stdout).toMatch(/~ keepers: \{\n\s+~ rotated: "2026-01" => "2026-02"/);
    expect(rotation.stdout).not.toMatch(/[~+-] (desc|orgId|roles|accessList):/);
    expect(writes(sim)).toEqual([]);

    await stack.pulumi(["destroy", "--yes"]);
    expect(snapshot(sim)).toEqual(before);
  });

  it("the README's first program: a roles change previews as roles alone, a resourceName change as the replacement it forces", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: pluginProject(FIRST_PROGRAM) });
    const key = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
    await stack.pulumi(["config", "set", "orgId", sim.orgId]);
    await stack.pulumi(["config", "set", "groupId", sim.groupId]);
    await stack.pulumi(["config", "set", "publicKey", key.publicKey]);
    const before = snapshot(sim);
    await stack.pulumi(["preview"]);
    expect(sim.requests).toEqual([]);
    await stack.pulumi(["up", "--yes"]);
    await stack.pulumi(["preview", "--expect-no-changes"]);
    await stack.pulumi(["refresh", "--yes"]);
    await stack.pulumi(["preview", "--expect-no-changes"]);

    await stack.pulumi(["config", "set", "--path", "roles[0]", "ORG_MEMBER"]);
    await stack.pulumi(["config", "set", "--path", "roles[1]", "ORG_READ_ONLY"]);
    await stack.pulumi(["config", "set", "--path", "roles[2]", "ORG_GROUP_CREATOR"]);
    sim.resetRequests();
    const roles = await stack.pulumi(["preview", "--diff"]);
    expect(writes(sim)).toEqual([]);
    expect(roles.stdout).toMatch(/~ opsmanager:index:OrgApiKey: \(update\)/);
    expect(roles.stdout).toMatch(/~ roles: \[/);
    expect(roles.stdout).toMatch(/\+ \[2\]: "ORG_READ_ONLY"/);
    expect(roles.stdout).not.toMatch(/[~+-] (desc|orgId|publicKey|restoreOnDelete):/);

    await stack.pulumi(["config", "rm", "roles"]);
    await stack.pulumi(["config", "set", "resourceName", "rs1"]);
    const replaced = await stack.pulumi(["preview", "--diff"]);
    expect(replaced.stdout).toMatch(/\+-opsmanager:index:LogCollectionJob: \(replace\)/);
    expect(replaced.stdout).toMatch(/~ resourceName: "rs0" => "rs1"/);
    expect(replaced.stdout).not.toMatch(
      /[~+-] (groupId|logTypes|redacted|resourceType|sizeRequestedPerFileBytes):/,
    );

    await stack.pulumi(["config", "rm", "resourceName"]);
    await stack.pulumi(["destroy", "--yes"]);
    expect(snapshot(sim)).toEqual(before);
  });

  it("a created key named by its own apiKeyId is adopted in place: preview --diff shows + apiKeyId and nothing that is not an input; up updates it in place, and destroy then releases it", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: pluginProject(CI_KEY_PROGRAM) });
    await stack.pulumi(["config", "set", "orgId", sim.orgId]);
    await stack.pulumi(["config", "set", "groupId", sim.groupId]);
    await stack.pulumi(["config", "set", "rotated", "2026-01"]);
    await stack.pulumi(["up", "--yes"]);
    const created = sim.state.apiKeys().find((k) => k.desc === "CI pipeline (created by Pulumi)")!;

    // The program names the key it created, and drops keepers (they replace a created key only).
    await writeFile(
      path.join(stack.dir, "index.ts"),
      CI_KEY_PROGRAM.replace(
        '  keepers: { rotated: config.require("rotated") },\n',
        `  apiKeyId: "${created.id}",\n`,
      ),
    );
    sim.resetRequests();
    const preview = await stack.pulumi(["preview", "--diff"]);
    expect(writes(sim)).toEqual([]);
    expect(preview.stdout).toMatch(/~ opsmanager:index:OrgApiKey: \(update\)/);
    expect(preview.stdout).toContain(`+ apiKeyId: "${created.id}"`);
    expect(preview.stdout).toMatch(/- keepers *: \{\n *- rotated: "2026-01"/);
    expect(preview.stdout).not.toContain("managed");
    expect(preview.stdout).not.toMatch(/\d+ to (create|delete|replace)/);

    const up = await stack.pulumi(["up", "--yes"]);
    expect(up.stdout).toMatch(/~ 1 updated/);
    expect(up.stdout).not.toMatch(/\d+ (created|deleted|replaced)/);
    expect(sim.state.apiKey(created.id)).toBeDefined();
    await stack.pulumi(["preview", "--expect-no-changes"]);
    await stack.pulumi(["destroy", "--yes"]);
    // Adopted now: destroy releases the key instead of deleting it.
    expect(sim.state.apiKey(created.id)).toBeDefined();
  });

  it("bad input fails preview with the dynamic face's message, naming the property, before any request", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, {
      project: pluginProject(FIRST_PROGRAM),
    });
    await stack.pulumi(["config", "set", "orgId", sim.orgId]);
    await stack.pulumi(["config", "set", "groupId", sim.groupId]);
    await stack.pulumi(["config", "set", "publicKey", "zzhpslzl"]);
    await stack.pulumi(["config", "set", "--path", "roles[0]", "ORG_KING"]);
    const problem = (text: string) => /error: (.*) has a problem: (.*)/.exec(text)?.slice(1);

    const plugin = await stack.pulumi(["preview"], { allowFailure: true });
    expect(plugin.code).not.toBe(0);
    expect(problem(plugin.stdout)).toEqual([
      "opsmanager:index:OrgApiKey resource 'ci-key': property roles value {[{ORG_KING}]}",
      'roles[0] must be an organization role: one of ORG_OWNER, ORG_MEMBER, ORG_GROUP_CREATOR, ORG_READ_ONLY (got "ORG_KING")',
    ]);
    expect(sim.requests).toEqual([]);

    // The same program on the dynamic types: the same rule, in the same words.
    await writeFile(
      path.join(stack.dir, "index.ts"),
      FIRST_PROGRAM.replace('from "./opsmanager"', 'from "pulumi-opsmanager"').replace(
        "roles: config.getObject<string[]>",
        "roles: config.getObject<never[]>",
      ),
    );
    const dynamic = await stack.pulumi(["preview"], { allowFailure: true });
    expect(dynamic.code).not.toBe(0);
    expect(problem(dynamic.stdout)?.[1]).toBe(problem(plugin.stdout)?.[1]);
    expect(sim.requests).toEqual([]);
  });
});

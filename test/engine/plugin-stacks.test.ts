/**
 * What the provider plugin adds under the real engine: `pulumi import` of each resource type, several
 * servers as several explicit provider instances, and a stack that the dynamic types deployed moved
 * onto the plugin's Node.js SDK, whose types carry the dynamic types as aliases, with nothing changed
 * on the server.
 */
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { expect, it, onTestFinished } from "vitest";
import { itNeeding } from "../support/prerequisite";
import { describeEngine } from "./support/cli";
import { installNodeSdk, nodeSdkMissing } from "./support/node-sdk";
import { pluginProject, pluginProjectYaml } from "./support/plugin-project";
import { REPO } from "./support/stack";
import { openWorld, snapshot, writes } from "./support/world";

describeEngine(
  "test/engine/plugin-stacks: import, explicit providers, and a stack moved from the dynamic types",
  (bin) => {
    it("pulumi import of each type: inputs read from the server, the program declaring them previews no change; an imported key is released by destroy", async ({
      onTestFinished,
    }) => {
      const { stack, sim } = await openWorld(onTestFinished, bin, { project: pluginProject("export {};\n") });
      const key = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
      const job = sim.state.addJob({
        groupId: sim.groupId,
        resourceType: "REPLICASET",
        resourceName: "rs0",
        sizeRequestedPerFileBytes: 10_000_000,
        logTypes: ["MONGODB", "AUTOMATION_AGENT"],
        redacted: true,
      });
      await stack.pulumi(["up", "--yes"]);
      // The key assigned to the project by hand, before Pulumi knew it.
      sim.state.updateApiKey(key.id, {
        roles: [...key.roles, { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" }],
      });
      const before = snapshot(sim);

      const malformed = await stack.pulumi(["import", "opsmanager:index:OrgApiKey", "ci", key.id, "--yes"], {
        allowFailure: true,
      });
      expect(malformed.code).not.toBe(0);
      expect(malformed.stdout).toContain(
        `OrgApiKey: the import id "${key.id}" is not of the form <orgId>/<apiKeyId>`,
      );

      sim.resetRequests();
      for (const [type, name, id] of [
        ["OrgApiKey", "ci", `${sim.orgId}/${key.id}`],
        ["ApiKeyProjectAssignment", "ci-in-project", `${sim.groupId}/${key.id}`],
        ["LogCollectionJob", "rs0-logs", `${sim.groupId}/${job.id}`],
      ] as const) {
        const imported = await stack.pulumi([
          "import",
          `opsmanager:index:${type}`,
          name,
          id,
          "--yes",
          "--generate-code=false",
        ]);
        expect(imported.stdout).toMatch(new RegExp(`= +opsmanager:index:${type} +${name} +imported`));
      }
      expect(writes(sim)).toEqual([]);
      const state = await stack.exportState();
      const inputsOf = (type: string) =>
        state.deployment.resources?.find((r) => r.type === `opsmanager:index:${type}`)?.inputs;
      const orgRoles = key.roles
        .filter((r) => r.orgId !== undefined)
        .map((r) => r.roleName)
        .sort();
      expect(inputsOf("OrgApiKey")).toEqual({
        orgId: sim.orgId,
        apiKeyId: key.id,
        desc: key.desc,
        roles: orgRoles,
      });
      expect(inputsOf("ApiKeyProjectAssignment")).toEqual({
        groupId: sim.groupId,
        apiKeyId: key.id,
        roles: ["GROUP_READ_ONLY"],
      });
      expect(inputsOf("LogCollectionJob")).toEqual({
        groupId: sim.groupId,
        resourceType: "REPLICASET",
        resourceName: "rs0",
        sizeRequestedPerFileBytes: 10_000_000,
        logTypes: ["MONGODB", "AUTOMATION_AGENT"],
        redacted: true,
      });

      // The code import writes: each resource with the inputs read, protected.
      await writeFile(
        path.join(stack.dir, "index.ts"),
        `import { ApiKeyProjectAssignment, LogCollectionJob, OrgApiKey } from "./opsmanager";
new OrgApiKey("ci", { orgId: "${sim.orgId}", apiKeyId: "${key.id}", desc: ${JSON.stringify(key.desc)}, roles: ${JSON.stringify(orgRoles)} }, { protect: true });
new ApiKeyProjectAssignment("ci-in-project", { groupId: "${sim.groupId}", apiKeyId: "${key.id}", roles: ["GROUP_READ_ONLY"] }, { protect: true });
new LogCollectionJob("rs0-logs", { groupId: "${sim.groupId}", resourceType: "REPLICASET", resourceName: "rs0", sizeRequestedPerFileBytes: 10000000, logTypes: ["MONGODB", "AUTOMATION_AGENT"], redacted: true }, { protect: true });
`,
      );
      await stack.pulumi(["preview", "--expect-no-changes"]);
      await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);
      expect(writes(sim)).toEqual([]);
      expect(snapshot(sim)).toEqual(before);

      // Destroy: the key is released (it stays, as it was); the assignment and the job are deleted.
      await stack.pulumi(["state", "unprotect", "--all", "--yes"]);
      await stack.pulumi(["destroy", "--yes"]);
      // Digest's challenges (401) aside, two DELETEs and nothing for the key.
      expect(
        writes(sim)
          .filter((w) => !w.endsWith(" 401"))
          .sort(),
      ).toEqual([
        expect.stringMatching(
          new RegExp(`^DELETE /api/public/v1.0/groups/${sim.groupId}/apiKeys/${key.id} 2\\d\\d$`),
        ),
        expect.stringMatching(
          new RegExp(`^DELETE /api/public/v1.0/groups/${sim.groupId}/logCollectionJobs/${job.id} 2\\d\\d$`),
        ),
      ]);
      const after = sim.state.apiKey(key.id)!;
      expect({ desc: after.desc, roles: after.roles.filter((r) => r.orgId !== undefined) }).toEqual({
        desc: key.desc,
        roles: key.roles.filter((r) => r.orgId !== undefined),
      });
    });

    it("two explicit providers against two simulators: each server gets only its own requests", async ({
      onTestFinished,
    }) => {
      const program = `import * as pulumi from "@pulumi/pulumi";
import { OrgApiKey, Provider } from "./opsmanager";
const config = new pulumi.Config();
for (const name of ["a", "b"]) {
  const provider = new Provider(name, {
    baseUrl: config.require(name + "Url"),
    publicKey: config.require(name + "User"),
    privateKey: config.requireSecret(name + "Key"),
  });
  new OrgApiKey("key-" + name, { orgId: config.require(name + "Org"), desc: "made on " + name, roles: ["ORG_MEMBER"] }, { provider });
}
`;
      const { stack, sims } = await openWorld(onTestFinished, bin, {
        servers: 2,
        project: pluginProject(program),
      });
      for (const [name, sim] of [
        ["a", sims[0]!],
        ["b", sims[1]!],
      ] as const) {
        await stack.pulumi(["config", "set", `${name}Url`, sim.url]);
        await stack.pulumi(["config", "set", `${name}User`, sim.publicKey]);
        await stack.config(`${name}Key`, sim.privateKey, { secret: true });
        await stack.pulumi(["config", "set", `${name}Org`, sim.orgId]);
      }
      const before = sims.map(snapshot);
      await stack.pulumi(["up", "--yes"]);
      for (const [name, sim] of [
        ["a", sims[0]!],
        ["b", sims[1]!],
      ] as const) {
        expect(
          sim.state
            .apiKeys()
            .filter((k) => k.desc.startsWith("made on "))
            .map((k) => k.desc),
        ).toEqual([`made on ${name}`]);
        expect(new Set(sim.requests.filter((r) => r.authenticated).map((r) => r.digest?.username))).toEqual(
          new Set([sim.publicKey]),
        );
        expect(sim.requests.every((r) => r.path.startsWith(`/api/public/v1.0/orgs/${sim.orgId}/`))).toBe(
          true,
        );
      }
      await stack.pulumi(["preview", "--expect-no-changes"]);
      await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);
      const exported = JSON.stringify(await stack.exportState());
      for (const sim of sims) expect(exported).not.toContain(sim.privateKey);
      await stack.pulumi(["destroy", "--yes"]);
      expect(sims.map(snapshot)).toEqual(before);
    });

    itNeeding(
      "a stack the dynamic types deployed (examples/ci-key) moves to the plugin's Node.js SDK with no alias in the program: nothing created, deleted or replaced, nothing sent, the private key kept",
      nodeSdkMissing(),
      async () => {
        const { stack, sim } = await openWorld(onTestFinished, bin, { project: { example: "ci-key" } });
        const before = snapshot(sim);
        await stack.pulumi(["up", "--yes"]);
        const created = sim.state.apiKeys().find((k) => k.desc === "CI pipeline (created by Pulumi)")!;
        const idsBefore = (await stack.exportState()).deployment.resources
          ?.filter((r) => r.custom && r.id !== undefined && r.type.includes("opsmanager:"))
          .map((r) => r.id)
          .sort();

        // The same project, now naming the plugin, and the same program importing the SDK: no alias.
        await writeFile(
          path.join(stack.dir, "Pulumi.yaml"),
          `${pluginProjectYaml("ci-key")}config:\n  orgId:\n    default: "${sim.orgId}"\n  groupId:\n    default: "${sim.groupId}"\n  rotated:\n    default: "2026-11"\n`,
        );
        const program = await readFile(path.join(REPO, "examples", "ci-key", "index.ts"), "utf8");
        await writeFile(
          path.join(stack.dir, "index.ts"),
          program.replace('from "pulumi-opsmanager"', 'from "@pulumi-opsmanager/sdk"'),
        );
        expect(await readFile(path.join(stack.dir, "index.ts"), "utf8")).not.toMatch(/alias/);
        await installNodeSdk(stack.dir);
        sim.resetRequests();
        const preview = await stack.pulumi(["preview", "--diff"]);
        // The stack, the key and the assignment; no step at all.
        expect(preview.stdout).toMatch(/Resources:\n +3 unchanged\n/);
        expect(preview.stdout).not.toMatch(/\d+ to (create|delete|replace|update)/);
        const up = await stack.pulumi(["up", "--yes"]);
        expect(up.stdout).not.toMatch(/\d+ (created|deleted|replaced)/);
        expect(writes(sim)).toEqual([]);

        const state = await stack.exportState();
        const moved = state.deployment.resources?.filter((r) => r.type.startsWith("opsmanager:index:")) ?? [];
        expect(moved.map((r) => r.type).sort()).toEqual([
          "opsmanager:index:ApiKeyProjectAssignment",
          "opsmanager:index:OrgApiKey",
        ]);
        expect(moved.map((r) => r.id).sort()).toEqual(idsBefore);
        expect(state.deployment.resources?.some((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))).toBe(
          false,
        );
        const shown = await stack.pulumi(["stack", "output", "privateKey", "--show-secrets"]);
        expect(shown.stdout.trim()).toBe(created.privateKey);
        expect(JSON.stringify(state)).not.toContain(created.privateKey);

        await stack.pulumi(["preview", "--expect-no-changes"]);
        await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);
        await stack.pulumi(["destroy", "--yes"]);
        expect(snapshot(sim)).toEqual(before);
      },
    );
  },
);

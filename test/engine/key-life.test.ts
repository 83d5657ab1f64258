/**
 * A key's life where the review of issue 26 found keys lost or wrongly restored, under the real engine:
 * two created keys alike with one create failing, and replacements of resources that restore on delete.
 */

import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { expect, it } from "vitest";
import type { SimApiKey, Simulator } from "../../simulator/types";
import { describeEngine } from "./support/cli";
import { openWorld } from "./support/world";

const PROJECT = `name: key-life
runtime:
  name: nodejs
  options:
    typescript: true
`;

describeEngine(
  "test/engine/key-life: keys made alike, and replacements that restore, under the real pulumi",
  (bin) => {
    it("two keys created alike, one POST refused: the key made for the other resource stays, the next up makes the second", async ({
      onTestFinished,
    }) => {
      const { stack, sim } = await openWorld(onTestFinished, bin, {
        simulator: {},
        project: ([server]) => ({
          files: {
            "Pulumi.yaml": PROJECT,
            "index.ts": `import { OrgApiKey } from "pulumi-opsmanager";
for (const team of ["blue", "green"]) {
  new OrgApiKey(team, { orgId: "${server!.orgId}", desc: "CI", roles: ["ORG_MEMBER"] });
}
`,
          },
        }),
      });
      const path = `/orgs/${sim.orgId}/apiKeys`;
      // The first create's POST goes through; the second is refused without making anything.
      sim.faults.add(
        { method: "POST", pathPrefix: path, delayMs: 0 },
        { method: "POST", pathPrefix: path, status: 500 },
      );

      const failed = await stack.pulumi(["up", "--yes"], { allowFailure: true });
      expect(failed.code).not.toBe(0);
      const made = sim.state.apiKeys().filter((k) => k.desc === "CI");
      expect(made).toHaveLength(1);
      const recorded = (await stack.exportState()).deployment.resources?.filter((r) =>
        r.type.endsWith(":OrgApiKey"),
      );
      expect(recorded?.map((r) => r.id)).toEqual([made[0]!.id]);
      expect(sim.requests.filter((r) => r.method === "DELETE")).toEqual([]);

      await stack.pulumi(["up", "--yes"]);
      const both = sim.state.apiKeys().filter((k) => k.desc === "CI");
      expect(both).toHaveLength(2);
      expect(both.map((k) => k.id)).toContain(made[0]!.id);
      await stack.pulumi(["destroy", "--yes"]);
      expect(sim.state.apiKeys().filter((k) => k.desc === "CI")).toEqual([]);
    });

    it("an assignment and an adopted key that restore on delete, replaced with up --replace: declared after, the originals back after destroy", async ({
      onTestFinished,
    }) => {
      // The key as it was before the program: an org role and a project role of its own.
      const arrange = (server: Simulator) =>
        server.state.addApiKey({
          desc: "original desc",
          roles: [
            { orgId: server.orgId, roleName: "ORG_READ_ONLY" },
            { groupId: server.groupId, roleName: "GROUP_READ_ONLY" },
          ],
        });
      let key!: ReturnType<typeof arrange>;
      const { stack, sim } = await openWorld(onTestFinished, bin, {
        simulator: {},
        project: ([server]) => {
          key = arrange(server!);
          return {
            files: {
              "Pulumi.yaml": PROJECT,
              "index.ts": `import { ApiKeyProjectAssignment, OrgApiKey } from "pulumi-opsmanager";
new OrgApiKey("adopted", {
  orgId: "${server!.orgId}",
  apiKeyId: "${key.id}",
  desc: "declared desc",
  roles: ["ORG_MEMBER"],
  restoreOnDelete: true,
});
new ApiKeyProjectAssignment("assigned", {
  apiKeyId: "${key.id}",
  groupId: "${server!.groupId}",
  roles: ["GROUP_OWNER"],
  restoreOnDelete: true,
});
`,
            },
          };
        },
      });
      const onServer = () => {
        const k = sim!.state.apiKey(key.id)!;
        return {
          desc: k.desc,
          roles: k.roles.map((r) => `${r.groupId ? "group" : "org"}:${r.roleName}`).sort(),
        };
      };
      const original = onServer();
      const declared = { desc: "declared desc", roles: ["group:GROUP_OWNER", "org:ORG_MEMBER"] };

      await stack.pulumi(["up", "--yes", "--skip-preview"]);
      expect(onServer()).toEqual(declared);

      const urns = (await stack.exportState()).deployment.resources
        ?.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/opsmanager:"))
        .map((r) => r.urn);
      expect(urns).toHaveLength(2);
      await stack.pulumi(["up", "--yes", "--skip-preview", ...urns!.flatMap((urn) => ["--replace", urn])]);
      // The replacements keep what the program declares, and the stack agrees with the server.
      expect(onServer()).toEqual(declared);
      await stack.pulumi(["preview", "--expect-no-changes"]);
      await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);

      await stack.pulumi(["destroy", "--yes"]);
      expect(onServer()).toEqual(original);
    });

    it("an adopted key and an assignment that restore on delete, renamed without an alias: up warns, naming the values a destroy will no longer put back and the alias that keeps them", async ({
      onTestFinished,
    }) => {
      let key!: SimApiKey;
      const programNamed = (
        server: Simulator,
        suffix: string,
      ) => `import { ApiKeyProjectAssignment, OrgApiKey } from "pulumi-opsmanager";
new OrgApiKey("adopted${suffix}", {
  orgId: "${server.orgId}",
  apiKeyId: "${key.id}",
  desc: "declared desc",
  roles: ["ORG_MEMBER"],
  restoreOnDelete: true,
});
new ApiKeyProjectAssignment("assigned${suffix}", {
  apiKeyId: "${key.id}",
  groupId: "${server.groupId}",
  roles: ["GROUP_OWNER"],
  restoreOnDelete: true,
});
`;
      const { stack, sim } = await openWorld(onTestFinished, bin, {
        simulator: {},
        project: ([server]) => {
          key = server!.state.addApiKey({
            desc: "original desc",
            roles: [
              { orgId: server!.orgId, roleName: "ORG_READ_ONLY" },
              { groupId: server!.groupId, roleName: "GROUP_READ_ONLY" },
            ],
          });
          return { files: { "Pulumi.yaml": PROJECT, "index.ts": programNamed(server!, "") } };
        },
      });
      await stack.pulumi(["up", "--yes", "--skip-preview"]);
      // The rename, with no alias: a new resource of each, and the old ones deleted at the end.
      await fsp.writeFile(path.join(stack.dir, "index.ts"), programNamed(sim, "-renamed"));
      const renamed = await stack.pulumi(["up", "--yes", "--skip-preview"]);
      const shown = (renamed.stdout + renamed.stderr).replace(/\s+/g, " ");
      expect(shown).toContain(
        `OrgApiKey (API key id ${key.id} in organization ${sim.orgId}): a resource created in this run manages the same key (a rename without an alias), so this resource's delete leaves the key as that resource declares. The key had desc "original desc" and roles ORG_READ_ONLY before Pulumi managed it; that record was not carried to the new resource, which recorded the values it found, so \`pulumi destroy\` will no longer put them back. Giving the new resource an alias naming this one (\`aliases: [{ name: "<the old name>" }]\`) before renaming keeps the record`,
      );
      expect(shown).toContain("The assignment had roles GROUP_READ_ONLY before Pulumi managed it");
      // What it warns of: the key stays as declared, and destroy puts back what the new resources found.
      const onServer = sim.state.apiKey(key.id)!;
      expect(onServer.desc).toBe("declared desc");
      await stack.pulumi(["destroy", "--yes"]);
      expect(sim.state.apiKey(key.id)!.desc).toBe("declared desc");
    });
  },
);

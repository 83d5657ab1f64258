/**
 * The core's warnings in the CLI's output under the real engine, in both faces: a resource that
 * restores on delete renamed without an alias, and a server with only the spec's operations (the
 * untracked-jobs warning), each printed once. Through the plugin each is attached to its resource's
 * URN; through Pulumi's dynamic-provider host, whose stderr the engine shows with no URN, to the stack.
 */
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { SimApiKey, Simulator } from "../../simulator/types";
import { describeEngine } from "./support/cli";
import { theWarning } from "./support/diagnostics";
import { pluginProject } from "./support/plugin-project";
import type { ProjectOptions } from "./support/stack";
import { openWorld } from "./support/world";

const DYNAMIC_PROJECT = `name: warnings
runtime:
  name: nodejs
  options:
    typescript: true
`;

interface Face {
  name: string;
  /** Where the program imports the types from. */
  from: string;
  project(program: string): ProjectOptions;
  /**
   * The Diagnostics row a warning about resource `name` of `type` is under: the resource's own
   * through the plugin; the stack's through the dynamic-provider host, whose stderr has no URN.
   */
  rowOf(type: string, name: string): string;
}

const FACES: Face[] = [
  {
    name: "dynamic",
    from: "pulumi-opsmanager",
    project: (program) => ({ files: { "Pulumi.yaml": DYNAMIC_PROJECT, "index.ts": program } }),
    rowOf: () => "pulumi:pulumi:Stack (warnings-dev)",
  },
  {
    name: "plugin",
    from: "./opsmanager",
    project: (program) => pluginProject(program),
    rowOf: (type, name) => `opsmanager:index:${type} (${name})`,
  },
];

describeEngine("test/engine/warnings: the core's warnings in the CLI's output, in both faces", (bin) => {
  for (const face of FACES) {
    describe(`through the ${face.name} face`, () => {
      it("a key and an assignment that restore on delete, renamed without an alias: up prints each warning once, under the old resource", async ({
        onTestFinished,
      }) => {
        let key!: SimApiKey;
        const program = (
          server: Simulator,
          suffix: string,
        ) => `import { ApiKeyProjectAssignment, OrgApiKey } from "${face.from}";
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
            return face.project(program(server!, ""));
          },
        });
        await stack.pulumi(["up", "--yes", "--skip-preview"]);
        await fsp.writeFile(path.join(stack.dir, "index.ts"), program(sim, "-renamed"));
        const renamed = await stack.pulumi(["up", "--yes", "--skip-preview"]);
        const keyWarning = theWarning(
          renamed,
          new RegExp(
            `OrgApiKey \\(API key id ${key.id} in organization ${sim.orgId}\\): a resource created in this run manages the same key \\(a rename without an alias\\)`,
          ),
        );
        expect(keyWarning.row).toBe(face.rowOf("OrgApiKey", "adopted"));
        const assignmentWarning = theWarning(
          renamed,
          /a resource created in this run manages the same assignment .* The assignment had roles GROUP_READ_ONLY before Pulumi managed it/,
        );
        expect(assignmentWarning.row).toBe(face.rowOf("ApiKeyProjectAssignment", "assigned"));
      });

      it("two jobs on a server with only the spec's operations: refresh and destroy each print the untracked-jobs warning once", async ({
        onTestFinished,
      }) => {
        const program = (server: Simulator) => `import { LogCollectionJob } from "${face.from}";
for (const name of ["logs-a", "logs-b"]) {
  new LogCollectionJob(name, {
    groupId: "${server.groupId}",
    resourceType: "REPLICASET",
    resourceName: name,
    sizeRequestedPerFileBytes: 10_000_000,
    logTypes: ["MONGODB"],
    redacted: true,
  });
}
`;
        const { stack } = await openWorld(onTestFinished, bin, {
          simulator: { profile: "spec", jobDurationMs: 3_600_000 },
          project: ([server]) => face.project(program(server!)),
        });
        await stack.pulumi(["up", "--yes", "--skip-preview"]);
        const refresh = await stack.pulumi(["refresh", "--yes", "--skip-preview"]);
        const noListing = theWarning(
          refresh,
          /LogCollectionJob: the server at http:\/\/127\.0\.0\.1:\d+ has no listing of log collection jobs/,
        );
        // Whichever job the engine refreshed first.
        expect([
          face.rowOf("LogCollectionJob", "logs-a"),
          face.rowOf("LogCollectionJob", "logs-b"),
        ]).toContain(noListing.row);
        const destroy = await stack.pulumi(["destroy", "--yes", "--skip-preview"]);
        const noDelete = theWarning(
          destroy,
          /LogCollectionJob: the server at http:\/\/127\.0\.0\.1:\d+ has no delete of log collection jobs/,
        );
        expect([
          face.rowOf("LogCollectionJob", "logs-a"),
          face.rowOf("LogCollectionJob", "logs-b"),
        ]).toContain(noDelete.row);
      });
    });
  }
});

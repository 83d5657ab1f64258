/**
 * The code `pulumi import` writes for each of the plugin's types, run: a YAML program (the Node.js
 * language host built here has no GenerateProgram; YAML's writes the code) made of exactly what import
 * wrote previews with no change and sends the server nothing. Needs the YAML language host (its bin
 * folder in OPSMANAGER_LANGUAGE_HOSTS) and the plugin's schema (provider/plugin/schema.json), which
 * import reads to write code; without either it is skipped, saying which.
 */
import { existsSync, readFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import * as path from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../support/program-dir";
import { describeEngine } from "./support/cli";
import { pluginProjectYaml } from "./support/plugin-project";
import { openWorld, snapshot, writes } from "./support/world";

const hosts = process.env.OPSMANAGER_LANGUAGE_HOSTS;
const missing = [
  hosts !== undefined && existsSync(path.join(hosts, "pulumi-language-yaml"))
    ? undefined
    : "the YAML language host (its bin folder in OPSMANAGER_LANGUAGE_HOSTS)",
  existsSync(path.join(repoRoot(), "provider", "plugin", "schema.json"))
    ? undefined
    : "the plugin's schema, provider/plugin/schema.json",
].filter((m) => m !== undefined);
if (missing.length > 0)
  console.warn(`test/engine/plugin-import-code: skipped, missing ${missing.join(" and ")}`);

describeEngine("test/engine/plugin-import-code: the code pulumi import writes previews no change", (bin) => {
  it.skipIf(missing.length > 0)(
    "a key, its project assignment and a job, imported into a YAML program",
    async ({ onTestFinished }) => {
      const yaml = pluginProjectYaml("imported").replace(
        "runtime:\n  name: nodejs\n  options:\n    typescript: true\n",
        "runtime: yaml\n",
      );
      const { stack, sim } = await openWorld(onTestFinished, bin, {
        project: { files: { "Pulumi.yaml": yaml } },
      });
      const env = { PATH: `${hosts}${path.delimiter}${bin}${path.delimiter}${process.env.PATH ?? ""}` };
      const key = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
      sim.state.updateApiKey(key.id, {
        roles: [...key.roles, { groupId: sim.groupId, roleName: "GROUP_READ_ONLY" }],
      });
      const job = sim.state.addJob({
        groupId: sim.groupId,
        resourceType: "REPLICASET",
        resourceName: "rs0",
        sizeRequestedPerFileBytes: 10_000_000,
        logTypes: ["MONGODB", "AUTOMATION_AGENT"],
        redacted: true,
      });
      const before = snapshot(sim);
      let code = "resources:\n";
      for (const [type, name, id] of [
        ["OrgApiKey", "ci", `${sim.orgId}/${key.id}`],
        ["ApiKeyProjectAssignment", "ci-in-project", `${sim.groupId}/${key.id}`],
        ["LogCollectionJob", "rs0-logs", `${sim.groupId}/${job.id}`],
      ] as const) {
        const out = stack.tempFile(`${name}.yaml`);
        await stack.pulumi(["import", `opsmanager:index:${type}`, name, id, "--yes", "--out", out], { env });
        const written = readFileSync(out, "utf8");
        expect(written).toContain(`type: opsmanager:${type}`);
        code += written.replace(/^resources:\n/, "");
      }
      expect(code).toContain(`apiKeyId: ${key.id}`);
      expect(code).toContain("resourceName: rs0");
      await appendFile(path.join(stack.dir, "Pulumi.yaml"), code);
      sim.resetRequests();
      await stack.pulumi(["preview", "--expect-no-changes"], { env });
      expect(writes(sim)).toEqual([]);
      expect(snapshot(sim)).toEqual(before);
    },
  );
});

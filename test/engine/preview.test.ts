/**
 * Previews that are what `up` does, in both faces: for each change the README's examples allow, the
 * steps of `pulumi preview --json` are the steps of the `up` that follows, an unchanged dependent
 * previews as `same`, and a replacement the engine makes whatever the provider's diff says (`replaceOnChanges`,
 * `--replace`) still previews its dependents as replaced: a hidden replacement is worse than a false one. Through the plugin, a stack output the
 * update does not change is not shown as changing.
 */
import { expect, it, type TestContext } from "vitest";
import { type CliBin, describeEngine } from "./support/cli";
import { OPSMANAGER_TS, pluginProjectYaml } from "./support/plugin-project";
import { type EngineStack, type ProjectOptions, readEvents } from "./support/stack";
import { openWorld, writes } from "./support/world";

/** examples/ci-key's resources and a job, every value that the changes below touch read from config. */
const program = (from: string) => `import * as pulumi from "@pulumi/pulumi";
import { ApiKeyProjectAssignment, LogCollectionJob, OrgApiKey } from "${from}";

const config = new pulumi.Config();
// biome-ignore lint: the test's values are checked by the provider, not by the compiler
const list = (name: string) => config.requireObject<any[]>(name);
const groupId = config.require("groupId");
const key = new OrgApiKey(
  "ci",
  {
    orgId: config.require("orgId"),
    desc: config.require("desc"),
    roles: list("roles"),
    accessList: list("accessList"),
    keepers: { rotated: config.require("rotated") },
  },
  config.getBoolean("replaceOnDesc") ? { replaceOnChanges: ["desc"] } : {},
);
const inProject = new ApiKeyProjectAssignment("ci-in-project", {
  apiKeyId: key.apiKeyId,
  groupId,
  roles: list("projectRoles"),
});
new LogCollectionJob("logs", {
  groupId,
  resourceType: "REPLICASET",
  resourceName: config.require("resourceName"),
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["MONGODB"],
  redacted: true,
});
export const apiKeyId = key.apiKeyId;
export const publicKey = key.publicKey;
export const privateKey = key.privateKey;
export const projectRoles = inProject.roles;
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, target: "es2020", module: "commonjs", moduleResolution: "node" },
  files: ["index.ts"],
});

const FACES: Record<string, ProjectOptions> = {
  dynamic: {
    files: {
      "Pulumi.yaml": "name: preview-truth\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
      "tsconfig.json": TSCONFIG,
      "index.ts": program("pulumi-opsmanager"),
    },
  },
  plugin: {
    files: {
      "Pulumi.yaml": pluginProjectYaml("preview-truth"),
      "tsconfig.json": TSCONFIG.replace('["index.ts"]', '["index.ts", "opsmanager.ts"]'),
      "opsmanager.ts": OPSMANAGER_TS,
      "index.ts": program("./opsmanager"),
    },
  },
};

/**
 * `op name` of each change to one of this package's resources (not its provider), sorted: `preview
 * --json` lists a replacement as one `replace` step and leaves out what stays the same, where `up`'s
 * events have each of a replacement's steps and every `same`.
 */
function ours(steps: { op: string; urn: string }[]): string[] {
  const ops = steps
    .filter((s) => /::(pulumi-nodejs:dynamic\/opsmanager|opsmanager:index):/.test(s.urn))
    .filter((s) => s.op !== "same")
    .map((s) => `${/replace/.test(s.op) ? "replace" : s.op} ${s.urn.split("::").pop()}`);
  return [...new Set(ops)].sort();
}

/** The steps of `pulumi preview --json`, as {@link ours} writes them. */
async function preview(stack: EngineStack, args: string[] = []): Promise<string[]> {
  const run = await stack.pulumi(["preview", "--json", ...args]);
  return ours((JSON.parse(run.stdout) as { steps: { op: string; urn: string }[] }).steps);
}

/** The stack outputs a text preview shows as changing (its `Outputs:` section), by name. */
async function changingOutputs(stack: EngineStack): Promise<string[]> {
  const text = (await stack.pulumi(["preview"])).stdout;
  const section = text.split(/^Outputs:$/m)[1]?.split(/^Resources:$/m)[0] ?? "";
  return [...section.matchAll(/^\s+[~+-] (\w+):/gm)].map((m) => m[1]!);
}

/** `pulumi up`, and the steps it finished, as {@link ours} writes them. */
async function up(stack: EngineStack, args: string[] = []): Promise<{ steps: string[]; stdout: string }> {
  const log = stack.tempFile(`events-${Date.now()}-${Math.random().toString(16).slice(2)}.jsonl`);
  // The preview being compared was just run: the up runs no second one.
  const run = await stack.pulumi(["up", "--yes", "--skip-preview", "--event-log", log, ...args]);
  const steps = readEvents(log).flatMap((e) => (e.resOutputsEvent ? [e.resOutputsEvent.metadata] : []));
  return { steps: ours(steps), stdout: run.stdout };
}

/** The program deployed on a world of its own, its config set in one command; `set` changes one value. */
async function deployed(
  onTestFinished: TestContext["onTestFinished"],
  bin: CliBin,
  project: ProjectOptions,
  more: Record<string, string> = {},
) {
  const { stack, sim } = await openWorld(onTestFinished, bin, { project });
  const values: Record<string, string> = {
    orgId: sim.orgId,
    groupId: sim.groupId,
    desc: "CI pipeline (created by Pulumi)",
    roles: '["ORG_MEMBER"]',
    accessList: '["203.0.113.0/24"]',
    rotated: "2026-01",
    projectRoles: '["GROUP_READ_ONLY"]',
    resourceName: "rs0",
    ...more,
  };
  await stack.pulumi([
    "config",
    "set-all",
    ...Object.entries(values).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
  ]);
  await up(stack);
  const set = (key: string, value: string) => stack.pulumi(["config", "set", key, value]);
  return { stack, sim, set };
}

for (const [face, project] of Object.entries(FACES)) {
  describeEngine(`test/engine/preview (${face}): a preview's steps are the up's`, (bin) => {
    it("each change the examples allow: desc, roles, an access-list entry, an assignment's roles, a job input, a keeper", async ({
      onTestFinished,
    }) => {
      const { stack, sim, set } = await deployed(onTestFinished, bin, project);

      const changes: { change: () => Promise<unknown>; steps: string[] }[] = [
        {
          change: () => set("desc", "changed desc"),
          steps: ["update ci"],
        },
        {
          change: () => set("roles", '["ORG_READ_ONLY", "ORG_MEMBER"]'),
          steps: ["update ci"],
        },
        {
          change: () => set("accessList", '["203.0.113.0/24", "198.51.100.7"]'),
          steps: ["update ci"],
        },
        {
          change: () => set("projectRoles", '["GROUP_READ_ONLY", "GROUP_AUTOMATION_ADMIN"]'),
          steps: ["update ci-in-project"],
        },
        {
          change: () => set("resourceName", "rs1"),
          steps: ["replace logs"],
        },
        {
          change: () => set("rotated", "2026-02"),
          steps: ["replace ci", "replace ci-in-project"],
        },
      ];
      for (const [i, { change, steps }] of changes.entries()) {
        await change();
        sim.resetRequests();
        expect(await preview(stack), `change ${i}: preview`).toEqual(steps);
        // A key updated in place keeps its id and keys; the plugin's preview says so. (The dynamic
        // face's host cannot: the README's "What a preview shows".)
        if (face === "plugin" && i === 0) expect(await changingOutputs(stack)).toEqual([]);
        expect(writes(sim), `change ${i}: the preview sends nothing`).toEqual([]);
        expect((await up(stack)).steps, `change ${i}: up`).toEqual(steps);
      }
      await stack.pulumi(["preview", "--expect-no-changes"]);
      await stack.pulumi(["destroy", "--yes"]);
    });

    it("a key the engine replaces whatever its diff says previews its dependent as replaced: replaceOnChanges, --replace", async ({
      onTestFinished,
    }) => {
      const { stack, set } = await deployed(onTestFinished, bin, project, { replaceOnDesc: "true" });
      const expected = ["replace ci", "replace ci-in-project"];

      // replaceOnChanges: the provider's diff says update, the engine replaces. The engine applies it
      // to the fields a provider's diff names, and the dynamic host names none: there the key is
      // updated in place (the README's "What a preview shows"), and the preview says so too.
      await set("desc", "changed desc");
      const withOption = face === "plugin" ? expected : ["update ci"];
      expect(await preview(stack)).toEqual(withOption);
      expect((await up(stack)).steps).toEqual(withOption);

      // --replace: the engine does not ask the provider at all.
      await set("replaceOnDesc", "false");
      await up(stack);
      const urn = JSON.parse((await stack.pulumi(["stack", "export"])).stdout).deployment.resources.find(
        (r: { urn: string }) => r.urn.endsWith("::ci"),
      ).urn as string;
      expect(await preview(stack, ["--replace", urn])).toEqual(expected);
      expect((await up(stack, ["--replace", urn])).steps).toEqual(expected);
      await stack.pulumi(["destroy", "--yes"]);
    });
  });
}

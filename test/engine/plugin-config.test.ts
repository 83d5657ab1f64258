/**
 * The plugin's provider settings under the real engine: a provider moved to another server replaces
 * every resource of it (made on the new server, deleted or released on the old one through the old
 * provider's settings), a change of anything else updates the provider in place, a bad setting fails
 * the preview once, on the provider, in the words the user wrote it, and a private key given as plain
 * text is a secret in the provider's state.
 */
import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { expect, it } from "vitest";
import { serverSeed } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { describeEngine } from "./support/cli";
import { FIRST_PROGRAM, pluginProject } from "./support/plugin-project";
import type { EngineStack } from "./support/stack";
import { configureDefaultServer, openWorld, STEADY_JOBS, snapshot, writes } from "./support/world";

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** One explicit provider, its settings from stack config, and every resource type through it. */
const MOVABLE_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { ApiKeyProjectAssignment, LogCollectionJob, OrgApiKey, Provider } from "./opsmanager";

const config = new pulumi.Config();
const provider = new Provider("om", {
  baseUrl: config.require("url"),
  publicKey: config.require("user"),
  // Plain text, as a program may give it: the provider's state keeps it secret all the same.
  privateKey: config.require("key"),
  timeoutSeconds: config.getNumber("timeout"),
});
const orgId = config.require("orgId");
const groupId = config.require("groupId");
new OrgApiKey("adopted", {
  orgId,
  publicKey: "adoptedk",
  desc: "managed by Pulumi",
  roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
  restoreOnDelete: true,
}, { provider });
const created = new OrgApiKey("created", { orgId, desc: "made by Pulumi", roles: ["ORG_MEMBER"] }, { provider });
new ApiKeyProjectAssignment("created-in-project", {
  apiKeyId: created.apiKeyId,
  groupId,
  roles: ["GROUP_READ_ONLY"],
}, { provider });
new LogCollectionJob("logs", {
  groupId,
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["MONGODB"],
  redacted: true,
}, { provider });
`;

const RESOURCES = ["adopted", "created", "created-in-project", "logs"];

/** `op name` of each step of `pulumi preview --json` on a resource of this package or its provider. */
async function previewSteps(stack: EngineStack): Promise<string[]> {
  const preview = await stack.pulumi(["preview", "--json"]);
  const { steps } = JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] };
  return steps
    .filter((s) => s.urn.includes("::opsmanager:") || s.urn.includes("::pulumi:providers:opsmanager::"))
    .map((s) => `${s.op} ${s.urn.split("::").pop()}`)
    .sort();
}

async function pointAt(stack: EngineStack, sim: Simulator): Promise<void> {
  await stack.pulumi(["config", "set", "url", sim.url]);
  await stack.pulumi(["config", "set", "user", sim.publicKey]);
  await stack.pulumi(["config", "set", "key", sim.privateKey]);
}

/** The user names the authenticated requests of `sim` were signed with. */
const signers = (sim: Simulator) =>
  new Set(sim.requests.filter((r) => r.authenticated).map((r) => r.digest?.username));

describeEngine("test/engine/plugin-config: the plugin's provider settings under the real engine", (bin) => {
  it("an explicit provider moved to another server replaces its resources: made there, deleted or released on the old one with its old settings", async ({
    onTestFinished,
  }) => {
    // A standby restored from the first server's backup: the same organization and project ids.
    const { orgId, groupId } = serverSeed(1);
    const { stack, sims } = await openWorld(onTestFinished, bin, {
      servers: 2,
      simulator: { ...STEADY_JOBS, seed: { orgId, groupId } },
      project: pluginProject(MOVABLE_PROGRAM),
    });
    const [from, to] = [sims[0]!, sims[1]!];
    for (const sim of sims) {
      sim.state.addApiKey({
        id: "5f00000000000000000000aa",
        publicKey: "adoptedk",
        desc: "before Pulumi",
        roles: [{ orgId, roleName: "ORG_MEMBER" }],
      });
    }
    await stack.pulumi(["config", "set", "orgId", orgId!]);
    await stack.pulumi(["config", "set", "groupId", groupId!]);
    await pointAt(stack, from);
    const before = sims.map(snapshot);
    await stack.pulumi(["up", "--yes"]);
    expect(from.state.apiKeys().find((k) => k.desc === "made by Pulumi")).toBeDefined();
    expect(from.state.apiKey("5f00000000000000000000aa")!.desc).toBe("managed by Pulumi");
    expect(from.state.jobs()).toHaveLength(1);
    expect(snapshot(to)).toEqual(before[1]);

    // The private key given as plain text: ciphertext in the provider's inputs and outputs.
    const exported = await stack.exportState();
    expect(JSON.stringify(exported)).not.toContain(from.privateKey);
    const stateOf = exported.deployment.resources ?? [];
    const om = stateOf.find((r) => r.type === "pulumi:providers:opsmanager");
    for (const map of [om?.inputs, om?.outputs]) {
      expect(map?.privateKey).toMatchObject({
        [SECRET_SIG]: expect.any(String),
        ciphertext: expect.any(String),
      });
    }

    // Another server: every resource of the provider is a replacement, and the preview sends nothing.
    await pointAt(stack, to);
    for (const sim of sims) sim.resetRequests();
    const steps = await previewSteps(stack);
    expect(steps).toEqual([...RESOURCES.map((name) => `replace ${name}`), "replace om"].sort());
    expect(sims.map((s) => s.requests)).toEqual([[], []]);

    await stack.pulumi(["up", "--yes"]);
    // Made on the new server with its own settings.
    const made = to.state.apiKeys().find((k) => k.desc === "made by Pulumi")!;
    expect(made.roles.map((r) => r.roleName).sort()).toEqual(["GROUP_READ_ONLY", "ORG_MEMBER"]);
    expect(to.state.apiKey("5f00000000000000000000aa")!.desc).toBe("managed by Pulumi");
    expect(to.state.jobs()).toHaveLength(1);
    expect(signers(to)).toEqual(new Set([to.publicKey]));
    // Gone from the old one, through the old provider's settings; the adopted key put back.
    expect(snapshot(from)).toEqual(before[0]);
    expect(signers(from)).toEqual(new Set([from.publicKey]));
    const root = "/api/public/v1.0";
    const old = (name: string) => stateOf.find((r) => r.urn.endsWith(`::${name}`))?.id;
    expect(
      writes(from)
        .filter((w) => !w.endsWith(" 401"))
        .sort(),
    ).toEqual([
      `DELETE ${root}/groups/${groupId}/apiKeys/${old("created")} 200`,
      `DELETE ${root}/groups/${groupId}/logCollectionJobs/${old("logs")} 200`,
      `DELETE ${root}/orgs/${orgId}/apiKeys/${old("created")} 200`,
      `PATCH ${root}/orgs/${orgId}/apiKeys/5f00000000000000000000aa 200`,
    ]);

    // The timeout is a setting of the same server: the provider changes in place, its resources stay.
    await stack.pulumi(["config", "set", "timeout", "45"]);
    expect(await previewSteps(stack)).toEqual(["update om"]);
    await stack.pulumi(["up", "--yes"]);
    await stack.pulumi(["preview", "--expect-no-changes"]);

    await stack.pulumi(["destroy", "--yes"]);
    expect(sims.map(snapshot)).toEqual(before);
  });

  it("the default provider moved by opsmanager:baseUrl replaces its resources the same way", async ({
    onTestFinished,
  }) => {
    const { orgId, groupId } = serverSeed(1);
    const program = `import { LogCollectionJob } from "./opsmanager";
new LogCollectionJob("logs", { groupId: "${groupId}", resourceType: "REPLICASET", resourceName: "rs0", sizeRequestedPerFileBytes: 10000000, logTypes: ["MONGODB"], redacted: true });
`;
    const { stack, sims } = await openWorld(onTestFinished, bin, {
      servers: 2,
      simulator: { ...STEADY_JOBS, seed: { orgId, groupId } },
      project: pluginProject(program),
    });
    const [from, to] = [sims[0]!, sims[1]!];
    const before = sims.map(snapshot);
    await configureDefaultServer(stack, from);
    await stack.pulumi(["up", "--yes"]);
    expect(from.state.jobs()).toHaveLength(1);

    await configureDefaultServer(stack, to);
    const steps = await previewSteps(stack);
    // The default provider itself is not among the steps the display shows.
    expect(steps).toEqual(["replace logs"]);
    await stack.pulumi(["up", "--yes"]);
    expect(to.state.jobs()).toHaveLength(1);
    expect(snapshot(from)).toEqual(before[0]);
    await stack.pulumi(["destroy", "--yes"]);
    expect(sims.map(snapshot)).toEqual(before);
  });

  it("a bad setting fails the preview once, on the provider, naming baseUrl or opsmanager:baseUrl, with no request", async ({
    onTestFinished,
  }) => {
    const program = `import { LogCollectionJob, OrgApiKey, Provider } from "./opsmanager";
const provider = new Provider("om", { baseUrl: "ftp://om.example.com", publicKey: "abcdefgh", privateKey: "0000-private" });
new OrgApiKey("key", { orgId: "5f0000000000000000000001", desc: "d", roles: ["ORG_MEMBER"] }, { provider });
new LogCollectionJob("logs", { groupId: "5f0000000000000000000002", resourceType: "REPLICASET", resourceName: "rs0", sizeRequestedPerFileBytes: 10000000, logTypes: ["MONGODB"], redacted: true }, { provider });
`;
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: pluginProject(program) });
    // The errors of the summary's Diagnostics section (the display shows each inline too).
    const problems = (text: string) =>
      (text.split("\nDiagnostics:\n")[1]?.split("\nResources:")[0] ?? "").match(/error: .*/g) ?? [];

    const explicit = await stack.pulumi(["preview"], { allowFailure: true });
    expect(explicit.code).not.toBe(0);
    expect(problems(explicit.stdout)).toEqual([
      "error: pulumi:providers:opsmanager resource 'om': property baseUrl value {ftp://om.example.com} has a problem: baseUrl must start with http:// or https:// (got \"ftp://om.example.com\"); for example https://om.example.com:8443",
    ]);
    expect(explicit.stdout).not.toContain("opsmanager:baseUrl");

    // The README's first program on the default provider, its stack config set wrong.
    await stack.pulumi(["config", "set", "orgId", sim.orgId]);
    await stack.pulumi(["config", "set", "groupId", sim.groupId]);
    await stack.pulumi(["config", "set", "publicKey", "zzhpslzl"]);
    await stack.pulumi(["config", "set", "opsmanager:baseUrl", "ftp://om.example.com"]);
    await writeFile(path.join(stack.dir, "index.ts"), FIRST_PROGRAM);
    const stackConfig = await stack.pulumi(["preview"], { allowFailure: true });
    expect(stackConfig.code).not.toBe(0);
    const found = problems(stackConfig.stdout);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^error: pulumi:providers:opsmanager resource 'default[^']*': property opsmanager:baseUrl value .* has a problem: opsmanager:baseUrl must start with http:\/\/ or https:\/\/ \(got "ftp:\/\/om\.example\.com"\)/,
    );
    expect(sim.requests).toEqual([]);
  });
});

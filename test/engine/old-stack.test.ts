/**
 * A stack deployed with the package as it was before the real engine ran it (the last commit of the
 * previous round), then refreshed, previewed, updated and destroyed after an upgrade to this checkout,
 * all with the real `pulumi`. `read`, `diff` and `delete` run the provider text stored in state by the
 * old version; that text only requires `pulumi-opsmanager/host`, so the code they run is the package
 * installed now. The old version wrote no state version: a refresh that finds a resource unchanged
 * leaves its state so, and an update writes today's version.
 */
import * as fsp from "node:fs/promises";
import { expect, it } from "vitest";
import { KEY_STATE } from "../../provider/resources/org-api-key/state";
import { currentVersion } from "../../provider/resources/shared/state-version";
import { describeEngine } from "./support/cli";
import { packCommit } from "./support/old-package";
import type { StackState } from "./support/stack";
import { openWorld, snapshot, writes } from "./support/world";

/** main before issue 25: the package as the previous round left it. */
const BEFORE_THE_ENGINE = "5dffaab4f8d0e22add9225aacca9d85bc2e9f3d9";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { ApiKeyProjectAssignment, LogCollectionJob, OrgApiKey } from "pulumi-opsmanager";

const config = new pulumi.Config();
const orgId = config.require("orgId");
const groupId = config.require("groupId");

const adopted = new OrgApiKey("adopted", {
  orgId,
  publicKey: config.require("publicKey"),
  desc: config.require("desc"),
  roles: ["ORG_MEMBER", "ORG_READ_ONLY"],
  restoreOnDelete: true,
});
const created = new OrgApiKey("created", {
  orgId,
  desc: "made by the old version",
  roles: ["ORG_MEMBER"],
  accessList: ["203.0.113.0/24", "2001:db8::1"],
  keepers: { rotated: "1" },
});
new ApiKeyProjectAssignment("assigned", { apiKeyId: created.apiKeyId, groupId, roles: ["GROUP_READ_ONLY"] });
new LogCollectionJob("logs", {
  groupId,
  resourceType: "REPLICASET",
  resourceName: "rs0",
  sizeRequestedPerFileBytes: 10_000_000,
  logTypes: ["MONGODB"],
  redacted: true,
  expirationDate: config.require("expires"),
});
export const adoptedDesc = adopted.desc;
export const createdId = created.apiKeyId;
`;

const isDynamic = (type: string) => type.startsWith("pulumi-nodejs:dynamic/opsmanager:");

/** Each resource's state version by its name: `"none"` for state without one. */
function versions(state: StackState): Record<string, unknown> {
  return Object.fromEntries(
    (state.deployment.resources ?? [])
      .filter((r) => isDynamic(r.type))
      .map((r) => [r.urn.split("::").pop(), r.outputs?.stateVersion ?? "none"]),
  );
}

const PROJECT = `name: old-stack
runtime:
  name: nodejs
  options:
    typescript: true
`;

describeEngine(
  "test/engine/old-stack: a stack written by the previous version, under the real pulumi",
  (bin) => {
    it("refreshes and previews without a change, updates and destroys after the upgrade", async ({
      onTestFinished,
    }) => {
      const old = await packCommit(BEFORE_THE_ENGINE);
      onTestFinished(() => fsp.rm(old.dir, { recursive: true, force: true }));
      const { stack, sim } = await openWorld(onTestFinished, bin, {
        project: { files: { "Pulumi.yaml": PROJECT, "index.ts": PROGRAM }, packageTarball: old.tarball },
      });
      const target = sim.state.apiKeys().find((k) => k.publicKey !== sim.publicKey)!;
      for (const [key, value] of Object.entries({
        orgId: sim.orgId,
        groupId: sim.groupId,
        publicKey: target.publicKey,
        desc: "first",
        expires: new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
      })) {
        await stack.config(`old-stack:${key}`, value);
      }
      const before = snapshot(sim);
      await stack.pulumi(["up", "--yes", "--skip-preview"]);

      // What the old version wrote into state as each resource's provider: a require of the entry point
      // every version keeps, no code of its own.
      const written = await stack.exportState();
      const providers = written.deployment.resources
        ?.filter((r) => isDynamic(r.type))
        .map((r) => String(r.inputs?.__provider));
      expect(providers).toHaveLength(4);
      for (const text of providers ?? []) {
        expect(text).toContain('require("pulumi-opsmanager/host")');
        expect(text).not.toMatch(/listOrgApiKeys|digest/i);
      }

      expect(versions(written)).toEqual({ adopted: "none", created: "none", assigned: "none", logs: "none" });

      await stack.installPackage();
      // Pulumi's legacy refresh diff (and CLIs from before the refresh diff asked the provider) compares
      // old and new outputs field by field: a refresh adds nothing, not even a state version, to state
      // it finds unchanged. The created key is left out here: its projectRoles were recorded at its
      // create, before the assignment gave it one, which such a refresh shows as drift.
      const unchanged = (written.deployment.resources ?? [])
        .filter((r) => isDynamic(r.type) && !r.urn.endsWith("::created"))
        .map((r) => r.urn);
      expect(unchanged).toHaveLength(3);
      await stack.pulumi(
        ["refresh", "--yes", "--expect-no-changes", ...unchanged.flatMap((urn) => ["--target", urn])],
        { env: { PULUMI_ENABLE_LEGACY_REFRESH_DIFF: "true" } },
      );
      sim.resetRequests();
      await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);
      expect(writes(sim)).toEqual([]);
      // The refresh wrote today's version only where it wrote what it found: the created key's project role.
      expect(versions(await stack.exportState())).toEqual({
        adopted: "none",
        created: currentVersion(KEY_STATE),
        assigned: "none",
        logs: "none",
      });
      await stack.pulumi(["preview", "--expect-no-changes"]);

      await stack.config("old-stack:desc", "second");
      sim.resetRequests();
      await stack.pulumi(["up", "--yes"]);
      expect(writes(sim)).toEqual([`PATCH /api/public/v1.0/orgs/${sim.orgId}/apiKeys/${target.id} 200`]);
      expect(sim.state.apiKey(target.id)?.desc).toBe("second");
      expect(versions(await stack.exportState())).toMatchObject({
        adopted: currentVersion(KEY_STATE),
        assigned: "none",
      });
      await stack.pulumi(["preview", "--expect-no-changes"]);

      await stack.pulumi(["destroy", "--yes"]);
      expect(snapshot(sim)).toEqual(before);
    });
  },
);

/**
 * The provider plugin started by hand and attached to by the engine (`PULUMI_DEBUG_PROVIDERS=
 * opsmanager:<port>`, as CONTRIBUTING.md's debugging section says): preview, up and refresh served by
 * that one process through Handshake and Attach, against the simulator, its warnings still in the CLI's
 * output under their resources, and each deployment learning afresh.
 */
import { expect, it } from "vitest";
import { startPlugin } from "../support/plugin";
import { describeEngine } from "./support/cli";
import { theWarning } from "./support/diagnostics";
import { pluginProject } from "./support/plugin-project";
import { openWorld } from "./support/world";

describeEngine(
  "test/engine/attach: the provider plugin started by hand, attached to by the engine",
  (bin) => {
    it("preview, up and refresh through a plugin started with no arguments: nothing sent by the preview, the untracked-jobs warning under a job in each refresh", async ({
      onTestFinished,
    }) => {
      const { stack, sim } = await openWorld(onTestFinished, bin, {
        simulator: { profile: "spec", jobDurationMs: 3_600_000 },
        project: ([server]) =>
          pluginProject(`import { LogCollectionJob } from "./opsmanager";
for (const name of ["logs-a", "logs-b"]) {
  new LogCollectionJob(name, {
    groupId: "${server!.groupId}",
    resourceType: "REPLICASET",
    resourceName: name,
    sizeRequestedPerFileBytes: 10_000_000,
    logTypes: ["MONGODB"],
    redacted: true,
  });
}
`),
      });
      const plugin = await startPlugin({}, []);
      onTestFinished(() => plugin.close());
      const port = plugin.port;
      const attached = { env: { PULUMI_DEBUG_PROVIDERS: `opsmanager:${port}` } };

      const preview = await stack.pulumi(["preview"], attached);
      expect(preview.stdout).toMatch(/\+ +opsmanager:index:LogCollectionJob +logs-a +create/);
      expect(sim.requests).toEqual([]);

      await stack.pulumi(["up", "--yes", "--skip-preview"], attached);
      expect(sim.state.jobs()).toHaveLength(2);

      const jobRows = [
        "opsmanager:index:LogCollectionJob (logs-a)",
        "opsmanager:index:LogCollectionJob (logs-b)",
      ];
      const noListing =
        /LogCollectionJob: the server at http:\/\/127\.0\.0\.1:\d+ has no listing of log collection jobs/;
      for (const _ of ["first", "second"]) {
        // The same process serves each refresh: each is a deployment of its own, and warns once.
        const refresh = await stack.pulumi(["refresh", "--yes", "--skip-preview"], attached);
        expect(jobRows).toContain(theWarning(refresh, noListing).row);
      }
      expect(plugin.exitCode).toBeNull();
    });
  },
);

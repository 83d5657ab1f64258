/**
 * Every example of `examples/`, run with the real `pulumi` and the commands the README prints, against
 * the simulator: a preview that sends the server nothing (but the listings `getOrgApiKeys` reads), an
 * up, a preview and a refresh that find nothing to change, and a destroy that leaves the server as it
 * was before the first up.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "vitest";
import { describeEngine } from "./support/cli";
import { REPO } from "./support/stack";
import { openWorld, snapshot } from "./support/world";

/**
 * The README's program of the dynamic package (its section "The dynamic package": the first `ts` block
 * that imports from "pulumi-opsmanager"), as a reader copies it into a project (the quickstart's project
 * files).
 */
function readmeQuickstart(): Record<string, string> {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
  const program = /```ts\n(import [^\n]* from "pulumi-opsmanager";\n[\s\S]*?)```/.exec(readme)?.[1];
  if (!program) throw new Error('README.md has no ts block that imports from "pulumi-opsmanager"');
  return { "index.ts": program };
}

interface Case {
  example: string;
  /** A program of its own in the example's project, in place of its index.ts. */
  files?: () => Record<string, string>;
  /** The org whose key listing the program reads with getOrgApiKeys (during preview too), if any. */
  lists: boolean;
  servers: 1 | 2;
  /** How many log collection jobs the program declares. */
  jobs: number;
}

const CASES: Case[] = [
  { example: "quickstart", lists: false, servers: 1, jobs: 1 },
  { example: "quickstart", files: readmeQuickstart, lists: false, servers: 1, jobs: 1 },
  { example: "adopt-keys", lists: true, servers: 1, jobs: 0 },
  { example: "incident-logs", lists: false, servers: 1, jobs: 1 },
  { example: "ci-key", lists: false, servers: 1, jobs: 0 },
  { example: "two-servers", lists: true, servers: 2, jobs: 0 },
];

describeEngine("test/engine/examples: each example under the real pulumi", (bin) => {
  // Each test has its own stack and simulators: they run side by side, as separate users' stacks would.
  describe.concurrent("every example", () => {
    for (const { example, files, lists, servers, jobs } of CASES) {
      const name = files ? "the README's program of the dynamic package" : example;
      it(`${name}: preview sends nothing, up, no change on preview and refresh, destroy leaves the server as it was`, async ({
        expect,
        onTestFinished,
      }) => {
        const { stack, sims } = await openWorld(onTestFinished, bin, {
          servers,
          project: { example, files: files?.() },
        });
        const before = sims.map(snapshot);

        const preview = await stack.pulumi(["preview"]);
        expect(preview.stdout).toMatch(/\+ \d+ to create/);
        if (files) {
          // What the README says of it: one create per resource, under the two type tokens.
          expect(preview.stdout).toMatch(/\+ +pulumi-nodejs:dynamic\/opsmanager:OrgApiKey ci-key create/);
          expect(preview.stdout).toMatch(
            /\+ +pulumi-nodejs:dynamic\/opsmanager:LogCollectionJob rs0-logs create/,
          );
          expect(preview.stdout).toMatch(/\+ 3 to create/);
        }
        for (const sim of sims) {
          const sent = sim.requests.filter(
            (r) => !(lists && r.method === "GET" && r.path === `/api/public/v1.0/orgs/${sim.orgId}/apiKeys`),
          );
          expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([]);
        }

        const up = await stack.pulumi(["up", "--yes"]);
        expect(up.stdout).toMatch(/\d+ created/);
        expect(sims.map(snapshot)).not.toEqual(before);
        // Each resource's state: the position the SDK records is the program's own line, never the
        // package's (it skips the frames of Resource, CustomResource and the class, so a class must
        // extend CustomResource itself; it records none for a resource made in an anonymous callback,
        // whose frame its pattern does not read), and its provider text is the package's small one.
        const ours = (await stack.exportState()).deployment.resources?.filter((r) =>
          r.type.startsWith("pulumi-nodejs:dynamic/opsmanager:"),
        );
        expect(ours?.length).toBeGreaterThan(0);
        for (const r of ours ?? []) {
          if (r.sourcePosition !== undefined) {
            expect(r.sourcePosition, r.urn).toMatch(/^project:\/\/\/index\.ts#\d+,\d+$/);
          }
          expect(String(r.inputs?.__provider).length, r.urn).toBeLessThan(1_300);
          expect(r.outputs?.__provider, r.urn).toBe(r.inputs?.__provider);
        }

        // A job's create is its POST alone: no listing of the project's jobs in the whole `up` (the one
        // unsigned GET a new host may send there only fetches the challenge), and its
        // status is the first refresh's to read, which is no change to the program.
        const jobListings = (sim: (typeof sims)[number]) =>
          sim.requests.filter(
            (r) => r.authenticated && r.method === "GET" && /\/logCollectionJobs$/.test(r.path),
          ).length;
        expect(sims.map(jobListings)).toEqual(sims.map(() => 0));
        const jobStatus = async () =>
          ((await stack.exportState()).deployment.resources ?? [])
            .filter((r) => r.type.endsWith(":LogCollectionJob"))
            .map((r) => r.outputs?.status);
        expect(await jobStatus()).toEqual(Array.from({ length: jobs }, () => ""));

        await stack.pulumi(["preview", "--expect-no-changes"]);
        await stack.pulumi(["refresh", "--yes", "--expect-no-changes"]);
        expect(await jobStatus()).toEqual(Array.from({ length: jobs }, () => "IN_PROGRESS"));
        await stack.pulumi(["preview", "--expect-no-changes"]);

        const destroy = await stack.pulumi(["destroy", "--yes"]);
        expect(destroy.stdout).toMatch(/\d+ deleted/);
        expect(sims.map(snapshot)).toEqual(before);
        const state = await stack.exportState();
        expect(state.deployment.resources ?? []).toEqual([]);
      });
    }

    it("an example whose resource fails its check: preview fails with the check's message, and no request is sent", async ({
      expect,
      onTestFinished,
    }) => {
      const { stack, sims } = await openWorld(onTestFinished, bin, { project: { example: "quickstart" } });
      await stack.config("quickstart:groupId", "not-a-group-id");
      const preview = await stack.pulumi(["preview"], { allowFailure: true });
      expect(preview.code).not.toBe(0);
      expect(preview.stdout).toMatch(
        /pulumi-nodejs:dynamic\/opsmanager:LogCollectionJob \(rs0-logs\):\n\s+error: .*groupId must be 24 hexadecimal digits, the project \(group\) id \(got "not-a-group-id"\)/,
      );
      expect(sims[0]!.requests).toEqual([]);
    });
  });
});

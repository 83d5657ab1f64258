/**
 * An example whose resource fails its check fails its run with the check's message, at once, loaded as
 * `pulumi up` loads it (see `support/projects.ts`). The example is a copy of the quickstart in a
 * temporary folder whose project default for `groupId` is not a project id.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { repoRoot } from "../support/program-dir";
import { ensureInstall, readProject, runProgram } from "./support/projects";

const BAD_GROUP_ID = "not-a-group-id";

let sim: Simulator;
let copy: string;

beforeAll(async () => {
  sim = await startSimulator({});
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-broken-example-"));
  const quickstart = path.join(repoRoot(), "examples", "quickstart");
  fs.cpSync(quickstart, copy, {
    recursive: true,
    filter: (src) => path.basename(src) !== "node_modules" || src === quickstart,
  });
  const projectFile = path.join(copy, "Pulumi.yaml");
  const text = fs.readFileSync(projectFile, "utf8");
  const broken = text.replace(`default: ${sim.groupId}`, `default: ${BAD_GROUP_ID}`);
  expect(broken).not.toBe(text);
  fs.writeFileSync(projectFile, broken);
  // The copy depends on the clone by a path that no longer leads there; its install is the packed package.
  await ensureInstall(copy);
});

afterAll(async () => {
  await sim?.close();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe("an example whose resource fails its check", () => {
  it("fails its run with the check's message, before any request for that resource", async () => {
    const project = readProject(path.join(copy, "Pulumi.yaml"));
    const run = runProgram(project, {
      "opsmanager:baseUrl": sim.url,
      "opsmanager:publicKey": sim.publicKey,
      "opsmanager:privateKey": sim.privateKey,
    });
    const error = await run.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /check of rs0-logs failed: .*"property":"groupId","reason":"groupId must be 24 hexadecimal digits, the project \(group\) id \(got \\"not-a-group-id\\"\)"/,
    );
    // The failure ended the run: it is not the limit on a run that never ends.
    expect(error?.message).not.toContain("had not finished");
    expect(sim.requests.filter((q) => q.path.includes(BAD_GROUP_ID))).toEqual([]);
    expect(sim.requests.filter((q) => q.path.includes("logCollectionJobs"))).toEqual([]);
  }, 120_000);
});

/**
 * What the tarball `npm pack` makes tells a user who finds it: the license it is under (the file, not
 * only its name in package.json), the words it is found by, and the simulator's command.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packRepo } from "../support/program-dir";

const execFileAsync = promisify(execFile);

interface Manifest {
  license?: string;
  keywords?: string[];
  bin?: Record<string, string>;
}

let dir: string;
let manifest: Manifest;

beforeAll(async () => {
  const tarball = await packRepo();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-tarball-"));
  await execFileAsync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1"]);
  manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("ships the Apache License 2.0 that its package.json names", () => {
    expect(manifest.license).toBe("Apache-2.0");
    const text = fs.readFileSync(path.join(dir, "LICENSE"), "utf8");
    expect(text).toMatch(
      /^\s*Apache License\s+Version 2\.0, January 2004\s+http:\/\/www\.apache\.org\/licenses\//,
    );
    expect(text).toContain("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
    expect(text).toContain("END OF TERMS AND CONDITIONS");
  });

  it("has keywords a search for a Pulumi provider of MongoDB Ops Manager finds", () => {
    expect(manifest.keywords).toEqual(expect.arrayContaining(["pulumi", "mongodb", "ops-manager"]));
  });

  it("names the simulator's command, a script in the tarball that node runs by its first line", () => {
    const bin = manifest.bin?.["pulumi-opsmanager-simulator"];
    expect(bin).toBe("dist/simulator/cli.js");
    const script = fs.readFileSync(path.join(dir, bin!), "utf8");
    expect(script.split("\n")[0]).toBe("#!/usr/bin/env node");
  });
});

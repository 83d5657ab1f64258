/**
 * Stack traces as a user meets them: Pulumi's dynamic-provider host installs source-map-support and
 * prints the stack of an error thrown by `check`, so every frame in the package must name a file the
 * package ships, at the line that threw. The package ships the TypeScript sources its maps point to.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_TYPE, urn } from "../support/host";
import { PACKAGE_NAME, packRepo } from "../support/program-dir";
import { type ProviderFixture, providerFixture } from "../support/provider-fixture";

const execFileAsync = promisify(execFile);

let fixture: ProviderFixture;

beforeAll(async () => {
  fixture = await providerFixture();
});

afterAll(async () => {
  await fixture?.close();
});

/** `file:line:column` of each stack frame that lies in the installed package. */
function packageFrames(stack: string, packageDir: string): Array<{ file: string; line: number }> {
  const frames: Array<{ file: string; line: number }> = [];
  for (const match of stack.matchAll(/\(?(\/[^\s()]+):(\d+):\d+\)?/g)) {
    const file = match[1]!;
    if (file.startsWith(`${packageDir}${path.sep}`)) frames.push({ file, line: Number(match[2]) });
  }
  return frames;
}

describe("stack traces printed by the host", () => {
  it("name files the package ships, at the line that threw", async () => {
    const host = await fixture.newHost({});
    const error = await host
      .check(urn(KEY_TYPE, "k"), {}, fixture.withKey({ orgId: "o", apiKeyId: "k" }))
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(error?.message).toContain("Ops Manager settings missing");
    const packageDir = path.join(realpathSync(fixture.program.dir), "node_modules", PACKAGE_NAME);
    // The host writes `${error}: ${error.stack}` for a failed check.
    const printed = host.stderr.slice(host.stderr.indexOf("ConfigError: Ops Manager settings missing"));
    const frames = packageFrames(printed, packageDir);
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(existsSync(frame.file), `${frame.file} is not in the package`).toBe(true);
      expect(readFileSync(frame.file, "utf8").split("\n").length).toBeGreaterThanOrEqual(frame.line);
    }
    // The first frame is where the error was made: that line, in the file shipped, makes it.
    const top = frames[0]!;
    expect(top.file).toBe(path.join(packageDir, "provider", "resources", "shared", "settings.ts"));
    expect(readFileSync(top.file, "utf8").split("\n")[top.line - 1]).toContain("new ConfigError(");
  });

  it("every source map in the package points at files the package ships", async () => {
    const tarball = await packRepo();
    const { stdout } = await execFileAsync("tar", ["-tzf", tarball], { maxBuffer: 16 * 1024 * 1024 });
    const shipped = new Set(stdout.split("\n").filter((line) => line !== ""));
    const maps = [...shipped].filter((entry) => entry.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const map of maps) {
      const { stdout: text } = await execFileAsync("tar", ["-xzOf", tarball, map], {
        maxBuffer: 16 * 1024 * 1024,
      });
      const { sources, sourceRoot } = JSON.parse(text) as { sources: string[]; sourceRoot?: string };
      for (const source of sources) {
        const entry = path.posix.normalize(
          path.posix.join(path.posix.dirname(map), sourceRoot ?? "", source),
        );
        if (!shipped.has(entry)) missing.push(`${map} -> ${entry}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/**
 * The GitHub Actions workflows (`.github/workflows/*.yml`): actionlint, built from its pinned Go module
 * by `tools/actionlint/build.sh` (or the bin folder `OPSMANAGER_ACTIONLINT` names), finds nothing in
 * them and does find what a broken copy gets wrong; every action is pinned by a full commit SHA; and
 * the release's version check stops a tag that is not package.json's version.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeNeeding, itNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";

const ROOT = repoRoot();
const WORKFLOWS = path.join(ROOT, ".github", "workflows");
const RELEASE = path.join(WORKFLOWS, "release.yml");

function locate(): { bin?: string; missing?: string } {
  const named = process.env.OPSMANAGER_ACTIONLINT;
  let bin: string;
  if (named) {
    bin = path.resolve(named);
  } else {
    try {
      bin = execFileSync("bash", [path.join(ROOT, "tools/actionlint/build.sh"), "--where"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      return { missing: "actionlint built from its Go module (run `bash tools/actionlint/build.sh`)" };
    }
  }
  if (!fs.existsSync(path.join(bin, "actionlint"))) return { missing: `actionlint in ${bin}` };
  return { bin };
}

/** Whether shellcheck is on PATH: actionlint runs it on every `run:` script when it is. */
function shellcheckMissing(): string | undefined {
  const found = spawnSync("shellcheck", ["--version"], { stdio: "ignore" });
  return found.status === 0 ? undefined : "shellcheck on PATH (Debian's shellcheck; .ci/run installs it)";
}

const { bin, missing } = locate();

function actionlint(...files: string[]): { status: number | null; output: string } {
  const run = spawnSync(path.join(bin ?? "", "actionlint"), ["-no-color", "-oneline", ...files], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-workflows-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** release.yml with `from` replaced by `to` (once, and it must be there), written to a scratch file. */
function brokenCopy(name: string, from: string, to: string): string {
  const text = fs.readFileSync(RELEASE, "utf8");
  expect(text, `release.yml holds ${JSON.stringify(from)}`).toContain(from);
  const file = path.join(scratch, `${name}.yml`);
  fs.writeFileSync(file, text.replace(from, to));
  return file;
}

/** The `run:` script of the step whose `id:` is `id`, as the runner's bash receives it. */
function stepScript(file: string, id: string): string {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const start = lines.findIndex((l) => new RegExp(`^\\s*- id: ${id}\\s*$`).test(l));
  expect(start, `a step with id ${id}`).toBeGreaterThanOrEqual(0);
  const run = lines.findIndex((l, i) => i > start && /^\s*run: \|\s*$/.test(l));
  const indent = /^(\s*)/.exec(lines[run]!)![1]!.length;
  const body: string[] = [];
  for (const line of lines.slice(run + 1)) {
    if (line.trim() !== "" && /^(\s*)/.exec(line)![1]!.length <= indent) break;
    body.push(line);
  }
  const margin = Math.min(...body.filter((l) => l.trim()).map((l) => /^(\s*)/.exec(l)![1]!.length));
  return body.map((l) => l.slice(margin)).join("\n");
}

describeNeeding("the workflows", missing, () => {
  it("actionlint finds nothing in .github/workflows/*.yml", () => {
    const files = fs
      .readdirSync(WORKFLOWS)
      .filter((f) => f.endsWith(".yml"))
      .map((f) => `.github/workflows/${f}`);
    expect(files).toContain(".github/workflows/release.yml");
    expect(actionlint(...files)).toEqual({ status: 0, output: "" });
  });

  it("actionlint fails a copy that needs a job there is none of, asks for a permission that does not exist, or reads a step that is not there", () => {
    const needs = actionlint(
      brokenCopy("needs", "needs: [build, github-release]", "needs: [build, gh-release]"),
    );
    expect(needs.status).toBe(1);
    expect(needs.output).toMatch(/job "npm" needs job "gh-release" which does not exist.*\[job-needs\]/);

    const permission = actionlint(brokenCopy("permission", "contents: write", "content: write"));
    expect(permission.status).toBe(1);
    expect(permission.output).toMatch(/unknown permission scope "content".*\[permissions\]/);

    const output = actionlint(
      brokenCopy("output", "steps.version.outputs.version }}", "steps.versions.outputs.version }}"),
    );
    expect(output.status).toBe(1);
    expect(output.output).toMatch(/property "versions" is not defined.*\[expression\]/);
  });

  itNeeding(
    "actionlint runs shellcheck on the steps' scripts: an unquoted variable fails",
    shellcheckMissing(),
    () => {
      const quoted = 'test -s "npm/pulumi-opsmanager-$VERSION.tgz"';
      const unquoted = actionlint(
        brokenCopy("unquoted", quoted, "test -s npm/pulumi-opsmanager-$VERSION.tgz"),
      );
      expect(unquoted.status).toBe(1);
      expect(unquoted.output).toMatch(/SC2086.*\[shellcheck\]/);
    },
  );
});

describe("the release workflow", () => {
  it("every action it uses is pinned by a full commit SHA, its release tag beside it", () => {
    const uses = [...fs.readFileSync(RELEASE, "utf8").matchAll(/^\s*-?\s*uses:\s*(\S+)(.*)$/gm)];
    expect(uses.length).toBeGreaterThan(5);
    const unpinned = uses
      .filter(
        ([, ref, comment]) =>
          !/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/.test(ref!) || !/# v\d/.test(comment!),
      )
      .map(([line]) => line!.trim());
    expect(unpinned).toEqual([]);
  });

  it("its version check passes the tag of package.json's version and stops any other", () => {
    const script = stepScript(RELEASE, "version");
    const dir = fs.mkdtempSync(path.join(scratch, "version-"));
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ version: "0.3.1" }));
    const check = (tag: string) => {
      const output = path.join(dir, `output-${tag}`);
      fs.writeFileSync(output, "");
      const run = spawnSync("bash", ["-e", "-c", script], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, TAG: tag, GITHUB_OUTPUT: output },
      });
      return { status: run.status, stdout: run.stdout, output: fs.readFileSync(output, "utf8") };
    };
    expect(check("v0.3.1")).toEqual({ status: 0, stdout: "", output: "version=0.3.1\n" });
    const other = check("v0.3.2");
    expect(other.status).toBe(1);
    expect(other.stdout).toContain("::error::the tag v0.3.2 is not v0.3.1, package.json's version");
    expect(other.output).toBe("");
    expect(check("0.3.1").status).toBe(1);
  });
});

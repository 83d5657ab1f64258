/**
 * `npm run example` (examples/run-example.js) where there is no Pulumi CLI and none can be installed:
 * it says how to install one and stops, before building anything. No network is involved: the CLI
 * folder it is pointed at (OPSMANAGER_EXAMPLE_CLI_ROOT) lies under a file, so the script finds it
 * cannot install there before it would download. The script runs from a copy of the clone's layout
 * whose build only leaves a mark, so that a regression builds nothing in this clone while other
 * suites use its dist/.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../engine/support/cli";
import { itNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";

const BUILT = "built-by-npm-run-build";

let clone: string;

/** PATH without any folder that holds a `pulumi`. */
function pathWithoutPulumi(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, "pulumi")))
    .join(path.delimiter);
}

function run(
  script: string,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: clone,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(() => {
  clone = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-run-example-"));
  fs.mkdirSync(path.join(clone, "examples"));
  fs.copyFileSync(
    path.join(repoRoot(), "examples", "run-example.js"),
    path.join(clone, "examples", "run-example.js"),
  );
  fs.writeFileSync(
    path.join(clone, "package.json"),
    JSON.stringify({
      name: "pulumi-opsmanager",
      private: true,
      scripts: { build: `node -e "require('node:fs').writeFileSync('${BUILT}', '')"` },
    }),
  );
  fs.symlinkSync(path.join(repoRoot(), "node_modules"), path.join(clone, "node_modules"), "dir");
  fs.writeFileSync(path.join(clone, "not-a-folder"), "");
});

afterAll(() => {
  if (clone) fs.rmSync(clone, { recursive: true, force: true });
});

describe("npm run example without the Pulumi CLI", () => {
  it("with no pulumi on PATH and a CLI folder the installer cannot use, exits 1 saying how to install the CLI, before building anything", async () => {
    const cliRoot = path.join(clone, "not-a-folder", "cli");
    const result = await run(path.join(clone, "examples", "run-example.js"), {
      ...process.env,
      PATH: pathWithoutPulumi(),
      OPSMANAGER_EXAMPLE_CLI_ROOT: cliRoot,
    });
    // Exit 1 of its own (a run that hung would be killed, with no code), having failed where the CLI's
    // folder is made (ENOTDIR), so before any download: that, not a wall-clock bound, is "at once".
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `There is no \`pulumi\` on PATH: installing the Pulumi CLI into ${cliRoot}`,
    );
    expect(result.stderr).toContain(`The Pulumi CLI cannot be installed into ${cliRoot}: ENOTDIR`);
    expect(result.stderr).toContain(
      "Install the Pulumi CLI (https://www.pulumi.com/docs/install/), then run `npm run example` again:",
    );
    expect(result.stderr).toContain("curl -fsSL https://get.pulumi.com | sh");
    // Nothing built, nothing installed: the clone is as it was.
    expect(fs.readdirSync(clone).sort()).toEqual([
      "examples",
      "node_modules",
      "not-a-folder",
      "package.json",
    ]);
    expect(fs.readdirSync(path.join(clone, "examples"))).toEqual(["run-example.js"]);
  });
});

describe("npm run example -- --language", () => {
  it("an unknown language exits 1 naming the languages there are, before building anything", async () => {
    const result = await run(path.join(clone, "examples", "run-example.js"), process.env, [
      "--language",
      "cobol",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Unknown language cobol: one of typescript, python, yaml");
    expect(fs.existsSync(path.join(clone, BUILT))).toBe(false);
  });
});

describe("npm run example with Go and no Pulumi CLI on PATH", () => {
  const { bin, missing } = cli();
  itNeeding(
    "uses the CLI tools/pulumi-cli/build.sh built from its Go modules, before any installer",
    missing,
    async () => {
      const withTools = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-run-example-go-"));
      try {
        fs.cpSync(clone, withTools, { recursive: true, verbatimSymlinks: true });
        fs.cpSync(path.join(repoRoot(), "tools"), path.join(withTools, "tools"), { recursive: true });
        // The build the engine suite uses, found where build.sh keeps it: reused, not built again.
        fs.symlinkSync(path.dirname(path.dirname(bin!)), path.join(withTools, ".pulumi-cli"), "dir");
        const result = await run(path.join(withTools, "examples", "run-example.js"), {
          ...process.env,
          PATH: pathWithoutPulumi(),
          OPSMANAGER_EXAMPLE_CLI_ROOT: path.join(withTools, "not-a-folder", "cli"),
        });
        expect(result.stdout).toContain(
          "There is no `pulumi` on PATH: building the Pulumi CLI from its Go modules with Go",
        );
        expect(result.stdout).toMatch(
          /Using the Pulumi CLI v?3\.\d+\.\d+ built from its Go modules in .*\.pulumi-cli\/v3\.[^/]+\/bin\./,
        );
        expect(result.stdout).not.toContain("installer");
        // It went on to build the package (this layout's build only leaves a mark).
        expect(fs.existsSync(path.join(withTools, BUILT))).toBe(true);
      } finally {
        fs.rmSync(withTools, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

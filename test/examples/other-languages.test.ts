/**
 * The Python and Go examples as their languages' tools check them against the generated SDKs: mypy
 * (`--strict`, pinned in tools/python/requirements.txt) over each Python program, in the venv that holds
 * the SDK (its `py.typed` and input and output types are what it checks against); `go vet` and
 * `go build` over each Go program, against `sdk/go` by its module's `replace`. The Go programs are run
 * inline with the Automation API, on the release, by test/release/go.test.ts (no Go language host can
 * be built here: examples/quickstart-go/README.md).
 *
 * Until the SDKs are generated (sdk/python, sdk/go.mod) these are skipped, saying so, and fail under CI.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, it } from "vitest";
import { pythonSdkMissing, pythonVenv } from "../engine/support/languages";
import { describeNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";

const run = promisify(execFile);
const EXAMPLES = path.join(repoRoot(), "examples");
const inLanguage = (suffix: string) =>
  fs
    .readdirSync(EXAMPLES)
    .filter((name) => name.endsWith(suffix) && fs.statSync(path.join(EXAMPLES, name)).isDirectory());

/** Runs a command to its end; a failure shows what it printed. */
async function check(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  try {
    await run(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

describe("the examples in other languages", () => {
  it("each TypeScript example of quickstart and ci-key has a Python, a YAML and a Go twin", ({ expect }) => {
    for (const original of ["quickstart", "ci-key"]) {
      for (const [language, file] of [
        ["python", "__main__.py"],
        ["yaml", "Pulumi.yaml"],
        ["go", "main.go"],
      ] as const) {
        expect(
          fs.existsSync(path.join(EXAMPLES, `${original}-${language}`, file)),
          `${original}-${language}`,
        ).toBe(true);
      }
    }
  });
});

const { venv, missing: venvMissing } = pythonVenv();
/** The SDK folder first: without it there is nothing to check, whatever the venv. */
const pythonMissing = pythonSdkMissing(undefined) ?? venvMissing ?? pythonSdkMissing(venv);
describeNeeding(
  "test/examples/other-languages: the Python examples type-check against sdk/python (mypy --strict)",
  pythonMissing,
  () => {
    for (const example of inLanguage("-python")) {
      it(`examples/${example}`, async () => {
        await check(
          path.join(venv!, "bin", "python"),
          ["-m", "mypy", "--strict", "--cache-dir=/dev/null", "__main__.py"],
          path.join(EXAMPLES, example),
        );
      });
    }
  },
  { timeout: 300_000 },
);

function goMissing(): string | undefined {
  if (!fs.existsSync(path.join(repoRoot(), "sdk", "go.mod"))) {
    return "the Go SDK (sdk/go.mod, generated from provider/plugin/schema.json)";
  }
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    return "Go (`go` on PATH)";
  }
  return undefined;
}

describeNeeding(
  "test/examples/other-languages: the Go examples compile and vet against sdk/go",
  goMissing(),
  () => {
    for (const example of inLanguage("-go")) {
      it(`examples/${example}`, async () => {
        const dir = path.join(EXAMPLES, example);
        const env = { ...process.env, GOFLAGS: "-mod=readonly" };
        await check("go", ["vet", "./..."], dir, env);
        await check("go", ["build", "-o", "/dev/null", "."], dir, env);
      });
    }
  },
  { timeout: 600_000 },
);

/** The files of a folder, as paths relative to `base`, recursively. */
function filesUnder(dir: string, base: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "__pycache__" ? [] : filesUnder(full, base);
    return [path.relative(base, full)];
  });
}

describeNeeding(
  "test/examples/other-languages: the Python SDK's wheel (tools/python/wheel.sh)",
  pythonMissing,
  () => {
    it("carries py.typed and every module and stub of sdk/python, as a user's pip installs them", async ({
      expect,
      onTestFinished,
    }) => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-wheel-"));
      onTestFinished(() => fs.rmSync(out, { recursive: true, force: true }));
      const { stdout } = await run("bash", [path.join(repoRoot(), "tools/python/wheel.sh"), out], {
        cwd: repoRoot(),
        maxBuffer: 16 * 1024 * 1024,
      });
      const wheel = stdout.trim().split("\n").pop()!;
      expect(path.basename(wheel)).toMatch(/^pulumi_opsmanager-.*-py3-none-any\.whl$/);
      const listed = await run(path.join(venv!, "bin", "python"), [
        "-c",
        "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
        wheel,
      ]);
      const inWheel = listed.stdout.trim().split("\n");
      const sdk = path.join(repoRoot(), "sdk", "python");
      const shipped = filesUnder(path.join(sdk, "pulumi_opsmanager"), sdk).filter((file) =>
        /(\.pyi?|py\.typed|pulumi-plugin\.json)$/.test(file),
      );
      expect(shipped).toContain("pulumi_opsmanager/py.typed");
      expect(shipped.filter((file) => !inWheel.includes(file))).toEqual([]);
    });
  },
  { timeout: 300_000 },
);

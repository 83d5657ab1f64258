/**
 * `.ci/failures.js`, the recap `.ci/run` prints just before its closing line: from a vitest JSON
 * report, each failed test with its file and the first lines of its error (no stack frames, no colour
 * codes), and each file that failed to run; nothing for a report with no failure.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/program-dir";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-ci-failures-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function recap(report: unknown, label = "node 20 run"): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(report));
  return execFileSync(process.execPath, [path.join(repoRoot(), ".ci/failures.js"), file, label], {
    cwd: repoRoot(),
    encoding: "utf8",
  });
}

describe(".ci/failures.js", () => {
  it("names each failed test and each file that failed to run, with the first lines of the error", () => {
    const out = recap({
      testResults: [
        {
          name: path.join(repoRoot(), "test/engine/examples.test.ts"),
          status: "failed",
          message: "",
          assertionResults: [
            { fullName: "every example > quickstart", status: "passed", failureMessages: [] },
            {
              fullName: "every example > ci-key",
              status: "failed",
              failureMessages: [
                "\u001b[31mError: Test timed out in 60000ms.\u001b[39m\n    at runTest (file.js:1:1)\nIf this is a long-running test, pass a timeout value",
              ],
            },
          ],
        },
        {
          name: path.join(repoRoot(), "test/host/broken.test.ts"),
          status: "failed",
          message: "Error: Cannot find module '../support/gone'\n    at Object.<anonymous> (x.ts:1:1)",
          assertionResults: [],
        },
      ],
    });
    expect(out).toBe(
      [
        "ci: what failed in the node 20 run:",
        "  ✗ test/engine/examples.test.ts > every example > ci-key",
        "      Error: Test timed out in 60000ms.",
        "      If this is a long-running test, pass a timeout value",
        "  ✗ test/host/broken.test.ts (the file failed to run)",
        "      Error: Cannot find module '../support/gone'",
        "",
      ].join("\n"),
    );
  });

  it("prints nothing for a report with no failure, and nothing for a report that is not there", () => {
    expect(recap({ testResults: [{ name: "a.test.ts", status: "passed", assertionResults: [] }] })).toBe("");
    expect(
      execFileSync(
        process.execPath,
        [path.join(repoRoot(), ".ci/failures.js"), path.join(dir, "absent.json"), "x"],
        {
          encoding: "utf8",
        },
      ),
    ).toBe("");
  });
});

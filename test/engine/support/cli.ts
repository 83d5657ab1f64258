/**
 * The real Pulumi CLI for the engine suite: the one `tools/pulumi-cli/build.sh` built from its Go
 * modules (or the bin folder `OPSMANAGER_PULUMI_CLI` names), never a `pulumi` that happens to be on PATH.
 *
 * Where it is absent the suite cannot run: outside CI it is skipped, saying why in one line; under
 * `CI=true` it is one failing test that names what is missing, so a CI run cannot pass without it.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { describeNeeding } from "../../support/prerequisite";
import { repoRoot } from "../../support/program-dir";

/** A folder holding `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`. */
export type CliBin = string;

const PROGRAMS = ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"];

function locate(): { bin?: CliBin; missing?: string } {
  const named = process.env.OPSMANAGER_PULUMI_CLI;
  let bin: string | undefined;
  if (named) {
    bin = path.resolve(named);
  } else {
    try {
      bin = execFileSync("bash", [path.join(repoRoot(), "tools/pulumi-cli/build.sh"), "--where"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      return { missing: "the Pulumi CLI built from its Go modules (run `bash tools/pulumi-cli/build.sh`)" };
    }
  }
  const absent = PROGRAMS.filter((name) => !existsSync(path.join(bin, name)));
  if (absent.length > 0) return { missing: `${absent.join(", ")} in ${bin}` };
  return { bin };
}

let located: ReturnType<typeof locate> | undefined;

/** The CLI's bin folder, or why there is none. */
export function cli(): { bin?: CliBin; missing?: string } {
  located ??= locate();
  return located;
}

/**
 * `describe` for a suite that runs the real CLI: `body` gets the bin folder. Without the CLI, one line
 * says why the suite is skipped, or, under CI, a test fails naming what is missing.
 */
export function describeEngine(name: string, body: (bin: CliBin) => void): void {
  const { bin, missing } = cli();
  describeNeeding(name, missing, () => body(bin ?? ""), { timeout: ENGINE_TEST_LIMIT_MS });
}

/**
 * How long one engine test may run. A test is several `pulumi` commands (each one a CLI, a language
 * host, a type-checked program and a provider), and how long they take is the machine's business:
 * beside another suite on two cores, a test of the examples took 45 s in one CI run and 56 s in the
 * next, and a colder machine pushed four of them past vitest's 60 s default (a CI run failed on that).
 * So the bound is no measure of speed (bench/engine.js measures that), only a stop for a test that
 * hangs, far above any run seen; a hung command is stopped sooner, by runProcess's own limit.
 */
export const ENGINE_TEST_LIMIT_MS = 10 * 60_000;

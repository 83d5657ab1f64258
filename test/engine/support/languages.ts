/**
 * Python and YAML programs under the real CLI: the language hosts `tools/language-hosts/build.sh`
 * builds, the Python venv `tools/python/venv.sh` makes, and a stack of a project that is no Node.js
 * package (no `node_modules`), in folders of its own.
 *
 * Where a host or the venv is absent the suites cannot run: outside CI they are skipped, saying why
 * in one line; under `CI=true` a test fails naming what is missing (`.ci/run` builds them first).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { describeNeeding } from "../../support/prerequisite";
import { repoRoot } from "../../support/program-dir";
import { type CliBin, cli, ENGINE_TEST_LIMIT_MS } from "./cli";
import {
  baseEnv,
  type EngineStack,
  type RunOptions,
  type RunResult,
  runProcess,
  type StackState,
} from "./stack";

/** What a Python or YAML program needs beside the CLI. */
export interface LanguageTools {
  /** The CLI's bin folder. */
  bin: CliBin;
  /** The bin folder of the language hosts (`pulumi-language-python`, `pulumi-language-yaml`). */
  hosts: string;
  /** The Python programs' virtual environment. */
  venv: string;
}

/** The last line a script prints with `--where`, or undefined when it exits non-zero. */
function where(script: string): string | undefined {
  try {
    return execFileSync("bash", [path.join(repoRoot(), script), "--where"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .trim()
      .split("\n")
      .pop();
  } catch {
    return undefined;
  }
}

const HOST_FILES = [
  "pulumi-language-python",
  "pulumi-language-yaml",
  "../python-host/pulumi-language-python-exec",
];

function locate(): { tools?: LanguageTools; missing?: string } {
  const { bin, missing } = cli();
  if (!bin) return { missing };
  const hosts = process.env.OPSMANAGER_LANGUAGE_HOSTS ?? where("tools/language-hosts/build.sh");
  if (!hosts) {
    return { missing: "the Python and YAML language hosts (run `bash tools/language-hosts/build.sh`)" };
  }
  const absent = HOST_FILES.filter((name) => !fs.existsSync(path.join(hosts, name)));
  if (absent.length > 0) return { missing: `${absent.join(", ")} in ${hosts}` };
  const { venv, missing: noVenv } = pythonVenv();
  if (!venv) return { missing: noVenv };
  return { tools: { bin, hosts: path.resolve(hosts), venv } };
}

/** The Python programs' venv (OPSMANAGER_PYTHON_VENV, else tools/python/venv.sh's), or why there is none. */
export function pythonVenv(): { venv?: string; missing?: string } {
  const venv = process.env.OPSMANAGER_PYTHON_VENV ?? where("tools/python/venv.sh");
  if (!venv)
    return { missing: "the Python venv, or the SDK in it out of date (run `bash tools/python/venv.sh`)" };
  if (!fs.existsSync(path.join(venv, "bin", "python"))) return { missing: `a Python venv at ${venv}` };
  return { venv: path.resolve(venv) };
}

let located: ReturnType<typeof locate> | undefined;

/** The CLI, the language hosts and the venv, or why one of them is missing. */
export function languageTools(): { tools?: LanguageTools; missing?: string } {
  located ??= locate();
  return located;
}

/**
 * `describe` for a suite of Python or YAML programs under the real CLI. `needs` names further
 * prerequisites (the provider plugin, the SDK): the reason one is missing, or undefined.
 */
export function describeLanguages(
  name: string,
  body: (tools: LanguageTools) => void,
  needs: () => string | undefined = () => undefined,
): void {
  const { tools, missing } = languageTools();
  describeNeeding(name, missing ?? needs(), () => body(tools as LanguageTools), {
    timeout: ENGINE_TEST_LIMIT_MS,
  });
}

export interface ProgramOptions {
  /** The project's files, by name (`Pulumi.yaml`, `__main__.py`, ...). */
  files: Record<string, string>;
  /** Environment of every command (and so of the language host and the program). */
  env?: Record<string, string>;
  /** Leave OPSMANAGER_PYTHON_VENV unset: the program's Pulumi.yaml names its venv. */
  noVenvVariable?: boolean;
}

/** Makes a project of `files` and its stack `dev` in a new temporary folder. */
export async function makeProgramStack(tools: LanguageTools, options: ProgramOptions): Promise<EngineStack> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-language-"));
  const dir = path.join(root, "project");
  const home = path.join(root, "home");
  const backend = path.join(root, "state");
  const passphrase = randomBytes(12).toString("hex");
  const stack = "dev";
  try {
    await Promise.all([dir, home, backend].map((d) => fsp.mkdir(d, { recursive: true })));
    for (const [name, text] of Object.entries(options.files)) {
      await fsp.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await fsp.writeFile(path.join(dir, name), text);
    }
    const env = baseEnv(tools.bin, home, backend, passphrase);
    env.PATH = `${tools.bin}${path.delimiter}${tools.hosts}${path.delimiter}${process.env.PATH ?? ""}`;
    delete env.OPSMANAGER_PYTHON_VENV;
    if (!options.noVenvVariable) env.OPSMANAGER_PYTHON_VENV = tools.venv;
    Object.assign(env, options.env);

    const pulumi = async (args: string[], opts: RunOptions = {}): Promise<RunResult> => {
      const result = await runProcess(path.join(tools.bin, "pulumi"), [...args, "--color=never"], {
        cwd: dir,
        env: { ...env, ...opts.env },
        input: opts.input,
        onSpawn: opts.onSpawn,
      });
      if (result.code !== 0 && !opts.allowFailure) {
        throw new Error(
          `pulumi ${args.join(" ")} exited ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
        );
      }
      return result;
    };
    await pulumi(["stack", "init", stack]);
    return {
      dir,
      stack,
      passphrase,
      pulumi,
      async config(key, value, opts = {}) {
        const flags = [...(opts.secret ? ["--secret"] : []), ...(opts.path ? ["--path"] : [])];
        await pulumi(["config", "set", ...flags, key], { input: `${value}\n` });
      },
      async exportState() {
        return JSON.parse((await pulumi(["stack", "export"])).stdout) as StackState;
      },
      async installPackage() {
        throw new Error("a Python or YAML project has no Node.js package to install");
      },
      tempFile: (name) => path.join(root, name),
      async cleanup() {
        await fsp.rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await fsp.rm(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Why the provider plugin cannot serve a Python or YAML program of this clone, or undefined when it
 * can: its executable, its built entry and the schema it answers GetSchema with.
 */
export function pluginMissing(): string | undefined {
  const needed = [
    "bin/pulumi-resource-opsmanager",
    "dist/provider/plugin/bundle.js",
    "provider/plugin/schema.json",
  ];
  const absent = needed.filter((file) => !fs.existsSync(path.join(repoRoot(), file)));
  if (absent.length === 0) return undefined;
  return `the provider plugin (${absent.join(", ")} missing: \`npm run build\` once provider/plugin/ is there)`;
}

/** Why the Python SDK is not in the venv, or undefined when it is (`tools/python/venv.sh` installs it). */
export function pythonSdkMissing(venv: string | undefined): string | undefined {
  if (!fs.existsSync(path.join(repoRoot(), "sdk", "python"))) {
    return "the Python SDK (sdk/python, generated from provider/plugin/schema.json)";
  }
  if (venv && !fs.existsSync(path.join(venv, "sdk-installed"))) {
    return `the Python SDK installed in ${venv} (run \`bash tools/python/venv.sh\`)`;
  }
  return undefined;
}

/**
 * The files of an example folder as a project of its own: its `Pulumi.yaml` with the plugin's folder
 * (`path: ../../bin`) made absolute, so that the copy finds this clone's plugin.
 */
export function exampleFiles(example: string): Record<string, string> {
  const from = path.join(repoRoot(), "examples", example);
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(from)) {
    if (!fs.statSync(path.join(from, name)).isFile()) continue;
    files[name] = fs.readFileSync(path.join(from, name), "utf8");
  }
  const project = files["Pulumi.yaml"];
  if (!project?.includes("path: ../../bin"))
    throw new Error(`examples/${example}/Pulumi.yaml names no ../../bin`);
  files["Pulumi.yaml"] = project.replace("path: ../../bin", `path: ${path.join(repoRoot(), "bin")}`);
  return files;
}

/** The outputs a TypeScript example exports (`export const name`), sorted. */
export function typescriptOutputs(example: string): string[] {
  const program = fs.readFileSync(path.join(repoRoot(), "examples", example, "index.ts"), "utf8");
  return [...program.matchAll(/^export const (\w+)/gm)].map((m) => m[1]!).sort();
}

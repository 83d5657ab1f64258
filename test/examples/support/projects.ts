/**
 * Pulumi projects loaded the way `pulumi up` loads them, without the CLI:
 *
 * - the project file is read as the CLI reads it (js-yaml, as the SDK's Automation API does), and held to
 *   the rules the CLI checks when it loads a project (pulumi/pulumi `pkg/workspace`, project config);
 * - the working directory and entry point come from the project's `main` as the nodejs language host
 *   computes them (`getPwdMain` in pulumi-language-nodejs);
 * - the program runs in a process of its own, as the language host starts it: the SDK's own program
 *   runner (`@pulumi/pulumi/cmd/run/run.js`, `run()`) loads it from there, with TypeScript through the
 *   ts-node the SDK finds, under `pulumi.runtime.setMocks`, with the config the engine would pass
 *   (`PULUMI_CONFIG`: the project's defaults and the stack's settings) (see `run-program.cjs`);
 * - this process stands in for the engine: every resource the program registers goes through Pulumi's
 *   real dynamic-provider host, started in the program's directory as the engine starts it, and the
 *   first check or create that fails ends the run with its message, as it ends a deployment.
 */
import { type ChildProcess, fork } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { type Host, NO_ENV, type Props, startHost } from "../../support/host";
import { fillNodeModules, PACKAGE_NAME, repoRoot } from "../../support/program-dir";

const req = createRequire(__filename);
/** The stack every program runs as. */
export const STACK = "dev";
// Marks a node_modules made here, so that one left behind by an interrupted run is remade.
const MADE_HERE = ".made-by-test-examples";
/** How long a program may run before it is stopped and its run fails. */
const RUN_LIMIT_MS = 100_000;

interface ConfigDecl {
  type?: string;
  items?: unknown;
  default?: unknown;
  value?: unknown;
}

/** A Pulumi project: its Pulumi.yaml, read. */
export interface Project {
  /** Directory of the Pulumi.yaml. */
  root: string;
  name: string;
  main?: string;
  typescript: boolean;
  config: Record<string, ConfigDecl | string | number | boolean>;
}

/** js-yaml, as the SDK depends on it (the Automation API reads project files with it). */
function parseYaml(text: string): unknown {
  const sdkDir = path.dirname(req.resolve("@pulumi/pulumi/package.json"));
  const yaml = req(req.resolve("js-yaml", { paths: [sdkDir] })) as { load(text: string): unknown };
  return yaml.load(text);
}

/** Reads the project whose Pulumi.yaml is `file`. */
export function readProject(file: string): Project {
  const doc = parseYaml(fs.readFileSync(file, "utf8")) as {
    name: string;
    main?: string;
    runtime: string | { name: string; options?: { typescript?: boolean } };
    config?: Project["config"];
  };
  const options = typeof doc.runtime === "object" ? doc.runtime.options : undefined;
  return {
    root: path.dirname(file),
    name: doc.name,
    main: doc.main,
    typescript: options?.typescript !== false,
    config: doc.config ?? {},
  };
}

/**
 * `getPwdMain` of pulumi-language-nodejs: no `main`, the project's directory and `.`; a directory, that
 * directory and `.`; a file, its folder and its name.
 */
export function pwdMain(root: string, main: string | undefined): { pwd: string; program: string } {
  if (!main) return { pwd: root, program: "." };
  const target = path.resolve(root, main);
  if (fs.statSync(target).isDirectory()) return { pwd: target, program: "." };
  return { pwd: path.dirname(target), program: path.basename(target) };
}

/** A project-config key as the engine names it: a key without a namespace is the project's. */
const fullKey = (project: Project, key: string) => (key.includes(":") ? key : `${project.name}:${key}`);

/** What the CLI refuses when it loads a project file (pulumi/pulumi pkg/workspace, project config). */
export function configProblems(project: Project): string[] {
  const problems: string[] = [];
  for (const [key, decl] of Object.entries(project.config)) {
    if (typeof decl !== "object" || decl === null) continue;
    const ownKey = !key.includes(":") || key.startsWith(`${project.name}:`);
    if (!ownKey && decl.type !== undefined) {
      problems.push(
        `Configuration key '${key}' is not namespaced by the project and should not define a type`,
      );
    }
    if (!ownKey && decl.default !== undefined) {
      problems.push(
        `Configuration key '${key}' is not namespaced by the project and should not define a default value`,
      );
    }
    if (decl.default !== undefined && decl.value !== undefined) {
      problems.push(`project config '${key}' cannot have both a 'default' and 'value' attribute`);
    }
    if (decl.type === "array" && decl.items === undefined) {
      problems.push(
        `The configuration key '${key}' declares an array but does not specify the underlying type via the 'items' attribute`,
      );
    }
  }
  return problems;
}

/** The config the engine hands the program and the provider: project defaults, then the stack's. */
function engineConfig(project: Project, stack: Record<string, string>): Record<string, string> {
  const config: Record<string, string> = {};
  for (const [key, decl] of Object.entries(project.config)) {
    const value = typeof decl === "object" && decl !== null ? (decl.value ?? decl.default) : decl;
    if (value === undefined) continue;
    config[fullKey(project, key)] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return { ...config, ...stack };
}

/**
 * Makes the program's `node_modules` in `pwd` as an install of the packed package would (see
 * `fillNodeModules`), the program's other dependencies linked from the repository's. `pwd` must be
 * outside the repository (a copy under the system's temporary folder): the tests never write in the
 * clone they test. One left behind by an interrupted run is remade.
 */
export async function ensureInstall(pwd: string): Promise<void> {
  const inside = path.relative(repoRoot(), path.resolve(pwd));
  if (!inside.startsWith("..") && !path.isAbsolute(inside)) {
    throw new Error(`refusing to write node_modules inside the repository (${pwd}): copy the project first`);
  }
  const nodeModules = path.join(pwd, "node_modules");
  if (fs.existsSync(nodeModules) && !fs.existsSync(path.join(nodeModules, MADE_HERE))) return;
  fs.rmSync(nodeModules, { recursive: true, force: true });
  const manifestFile = path.join(pwd, "package.json");
  const manifest = fs.existsSync(manifestFile)
    ? (JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<
        string,
        Record<string, string> | undefined
      >)
    : {};
  const named = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
  await fillNodeModules(nodeModules, { links: named.filter((name) => name !== PACKAGE_NAME) });
  fs.writeFileSync(path.join(nodeModules, MADE_HERE), "");
}

/** A project copied out of the repository, with its program's `node_modules` made in the copy. */
export interface CopiedProject {
  project: Project;
  /** Removes the copy. Safe to call more than once. */
  cleanup(): void;
}

/**
 * Copies `project` into a folder of its own under `os.tmpdir()`, keeping its place in the repository's
 * layout (the Pulumi.yaml, and its program's folder, at the same paths below the copy's root, so that a
 * `main` such as `examples/quickstart/` leads to the same files), without any `node_modules` or build
 * output of the clone's; then makes the program's `node_modules` in the copy ({@link ensureInstall}).
 */
export async function copyProject(project: Project): Promise<CopiedProject> {
  const root = repoRoot();
  const copyRoot = fs.mkdtempSync(path.join(os.tmpdir(), "opsm-example-"));
  const cleanup = () => fs.rmSync(copyRoot, { recursive: true, force: true });
  try {
    const projectDir = path.relative(root, project.root);
    const programDir = path.relative(root, pwdMain(project.root, project.main).pwd);
    const skip = new Set(["node_modules", "bin", "package-lock.json"]);
    fs.cpSync(path.join(root, programDir), path.join(copyRoot, programDir), {
      recursive: true,
      filter: (src) => !skip.has(path.basename(src)),
    });
    fs.mkdirSync(path.join(copyRoot, projectDir), { recursive: true });
    fs.copyFileSync(path.join(project.root, "Pulumi.yaml"), path.join(copyRoot, projectDir, "Pulumi.yaml"));
    const copied = readProject(path.join(copyRoot, projectDir, "Pulumi.yaml"));
    await ensureInstall(pwdMain(copied.root, copied.main).pwd);
    return { project: copied, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** A resource the program registered, as the provider host checked and created it. */
export interface Registration {
  type: string;
  name: string;
  urn: string;
  inputs: Props;
  checked: Props;
  id: string;
  outputs: Props;
}

/** A program's run that ended well. */
export interface Run {
  registrations: Registration[];
  /** The program's stack outputs. */
  outputs: unknown;
  /** The file the SDK's runner loaded as the program. */
  entry: string | undefined;
  /** The provider host that created the resources, still running: the caller closes it. */
  host: Host;
}

type FromProgram =
  | { kind: "register"; seq: number; type: string; name: string; inputs: Props }
  | { kind: "error"; message: string; stack?: string }
  | { kind: "done"; entry?: string; outputs: unknown };

const PROVIDER_ENV = Object.keys(NO_ENV);

/**
 * Runs the project's program as the language host does, standing in for the engine: each registration
 * is checked and created through a provider host started in the program's directory, and its outputs go
 * back to the program. Rejects with the message of the first check or create that fails, or of the
 * first error the program reports, as soon as it happens; the program's process is then stopped, and so
 * is the provider host.
 */
export async function runProgram(project: Project, stackConfig: Record<string, string>): Promise<Run> {
  const { pwd, program } = pwdMain(project.root, project.main);
  const config = engineConfig(project, stackConfig);
  const host = await startHost({ cwd: pwd, env: { ...NO_ENV } });
  let child: ChildProcess | undefined;
  try {
    await host.configure(config);
    const registrations: Registration[] = [];
    const ran = await new Promise<{ entry?: string; outputs: unknown }>((resolve, reject) => {
      // What the language host sets for the program (and cmd/run/index.js from its flags); nothing of
      // the provider's settings from this process's environment.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PULUMI_CONFIG: JSON.stringify(config),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(["opsmanager:privateKey"]),
        PULUMI_NODEJS_PROJECT: project.name,
        PULUMI_NODEJS_STACK: STACK,
        PULUMI_NODEJS_ROOT_DIRECTORY: project.root,
        PULUMI_NODEJS_DRY_RUN: "false",
      };
      for (const name of PROVIDER_ENV) delete env[name];
      if (project.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
      else delete env.PULUMI_NODEJS_TYPESCRIPT;
      const args = { pwd, program, project: project.name, stack: STACK, root: project.root };
      const proc = fork(path.join(__dirname, "run-program.cjs"), [JSON.stringify(args)], {
        cwd: pwd,
        env,
        execArgv: [],
        serialization: "advanced",
        stdio: ["ignore", "pipe", "pipe", "ipc"],
      });
      child = proc;
      let output = "";
      proc.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      proc.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      const fail = (message: string) => {
        clearTimeout(limit);
        reject(new Error(`the program of ${project.name} (${pwd}) failed: ${message}`));
      };
      const limit = setTimeout(
        () => fail(`it had not finished after ${RUN_LIMIT_MS} ms; its output:\n${output}`),
        RUN_LIMIT_MS,
      );
      proc.on("message", (message: FromProgram) => {
        if (message.kind === "error") return fail(message.stack ?? message.message);
        if (message.kind === "done") {
          clearTimeout(limit);
          return resolve(message);
        }
        register(message).then(
          ({ id, state }) => proc.send({ seq: message.seq, id, state }),
          (error: Error) => {
            proc.send({ seq: message.seq, error: error.message });
            fail(error.message);
          },
        );
      });
      proc.once("error", (error) => fail(error.message));
      proc.once("exit", (code, signal) =>
        fail(
          `its process exited (code ${code}, signal ${signal}) before it finished; its output:\n${output}`,
        ),
      );
    });
    return { registrations, outputs: ran.outputs, entry: ran.entry, host };

    async function register(args: { type: string; name: string; inputs: Props }) {
      const urn = `urn:pulumi:${STACK}::${project.name}::${args.type}::${args.name}`;
      const checked = await host.check(urn, {}, args.inputs);
      if (checked.failures.length > 0) {
        throw new Error(`check of ${args.name} failed: ${JSON.stringify(checked.failures)}`);
      }
      const created = await host.create(urn, checked.inputs);
      registrations.push({
        type: args.type,
        name: args.name,
        inputs: args.inputs,
        urn,
        checked: checked.inputs,
        id: created.id,
        outputs: created.properties,
      });
      return { id: created.id, state: created.properties };
    }
  } catch (error) {
    await host.close();
    throw error;
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

/**
 * Every Pulumi project in the repository, loaded the way `pulumi up` loads it, without the CLI:
 *
 * - the project file is held to the rules the CLI checks when it loads a project (pulumi/pulumi
 *   `pkg/workspace`, project config: no type or default on another namespace's key, an array's items);
 * - the working directory and entry point come from the project's `main` as the nodejs language host
 *   computes them (`getPwdMain` in pulumi-language-nodejs), and the SDK's own program runner
 *   (`@pulumi/pulumi/cmd/run/run.js`, `run()`) loads the program from there, with TypeScript through the
 *   ts-node the SDK finds, under `pulumi.runtime.setMocks`, with the config the engine would pass
 *   (`PULUMI_CONFIG`: the project's defaults and the stack's settings);
 * - every resource the program registers goes through Pulumi's real dynamic-provider host, started in
 *   the program's directory as the engine starts it: check and create, then a second check and diff
 *   that show no change, read, and delete, against the local simulator.
 *
 * The program's `node_modules` is made here as an install of the packed package would be (unless the
 * example already has one, which is then what runs), and removed afterwards.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { type Host, JOB_TYPE, KEY_TYPE, NO_ENV, type Props, startHost } from "../support/host";
import { fillNodeModules, PACKAGE_NAME, repoRoot } from "../support/program-dir";

const req = createRequire(__filename);
const ROOT = repoRoot();
const STACK = "dev";
// Marks a node_modules this test made, so that one left behind by an interrupted run is remade.
const MADE_HERE = ".made-by-test-examples";

interface ConfigDecl {
  type?: string;
  items?: unknown;
  default?: unknown;
  value?: unknown;
}

interface Project {
  /** Directory of the Pulumi.yaml, relative to the repository. */
  dir: string;
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

/** The repository's Pulumi projects: a Pulumi.yaml at the root, and one in each folder of examples/. */
function projects(): Project[] {
  const files = [path.join(ROOT, "Pulumi.yaml")];
  for (const entry of fs.readdirSync(path.join(ROOT, "examples"), { withFileTypes: true })) {
    if (entry.isDirectory()) files.push(path.join(ROOT, "examples", entry.name, "Pulumi.yaml"));
  }
  return files
    .filter((file) => fs.existsSync(file))
    .map((file) => {
      const doc = parseYaml(fs.readFileSync(file, "utf8")) as {
        name: string;
        main?: string;
        runtime: string | { name: string; options?: { typescript?: boolean } };
        config?: Project["config"];
      };
      const root = path.dirname(file);
      const options = typeof doc.runtime === "object" ? doc.runtime.options : undefined;
      return {
        dir: path.relative(ROOT, root) || ".",
        root,
        name: doc.name,
        main: doc.main,
        typescript: options?.typescript !== false,
        config: doc.config ?? {},
      };
    });
}

/**
 * `getPwdMain` of pulumi-language-nodejs: no `main`, the project's directory and `.`; a directory, that
 * directory and `.`; a file, its folder and its name.
 */
function pwdMain(root: string, main: string | undefined): { pwd: string; program: string } {
  if (!main) return { pwd: root, program: "." };
  const target = path.resolve(root, main);
  if (fs.statSync(target).isDirectory()) return { pwd: target, program: "." };
  return { pwd: path.dirname(target), program: path.basename(target) };
}

/** A project-config key as the engine names it: a key without a namespace is the project's. */
const fullKey = (project: Project, key: string) => (key.includes(":") ? key : `${project.name}:${key}`);

/** What the CLI refuses when it loads a project file (pulumi/pulumi pkg/workspace, project config). */
function configProblems(project: Project): string[] {
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

/** The program's node_modules: made from the packed package unless the example has an install. */
async function ensureInstall(pwd: string): Promise<() => void> {
  const nodeModules = path.join(pwd, "node_modules");
  if (fs.existsSync(nodeModules) && !fs.existsSync(path.join(nodeModules, MADE_HERE))) return () => {};
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
  return () => fs.rmSync(nodeModules, { recursive: true, force: true });
}

interface Registration {
  type: string;
  name: string;
  urn: string;
  inputs: Props;
  checked: Props;
  id: string;
  outputs: Props;
}

interface Run {
  registrations: Registration[];
  outputs: unknown;
  host: Host;
}

const PROVIDER_ENV = Object.keys(NO_ENV);

/**
 * Runs the project's program as the language host does, standing in for the engine: each registration
 * is checked and created through the provider host, and its outputs go back to the program.
 */
async function runProgram(project: Project, stackConfig: Record<string, string>): Promise<Run> {
  const { pwd, program } = pwdMain(project.root, project.main);
  const config = engineConfig(project, stackConfig);
  const host = await startHost({ cwd: pwd, env: { ...NO_ENV } });
  await host.configure(config);

  // The program's own SDK: one instance for the runner, the mocks and every resource.
  const sdk = createRequire(path.join(pwd, "package.json"));
  const pulumi = sdk("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  const state = sdk("@pulumi/pulumi/runtime/state") as { withLocalStorage<T>(f: () => T): T };
  const settings = sdk("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> };
  // cmd/run/index.js parses the process's argv when loaded (and exits on ours); run.js only needs its
  // exit code for a program that cannot be found.
  const runIndex = sdk.resolve("@pulumi/pulumi/cmd/run/index.js");
  if (!req.cache[runIndex]) {
    const Module = req("node:module") as new (id: string) => NodeJS.Module;
    const standIn = new Module(runIndex);
    standIn.filename = runIndex;
    standIn.loaded = true;
    standIn.exports = { nodeJSProcessExitedAfterLoggingUserActionableMessage: 32 };
    req.cache[runIndex] = standIn;
  }
  const { run } = sdk("@pulumi/pulumi/cmd/run/run.js") as {
    run(
      argv: object,
      started: () => void,
      logged: (e: Error) => void,
      reported: (e: Error) => boolean,
    ): Promise<unknown>;
  };

  const registrations: Registration[] = [];
  const mocks: import("@pulumi/pulumi").runtime.Mocks = {
    async newResource(args) {
      if (!args.type.startsWith("pulumi-nodejs:dynamic")) return { id: undefined, state: args.inputs };
      const urn = `urn:pulumi:${STACK}::${project.name}::${args.type}::${args.name}`;
      const checked = await host.check(urn, {}, args.inputs);
      if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
      const created = await host.create(urn, checked.inputs);
      registrations.push({
        ...args,
        urn,
        checked: checked.inputs,
        id: created.id,
        outputs: created.properties,
      });
      return { id: created.id, state: created.properties };
    },
    call(args) {
      throw new Error(`the program invoked ${args.token}, which these tests do not serve`);
    },
  };

  // What the language host sets for the program (and cmd/run/index.js from its flags).
  const env: Record<string, string | undefined> = {
    ...Object.fromEntries(PROVIDER_ENV.map((name) => [name, undefined])),
    PULUMI_CONFIG: JSON.stringify(config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(["opsmanager:privateKey"]),
    PULUMI_NODEJS_TYPESCRIPT: project.typescript ? "true" : undefined,
    PULUMI_NODEJS_PROJECT: project.name,
    PULUMI_NODEJS_STACK: STACK,
    PULUMI_NODEJS_ROOT_DIRECTORY: project.root,
    PULUMI_NODEJS_DRY_RUN: "false",
  };
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const cwd = process.cwd();
  const extensions = { ...req.extensions };
  const listeners = {
    uncaughtException: process.listeners("uncaughtException"),
    unhandledRejection: process.listeners("unhandledRejection"),
  };
  const exit = process.exit;
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  setEnv(env);
  process.exit = ((code?: number) => {
    throw new Error(`the program runner exited with code ${code}`);
  }) as typeof process.exit;
  try {
    const argv = { _: [program], pwd, project: project.name, stack: STACK, "root-directory": project.root };
    const outputs = await state.withLocalStorage(async () => {
      await pulumi.runtime.setMocks(mocks, project.name, STACK, false);
      const result = await run(
        argv,
        () => {},
        () => {},
        () => false,
      );
      await settings.waitForRPCs();
      return result;
    });
    return { registrations, outputs, host };
  } finally {
    process.exit = exit;
    process.chdir(cwd);
    setEnv(saved);
    // ts-node registers itself for the program's tsconfig; the next program registers its own.
    for (const ext of Object.keys(req.extensions)) {
      if (extensions[ext]) req.extensions[ext] = extensions[ext];
      else delete req.extensions[ext];
    }
    for (const listener of process.listeners("uncaughtException")) {
      if (!listeners.uncaughtException.includes(listener))
        process.removeListener("uncaughtException", listener);
    }
    for (const listener of process.listeners("unhandledRejection")) {
      if (!listeners.unhandledRejection.includes(listener))
        process.removeListener("unhandledRejection", listener);
    }
  }
}

const stripProvider = ({ __provider, ...rest }: Props) => rest;
const sorted = (values: unknown) => [...(values as string[])].sort();
const orgRoles = (sim: Simulator, id: string) =>
  sim.state
    .apiKey(id)!
    .roles.filter((r) => r.orgId !== undefined)
    .map((r) => r.roleName)
    .sort();

let sim: Simulator;
let stackConfig: Record<string, string>;

beforeAll(async () => {
  // The simulator as `npm run example` starts it: the examples' defaults name its seeded org and keys.
  sim = await startSimulator({});
  stackConfig = {
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": sim.privateKey,
  };
});

afterAll(async () => {
  await sim?.close();
});

describe("the repository's Pulumi projects", () => {
  it("give every example its own project, whose program is the example's folder", () => {
    const pwds = projects().map((p) => path.relative(ROOT, pwdMain(p.root, p.main).pwd));
    const examples = fs
      .readdirSync(path.join(ROOT, "examples"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join("examples", e.name));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(pwds).toContain(example);
      // The runner resolves "." through the nearest package.json: the example's own.
      expect(fs.existsSync(path.join(ROOT, example, "package.json"))).toBe(true);
    }
  });
});

for (const project of projects()) {
  describe(`the project in ${project.dir} (${project.name})`, () => {
    let result: Run;
    let removeInstall: () => void = () => {};
    const created: Registration[] = [];
    // The simulator's keys as they were before the program ran.
    const before = new Map<string, { desc: string; roles: string[] }>();

    beforeAll(async () => {
      removeInstall = await ensureInstall(pwdMain(project.root, project.main).pwd);
    }, 120_000);

    afterAll(async () => {
      await result?.host.close();
      removeInstall();
    });

    it("declares its config as the CLI accepts it when it loads the project", () => {
      expect(configProblems(project)).toEqual([]);
    });

    it("runs its own program, which registers resources that the provider host creates", async () => {
      for (const key of sim.state.apiKeys())
        before.set(key.id, { desc: key.desc, roles: orgRoles(sim, key.id) });
      sim.resetRequests();
      result = await runProgram(project, stackConfig);
      created.push(...result.registrations);
      expect(created.map((r) => r.type)).not.toEqual([]);
      for (const r of created) expect([KEY_TYPE, JOB_TYPE]).toContain(r.type);
      // A job is created with one POST, never two; a key is adopted with at most one PATCH.
      const jobs = created.filter((r) => r.type === JOB_TYPE);
      const posts = sim.requests.filter((q) => q.method === "POST" && q.status < 500);
      expect(posts.map((q) => q.body)).toEqual(jobs.map((r) => stripProvider(r.checked)).map(postBody));
      for (const job of jobs) expect(sim.state.jobs().map((j) => j.id)).toContain(job.id);
      for (const key of created.filter((r) => r.type === KEY_TYPE)) {
        const patches = sim.requests.filter(
          (q) => q.method === "PATCH" && q.path.endsWith(`/apiKeys/${key.id}`),
        );
        expect(patches.length).toBeLessThanOrEqual(1);
        const onServer = sim.state.apiKey(key.id)!;
        if (key.inputs.desc !== undefined) expect(onServer.desc).toBe(key.inputs.desc);
        if (key.inputs.roles !== undefined) expect(orgRoles(sim, key.id)).toEqual(sorted(key.inputs.roles));
        expect(key.outputs).toMatchObject({
          apiKeyId: key.id,
          desc: onServer.desc,
          roles: orgRoles(sim, key.id),
        });
      }
      // The program's stack outputs are plain, known values.
      expect(JSON.stringify(result.outputs)).not.toContain("undefined");
    });

    it("shows no change on a second check and diff, without a request", async () => {
      expect(created).not.toEqual([]);
      sim.resetRequests();
      for (const r of created) {
        const checked = await result.host.check(r.urn, r.checked, r.inputs);
        expect(checked.failures).toEqual([]);
        expect(checked.inputs).toEqual(r.checked);
        const diff = await result.host.diff(r.id, r.urn, r.outputs, checked.inputs);
        expect(diff).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
      }
      expect(sim.requests).toEqual([]);
    });

    it("reads back what it created, a job as the server now shows it", async () => {
      expect(created).not.toEqual([]);
      for (const r of created) {
        const read = await result.host.read(r.id, r.urn, r.outputs);
        expect(read.id).toBe(r.id);
        if (r.type === KEY_TYPE) {
          expect(stripProvider(read.properties)).toEqual(stripProvider(r.outputs));
          continue;
        }
        // The inputs as declared; the job as the server shows it, which the create left to the first refresh.
        const { status, creationDate, ...shown } = serverView(read.properties);
        expect(declaredOf(read.properties)).toEqual(declaredOf(r.outputs));
        expect([status, creationDate, shown.expirationDate]).toEqual([
          "IN_PROGRESS",
          expect.stringMatching(/Z$/),
          expect.stringMatching(/Z$/),
        ]);
        expect(serverView(r.outputs).status).toBe("");
      }
    });

    it("deletes what it created: a key back as it was where it restores on delete, a job deleted on the server", async () => {
      expect(created).not.toEqual([]);
      sim.resetRequests();
      for (const r of [...created].reverse()) await result.host.delete(r.id, r.urn, r.outputs);
      const restoring = created.filter((r) => r.type === KEY_TYPE && r.outputs.restoreOnDelete === true);
      for (const key of restoring) {
        expect({ desc: sim.state.apiKey(key.id)!.desc, roles: orgRoles(sim, key.id) }).toEqual(
          before.get(key.id),
        );
      }
      const patched = new Set(
        sim.requests.filter((q) => q.method === "PATCH").map((q) => q.path.split("/").pop()),
      );
      // Only a key that restores on delete is written to, once, and only when it manages desc or roles.
      const managing = restoring.filter((key) => {
        const managed = key.outputs.managed as { desc: boolean; roles: boolean };
        return managed.desc || managed.roles;
      });
      expect([...patched].sort()).toEqual(managing.map((key) => key.id).sort());
      expect(sim.requests.filter((q) => q.method === "POST")).toEqual([]);
      // One DELETE per job, and the job is gone from the server.
      const jobs = created.filter((r) => r.type === JOB_TYPE);
      const deleted = sim.requests.filter((q) => q.method === "DELETE" && q.authenticated);
      expect(deleted.map((q) => q.path.split("/").pop()).sort()).toEqual(jobs.map((j) => j.id).sort());
      for (const job of jobs) expect(sim.state.job(job.id)).toBeUndefined();
    });
  });
}

/** What the server shows of a job, among a LogCollectionJob's outputs. */
const SERVER_VIEW = [
  "status",
  "creationDate",
  "expirationDate",
  "downloadUrl",
  "userId",
  "rootResourceName",
  "rootResourceType",
  "uncompressedSizeTotalBytes",
];
const serverView = (outputs: Props): Props =>
  Object.fromEntries(SERVER_VIEW.map((name) => [name, outputs[name]]));
const declaredOf = (outputs: Props): Props =>
  Object.fromEntries(Object.entries(stripProvider(outputs)).filter(([name]) => !SERVER_VIEW.includes(name)));

/** The body of a job's POST, as the provider sends it for these inputs. */
function postBody(inputs: Props): Props {
  const { groupId, ...body } = inputs;
  return body;
}

/**
 * Every Pulumi project in the repository (the top-level one, whose program is the quickstart, and one in
 * each folder of examples/), loaded the way `pulumi up` loads it, without the CLI (see
 * `support/projects.ts`): the project file held to the rules the CLI checks when it loads a project; the
 * working directory and entry point from the project's `main` as the nodejs language host computes them
 * (`getPwdMain`); the SDK's own program runner (`@pulumi/pulumi/cmd/run/run.js`) loading the program in a
 * process of its own, with TypeScript through the ts-node the SDK finds, under `pulumi.runtime.setMocks`,
 * with the config the engine would pass; every resource the program registers through Pulumi's real
 * dynamic-provider host, started in the program's directory as the engine starts it: check and create,
 * then a second check and diff that show no change, read, and delete, against the local simulators: the
 * default server, and two servers named in `opsmanager:servers` as `npx pulumi-opsmanager-simulator
 * --servers 2` starts them, each resource checked against the simulator of the server it names. The
 * default server is a simulator of its own, seeded as the first named one is, so that a resource sent
 * to the wrong one of the two is seen there.
 *
 * Each deployment runs in a copy of its project under the system's temporary folder, whose program's
 * `node_modules` is made there as an install of the packed package would be: nothing is written in the
 * repository. Each deployment has simulators of its own, so no test sees another's resources: the
 * checks, diffs and reads look at one deployment (in hosts of their own, as a second `pulumi up` or a
 * `pulumi refresh` is a process of its own) and the destroy at another, made for it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type NamedSimulator, startSimulator, startSimulators } from "../../simulator";
import type { RecordedRequest, Simulator } from "../../simulator/types";
import { type Host, JOB_TYPE, KEY_TYPE, NO_ENV, type Props, startHost } from "../support/host";
import { repoRoot } from "../support/program-dir";
import {
  type CopiedProject,
  configProblems,
  copyProject,
  type Project,
  pwdMain,
  type Registration,
  type Run,
  readProject,
  runProgram,
} from "./support/projects";

const ROOT = repoRoot();

/** The repository's Pulumi projects: a Pulumi.yaml at the top level, and one in each folder of examples/. */
function projects(): Project[] {
  const files = [path.join(ROOT, "Pulumi.yaml")];
  for (const entry of fs.readdirSync(path.join(ROOT, "examples"), { withFileTypes: true })) {
    if (entry.isDirectory()) files.push(path.join(ROOT, "examples", entry.name, "Pulumi.yaml"));
  }
  return files.filter((file) => fs.existsSync(file)).map(readProject);
}

/** Where a project's Pulumi.yaml is, relative to the repository. */
const dirOf = (project: Project) => path.relative(ROOT, project.root) || ".";

const ASSIGN_TYPE = "pulumi-nodejs:dynamic/opsmanager:ApiKeyProjectAssignment";
const API = "/api/public/v1.0";

const stripProvider = ({ __provider, ...rest }: Props) => rest;
const isCreatedKey = (r: Registration) =>
  r.type === KEY_TYPE && (r.outputs.managed as { by?: string } | undefined)?.by === "created";
const sorted = (values: unknown) => [...(values as string[])].sort();
const orgRoles = (sim: Simulator, id: string) =>
  sim.state
    .apiKey(id)!
    .roles.filter((r) => r.orgId !== undefined)
    .map((r) => r.roleName)
    .sort();

/** The simulators one deployment reaches, as `npm run example` and `--servers 2` start them. */
interface World {
  /** The default server. */
  sim: Simulator;
  /** The servers named in `opsmanager:servers`. */
  named: NamedSimulator[];
  stackConfig: Record<string, string>;
  /** Every simulator a program may reach. */
  sims(): Simulator[];
  /** The simulator of the server a registration names; the default server's when it names none. */
  simOf(r: Registration): Simulator;
  /** Every request of every simulator since the last reset. */
  requests(): RecordedRequest[];
  resetRequests(): void;
  /** Once every host is closed: no simulator holds a connection, and their logs are final. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

async function startWorld(): Promise<World> {
  // The examples' defaults name the simulators' seeded orgs and keys.
  const sim = await startSimulator({});
  const named = await startSimulators(2);
  const sims = () => [sim, ...named];
  return {
    sim,
    named,
    stackConfig: {
      "opsmanager:baseUrl": sim.url,
      "opsmanager:publicKey": sim.publicKey,
      "opsmanager:privateKey": sim.privateKey,
      "opsmanager:servers": JSON.stringify(
        Object.fromEntries(
          named.map((s) => [s.name, { baseUrl: s.url, publicKey: s.publicKey, privateKey: s.privateKey }]),
        ),
      ),
    },
    sims,
    simOf: (r) => {
      const server = r.inputs.server ?? r.outputs.server;
      return server === undefined ? sim : named.find((s) => s.name === server)!;
    },
    requests: () => sims().flatMap((s) => s.requests),
    resetRequests: () => {
      for (const s of sims()) s.resetRequests();
    },
    idle: async () => {
      await Promise.all(sims().map((s) => s.idle()));
    },
    close: async () => {
      await Promise.all(sims().map((s) => s.close()));
    },
  };
}

/** A project deployed once: its copy, its own simulators, and what its program's run did. */
interface Deployment {
  copy: CopiedProject;
  world: World;
  result: Run;
  created: Registration[];
  /** The simulators' keys as they were before the program ran, by simulator URL and key id. */
  before: Map<string, { desc: string; roles: string[] }>;
  /** Each simulator's request log as the run left it (later calls do not change it). */
  runLog: Map<Simulator, RecordedRequest[]>;
  /** A new host in the program's directory, configured with the stack's settings, closed with the rest. */
  newHost(): Promise<Host>;
  close(): Promise<void>;
}

async function deploy(project: Project): Promise<Deployment> {
  const world = await startWorld();
  const hosts: Host[] = [];
  let copy: CopiedProject | undefined;
  try {
    copy = await copyProject(project);
    const before = new Map<string, { desc: string; roles: string[] }>();
    for (const s of world.sims())
      for (const key of s.state.apiKeys())
        before.set(`${s.url} ${key.id}`, { desc: key.desc, roles: orgRoles(s, key.id) });
    const result = await runProgram(copy.project, world.stackConfig);
    // The deployment is over: its host exits, and its connections with it.
    await result.host.close();
    const pwd = pwdMain(copy.project.root, copy.project.main).pwd;
    const deployed = copy;
    return {
      copy: deployed,
      world,
      result,
      created: [...result.registrations],
      before,
      runLog: new Map(world.sims().map((s) => [s, [...s.requests]])),
      async newHost() {
        const host = await startHost({ cwd: pwd, env: { ...NO_ENV } });
        hosts.push(host);
        await host.configure(world.stackConfig);
        return host;
      },
      async close() {
        await Promise.all(hosts.map((h) => h.close()));
        await world.close();
        deployed.cleanup();
      },
    };
  } catch (error) {
    await Promise.all(hosts.map((h) => h.close()));
    await world.close();
    copy?.cleanup();
    throw error;
  }
}

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

  it("have a top-level project whose program is the quickstart, with the config the quickstart reads", () => {
    const top = readProject(path.join(ROOT, "Pulumi.yaml"));
    const quickstart = readProject(path.join(ROOT, "examples", "quickstart", "Pulumi.yaml"));
    const { pwd, program } = pwdMain(top.root, top.main);
    expect([path.relative(ROOT, pwd), program]).toEqual([path.join("examples", "quickstart"), "."]);
    // `new pulumi.Config()` reads the running project's namespace: the same keys, with the same defaults.
    expect(top.config).toEqual(quickstart.config);
    // A name of its own, so that its stacks are not the example's on a shared backend.
    expect(top.name).not.toBe(quickstart.name);
  });
});

for (const project of projects()) {
  describe(`the project in ${dirOf(project)} (${project.name})`, () => {
    // The deployment the checks, diffs and reads look at: made once, by whichever test needs it first, and
    // never changed by them (their calls are in hosts of their own). The destroy makes one of its own.
    let shared: Promise<Deployment> | undefined;
    const deployed: Promise<Deployment>[] = [];
    const deployment = (): Promise<Deployment> => {
      if (shared === undefined) {
        shared = deploy(project);
        deployed.push(shared);
      }
      return shared;
    };

    afterAll(async () => {
      for (const d of await Promise.allSettled(deployed)) if (d.status === "fulfilled") await d.value.close();
    });

    it("declares its config as the CLI accepts it when it loads the project", () => {
      expect(configProblems(project)).toEqual([]);
    });

    it("runs its own program, which registers resources that the provider host creates", async () => {
      const { copy, world, result, created, runLog } = await deployment();
      const { sims, simOf, named } = world;
      const logOf = (s: Simulator) => runLog.get(s) ?? [];
      const requests = () => sims().flatMap(logOf);
      // The runner loaded the program's own file (through the program's package.json), not the package.
      expect(result.entry).toBe(path.join(pwdMain(copy.project.root, copy.project.main).pwd, "index.ts"));
      expect(created.map((r) => r.type)).not.toEqual([]);
      for (const r of created) expect([KEY_TYPE, JOB_TYPE, ASSIGN_TYPE]).toContain(r.type);
      // A job is created with one POST, never two; a key is adopted with at most one PATCH; a key made
      // with one POST, and its access list with one more.
      const jobs = created.filter((r) => r.type === JOB_TYPE);
      const posts = requests().filter((q) => q.method === "POST" && q.status < 500);
      expect(posts.filter((q) => q.path.endsWith("/logCollectionJobs")).map((q) => q.body)).toEqual(
        jobs.map((r) => stripProvider(r.checked)).map(postBody),
      );
      const made = created.filter(isCreatedKey);
      expect(posts.filter((q) => /\/orgs\/\w+\/apiKeys$/.test(q.path)).map((q) => q.body)).toEqual(
        made.map((r) => ({ desc: r.inputs.desc, roles: sorted(r.inputs.roles) })),
      );
      const listPosts = posts.filter((q) => q.path.endsWith("/accessList"));
      for (const key of made.filter((r) => r.inputs.accessList !== undefined)) {
        expect(
          listPosts.filter((q) => q.path === `${API}/orgs/${key.inputs.orgId}/apiKeys/${key.id}/accessList`),
        ).toHaveLength(1);
        expect(key.outputs.accessList).toEqual(sorted(key.checked.accessList));
      }
      expect(posts).toHaveLength(jobs.length + made.length + listPosts.length);
      // An assignment is one PATCH of the project's key with its roles.
      for (const a of created.filter((r) => r.type === ASSIGN_TYPE)) {
        const { apiKeyId, groupId } = a.outputs as { apiKeyId: string; groupId: string };
        const patches = logOf(simOf(a)).filter(
          (q) => q.method === "PATCH" && q.path === `${API}/groups/${groupId}/apiKeys/${apiKeyId}`,
        );
        expect(patches.map((q) => q.body)).toEqual([{ roles: sorted(a.checked.roles) }]);
        const held = simOf(a)
          .state.apiKey(apiKeyId)!
          .roles.filter((r) => r.groupId === groupId)
          .map((r) => r.roleName)
          .sort();
        expect(held).toEqual(sorted(a.inputs.roles));
      }
      for (const job of jobs)
        expect(
          simOf(job)
            .state.jobs()
            .map((j) => j.id),
        ).toContain(job.id);
      for (const key of created.filter((r) => r.type === KEY_TYPE)) {
        const own = simOf(key);
        const patches = logOf(own).filter(
          (q) => q.method === "PATCH" && q.path.endsWith(`/orgs/${key.outputs.orgId}/apiKeys/${key.id}`),
        );
        expect(patches.length).toBeLessThanOrEqual(1);
        const onServer = own.state.apiKey(key.id)!;
        if (key.inputs.desc !== undefined) expect(onServer.desc).toBe(key.inputs.desc);
        if (key.inputs.roles !== undefined) expect(orgRoles(own, key.id)).toEqual(sorted(key.inputs.roles));
        expect(key.outputs).toMatchObject({
          apiKeyId: key.id,
          desc: onServer.desc,
          roles: orgRoles(own, key.id),
        });
      }
      // A resource on a named server was made there: its simulator holds it, and its requests went to
      // that server only (no other simulator was asked about its id).
      for (const r of created.filter((c) => c.inputs.server !== undefined)) {
        expect(named.map((s) => s.name)).toContain(r.inputs.server);
        expect(r.outputs.server).toBe(r.inputs.server);
        if (r.type === KEY_TYPE) expect(simOf(r).state.apiKey(r.id)).toBeDefined();
      }
      for (const r of created) {
        for (const other of sims().filter((s) => s !== simOf(r))) {
          expect(logOf(other).filter((q) => q.path.includes(r.id))).toEqual([]);
        }
      }
      // The program's stack outputs are plain, known values.
      expect(JSON.stringify(result.outputs)).not.toContain("undefined");
    }, 120_000);

    it("shows no change on a second check and diff, without a request", async () => {
      const d = await deployment();
      expect(d.created).not.toEqual([]);
      // A second `pulumi up`: a host of its own.
      const host = await d.newHost();
      d.world.resetRequests();
      for (const r of d.created) {
        const checked = await host.check(r.urn, r.checked, r.inputs);
        expect(checked.failures).toEqual([]);
        expect(checked.inputs).toEqual(r.checked);
        const diff = await host.diff(r.id, r.urn, r.outputs, checked.inputs);
        expect(diff).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
      }
      // Counted once that host has exited and no simulator holds a connection: nothing was, or will be, sent.
      await host.close();
      await d.world.idle();
      expect(d.world.requests()).toEqual([]);
    });

    it("reads back what it created, a job as the server now shows it", async () => {
      const d = await deployment();
      const { created } = d;
      const { simOf } = d.world;
      expect(created).not.toEqual([]);
      // `pulumi refresh`: a host of its own.
      const host = await d.newHost();
      for (const r of created) {
        const read = await host.read(r.id, r.urn, r.outputs);
        expect(read.id).toBe(r.id);
        if (r.type === KEY_TYPE) {
          // Project roles given after the key was made (an assignment in the same program) show on read.
          const projectRoles = simOf(r)
            .state.apiKey(r.id)!
            .roles.filter((role) => role.groupId !== undefined)
            .map((role) => ({ groupId: role.groupId, roleName: role.roleName }))
            .sort((a, b) => a.groupId!.localeCompare(b.groupId!) || a.roleName.localeCompare(b.roleName));
          expect(stripProvider(read.properties)).toEqual({ ...stripProvider(r.outputs), projectRoles });
          continue;
        }
        if (r.type === ASSIGN_TYPE) {
          expect(stripProvider(read.properties)).toEqual(stripProvider(r.outputs));
          continue;
        }
        // The inputs as declared; the job as the server shows it, which its create already showed (from the
        // project's listing that starts after the POSTs).
        const { status, creationDate, ...shown } = serverView(read.properties);
        expect(declaredOf(read.properties)).toEqual(declaredOf(r.outputs));
        expect([status, creationDate, shown.expirationDate]).toEqual([
          "IN_PROGRESS",
          expect.stringMatching(/Z$/),
          expect.stringMatching(/Z$/),
        ]);
        expect([serverView(r.outputs).status, serverView(r.outputs).creationDate]).toEqual([
          status,
          creationDate,
        ]);
      }
    });

    it("deletes what it created: a key back as it was where it restores on delete, a job deleted on the server", async () => {
      // A deployment of its own, which this test alone destroys.
      const own = deploy(project);
      deployed.push(own);
      const d = await own;
      const { created, before } = d;
      const { simOf, requests } = d.world;
      expect(created).not.toEqual([]);
      d.world.resetRequests();
      // In a host of its own, as `pulumi destroy` is a process of its own: within the deployment that
      // created it, an assignment's delete is its replacement's to skip.
      const destroy = await d.newHost();
      for (const r of [...created].reverse()) await destroy.delete(r.id, r.urn, r.outputs);
      // Counted once that host has exited and no simulator holds a connection: the logs are final.
      await destroy.close();
      await d.world.idle();
      const restoring = created.filter((r) => r.type === KEY_TYPE && r.outputs.restoreOnDelete === true);
      for (const key of restoring) {
        const server = simOf(key);
        expect({ desc: server.state.apiKey(key.id)!.desc, roles: orgRoles(server, key.id) }).toEqual(
          before.get(`${server.url} ${key.id}`),
        );
      }
      const patched = new Set(
        requests()
          .filter((q) => q.method === "PATCH")
          .map((q) => q.path.split("/").pop()),
      );
      // Only a key that restores on delete is written to, once, and only when it manages desc or roles.
      const managing = restoring.filter((key) => {
        const managed = key.outputs.managed as { desc: boolean; roles: boolean };
        return managed.desc || managed.roles;
      });
      expect([...patched].sort()).toEqual(managing.map((key) => key.id).sort());
      expect(requests().filter((q) => q.method === "POST")).toEqual([]);
      // One DELETE per job, per key made and per assignment, and each is gone from the server.
      const jobs = created.filter((r) => r.type === JOB_TYPE);
      const made = created.filter(isCreatedKey);
      const assignments = created.filter((r) => r.type === ASSIGN_TYPE);
      const deleted = requests().filter((q) => q.method === "DELETE" && q.authenticated);
      expect(deleted.map((q) => q.path.slice(API.length)).sort()).toEqual(
        [
          ...jobs.map((j) => `/groups/${j.outputs.groupId}/logCollectionJobs/${j.id}`),
          ...made.map((k) => `/orgs/${k.outputs.orgId}/apiKeys/${k.id}`),
          ...assignments.map((a) => `/groups/${a.outputs.groupId}/apiKeys/${a.outputs.apiKeyId}`),
        ].sort(),
      );
      for (const job of jobs) expect(simOf(job).state.job(job.id)).toBeUndefined();
      for (const key of made) expect(simOf(key).state.apiKey(key.id)).toBeUndefined();
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

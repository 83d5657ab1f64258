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
 * The program's `node_modules` is made here as an install of the packed package would be (unless the
 * example already has one, which is then what runs), and removed afterwards.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NamedSimulator, startSimulator, startSimulators } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { JOB_TYPE, KEY_TYPE, NO_ENV, type Props, startHost } from "../support/host";
import { repoRoot } from "../support/program-dir";
import {
  configProblems,
  ensureInstall,
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

let sim: Simulator;
let named: NamedSimulator[] = [];
let stackConfig: Record<string, string>;

/** Every simulator a program may reach. */
const sims = (): Simulator[] => [sim, ...named];
/** The simulator of the server a registration names; the default server's when it names none. */
const simOf = (r: Registration): Simulator => {
  const server = r.inputs.server ?? r.outputs.server;
  return server === undefined ? sim : named.find((s) => s.name === server)!;
};
/** Every request of every simulator since the last reset. */
const requests = () => sims().flatMap((s) => s.requests);
const resetRequests = () => {
  for (const s of sims()) s.resetRequests();
};

beforeAll(async () => {
  // The simulators as `npm run example` and `--servers 2` start them: the examples' defaults name their
  // seeded orgs and keys.
  sim = await startSimulator({});
  named = await startSimulators(2);
  stackConfig = {
    "opsmanager:baseUrl": sim.url,
    "opsmanager:publicKey": sim.publicKey,
    "opsmanager:privateKey": sim.privateKey,
    "opsmanager:servers": JSON.stringify(
      Object.fromEntries(
        named.map((s) => [s.name, { baseUrl: s.url, publicKey: s.publicKey, privateKey: s.privateKey }]),
      ),
    ),
  };
});

afterAll(async () => {
  await Promise.all(sims().map((s) => s.close()));
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
    let result: Run;
    let removeInstall: () => void = () => {};
    const created: Registration[] = [];
    // The simulator's keys as they were before the program ran.
    const before = new Map<string, { desc: string; roles: string[] }>();
    const rolesBefore = (s: Simulator) => {
      for (const key of s.state.apiKeys())
        before.set(`${s.url} ${key.id}`, { desc: key.desc, roles: orgRoles(s, key.id) });
    };

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
      for (const s of sims()) rolesBefore(s);
      resetRequests();
      result = await runProgram(project, stackConfig);
      // The runner loaded the program's own file (through the program's package.json), not the package.
      expect(result.entry).toBe(path.join(pwdMain(project.root, project.main).pwd, "index.ts"));
      created.push(...result.registrations);
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
        const patches = simOf(a).requests.filter(
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
        const patches = own.requests.filter(
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
          expect(other.requests.filter((q) => q.path.includes(r.id))).toEqual([]);
        }
      }
      // The program's stack outputs are plain, known values.
      expect(JSON.stringify(result.outputs)).not.toContain("undefined");
    }, 120_000);

    it("shows no change on a second check and diff, without a request", async () => {
      expect(created).not.toEqual([]);
      resetRequests();
      for (const r of created) {
        const checked = await result.host.check(r.urn, r.checked, r.inputs);
        expect(checked.failures).toEqual([]);
        expect(checked.inputs).toEqual(r.checked);
        const diff = await result.host.diff(r.id, r.urn, r.outputs, checked.inputs);
        expect(diff).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
      }
      expect(requests()).toEqual([]);
    });

    it("reads back what it created, a job as the server now shows it", async () => {
      expect(created).not.toEqual([]);
      for (const r of created) {
        const read = await result.host.read(r.id, r.urn, r.outputs);
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
      expect(created).not.toEqual([]);
      resetRequests();
      // In a host of its own, as `pulumi destroy` is a process of its own: within the deployment that
      // created it, an assignment's delete is its replacement's to skip.
      const destroy = await startHost({ cwd: pwdMain(project.root, project.main).pwd, env: { ...NO_ENV } });
      try {
        await destroy.configure(stackConfig);
        for (const r of [...created].reverse()) await destroy.delete(r.id, r.urn, r.outputs);
      } finally {
        await destroy.close();
      }
      const restoring = created.filter((r) => r.type === KEY_TYPE && r.outputs.restoreOnDelete === true);
      for (const key of restoring) {
        const own = simOf(key);
        expect({ desc: own.state.apiKey(key.id)!.desc, roles: orgRoles(own, key.id) }).toEqual(
          before.get(`${own.url} ${key.id}`),
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

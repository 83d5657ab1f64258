/**
 * One program, two Ops Managers: servers named in the structured stack config `opsmanager:servers`,
 * each resource choosing one by its `server` input, through Pulumi's real dynamic-provider host against
 * two simulators at once. Each server sees only its own requests; a name no server has, or a server
 * missing a setting, is refused at check before any request; neither server's credentials reach state,
 * outputs, errors, the serialized providers or the host's output.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import { JOB_TYPE, KEY_TYPE, type Props, strip, urn } from "../support/host";
import {
  checkThenCreate,
  failureOf,
  type ProviderFixture,
  providerFixture,
} from "../support/provider-fixture";

const req = createRequire(__filename);
const ASSIGNMENT_TYPE = "pulumi-nodejs:dynamic/opsmanager:ApiKeyProjectAssignment";

const SECRETS = {
  dc1: "6f1d2c3b-srv1-4e5f-a6b7-RECOGNIZABLE31",
  dc2: "6f1d2c3b-srv2-4e5f-a6b7-RECOGNIZABLE32",
} as const;
type Name = keyof typeof SECRETS;
const NAMES: Name[] = ["dc1", "dc2"];

let fixture: ProviderFixture;
let assignmentText: string;
const sims = {} as Record<Name, Simulator>;
/** Every whole private key a create handed out. */
const handedOut: string[] = [];

beforeAll(async () => {
  sims.dc1 = await startSimulator({
    seed: {
      orgId: "5f00000000000000000000a1",
      groupId: "5f00000000000000000000b1",
      publicKey: "adminone",
      privateKey: SECRETS.dc1,
      randomSeed: 11,
    },
  });
  sims.dc2 = await startSimulator({
    seed: {
      orgId: "5f00000000000000000000a2",
      groupId: "5f00000000000000000000b2",
      publicKey: "admintwo",
      privateKey: SECRETS.dc2,
      randomSeed: 22,
    },
  });
  fixture = await providerFixture();
  assignmentText = req(
    "../../dist/provider/resources/shared/providers.js",
  ).API_KEY_PROJECT_ASSIGNMENT_PROVIDER;
});

afterAll(async () => {
  await fixture?.close(...Object.values(SECRETS), ...handedOut);
  await Promise.all(NAMES.map((n) => sims[n]?.close()));
});

beforeEach(() => {
  for (const n of NAMES) sims[n].resetRequests();
});

/** `opsmanager:servers` as the engine hands it to a dynamic provider: the object's JSON text. */
function serversConfig(servers: Record<string, Record<string, unknown>>): Record<string, string> {
  return { "opsmanager:servers": JSON.stringify(servers) };
}

const both = () =>
  serversConfig(
    Object.fromEntries(
      NAMES.map((n) => [n, { baseUrl: sims[n].url, publicKey: sims[n].publicKey, privateKey: SECRETS[n] }]),
    ),
  );

const withAssignment = (props: Props): Props => ({ ...props, __provider: assignmentText });

/** What crossed the wire to `name`'s server since the last reset: `METHOD path` (`challenge` unauthenticated). */
const wire = (name: Name) =>
  sims[name].requests.map((q) =>
    q.authenticated ? `${q.method} ${q.path.replace(/^\/api\/public\/v1\.0/, "")}` : "challenge",
  );

/** Every id and credential of the other server: none may appear in a request to this one. */
const foreign = (name: Name): string[] => {
  const other = sims[name === "dc1" ? "dc2" : "dc1"];
  return [other.orgId, other.groupId, other.publicKey, ...other.state.apiKeys(other.orgId).map((k) => k.id)];
};

/** A key of `name`'s org to adopt, not its admin key. */
const keyToAdopt = (name: Name) =>
  sims[name].state.apiKeys(sims[name].orgId).find((k) => k.publicKey !== sims[name].publicKey)!;

describe("two servers named in stack config, through the host", () => {
  it("adopts a key on each, every request going to the server the resource names, at N + 1 round trips each", async () => {
    const host = await fixture.newHost(both());
    const adopted = await Promise.all(
      NAMES.map(async (name) => {
        const key = keyToAdopt(name);
        const inputs = fixture.withKey({
          orgId: sims[name].orgId,
          apiKeyId: key.id,
          desc: `managed on ${name}`,
          restoreOnDelete: true,
          server: name,
        });
        const created = await checkThenCreate(host, urn(KEY_TYPE, `key-${name}`), inputs);
        return { name, key, created };
      }),
    );
    for (const { name, key, created } of adopted) {
      expect(created.id).toBe(key.id);
      expect(created.properties.server).toBe(name);
      expect(created.properties.desc).toBe(`managed on ${name}`);
      expect(sims[name].state.apiKeys(sims[name].orgId).find((k) => k.id === key.id)?.desc).toBe(
        `managed on ${name}`,
      );
      // One challenge, one listing of the org, one PATCH: nothing else, and nothing of the other server.
      expect(wire(name)).toEqual([
        "challenge",
        expect.stringMatching(new RegExp(`^GET /orgs/${sims[name].orgId}/apiKeys`)),
        `PATCH /orgs/${sims[name].orgId}/apiKeys/${key.id}`,
      ]);
      for (const id of foreign(name))
        expect(sims[name].requests.every((q) => !q.path.includes(id))).toBe(true);
    }

    // Refresh reads each key on its own server; destroy puts each desc back there.
    for (const n of NAMES) sims[n].resetRequests();
    for (const { name, key, created } of adopted) {
      const read = await host.read(
        created.id,
        urn(KEY_TYPE, `key-${name}`),
        fixture.withKey(strip(created.properties)),
      );
      expect(read.id).toBe(key.id);
      expect(read.properties.server).toBe(name);
      expect(read.inputs?.server).toBe(name);
      // `pulumi destroy`: a process of its own.
      await (await fixture.newHost(both())).delete(
        created.id,
        urn(KEY_TYPE, `key-${name}`),
        fixture.withKey(strip(read.properties)),
      );
      expect(sims[name].state.apiKeys(sims[name].orgId).find((k) => k.id === key.id)?.desc).toBe(key.desc);
    }
    for (const name of NAMES) {
      expect(wire(name).filter((w) => w.startsWith("PATCH"))).toEqual([
        `PATCH /orgs/${sims[name].orgId}/apiKeys/${keyToAdopt(name).id}`,
      ]);
      for (const id of foreign(name))
        expect(sims[name].requests.every((q) => !q.path.includes(id))).toBe(true);
    }
  });

  it("creates, refreshes and deletes a key, its project assignment and a log collection job, each on its own server", async () => {
    const host = await fixture.newHost(both());
    // A key made on dc2, assigned to dc2's project; a job on dc1.
    const key = await checkThenCreate(
      host,
      urn(KEY_TYPE, "made"),
      fixture.withKey({ orgId: sims.dc2.orgId, desc: "made on dc2", roles: ["ORG_MEMBER"], server: "dc2" }),
    );
    handedOut.push(key.properties.privateKey as string);
    const assignmentUrn = urn(ASSIGNMENT_TYPE, "assigned");
    const assignment = await checkThenCreate(
      host,
      assignmentUrn,
      withAssignment({
        apiKeyId: key.id,
        groupId: sims.dc2.groupId,
        roles: ["GROUP_READ_ONLY"],
        server: "dc2",
      }),
    );
    const jobUrn = urn(JOB_TYPE, "logs");
    const job = await checkThenCreate(
      host,
      jobUrn,
      fixture.withJob({
        groupId: sims.dc1.groupId,
        resourceType: "REPLICASET",
        resourceName: "rs0",
        sizeRequestedPerFileBytes: 1_000_000,
        logTypes: ["FTDC"],
        redacted: true,
        server: "dc1",
      }),
    );
    expect([key.properties.server, assignment.properties.server, job.properties.server]).toEqual([
      "dc2",
      "dc2",
      "dc1",
    ]);
    expect(sims.dc2.state.apiKeys(sims.dc2.orgId).some((k) => k.id === key.id)).toBe(true);
    expect(sims.dc1.state.apiKeys(sims.dc1.orgId).some((k) => k.id === key.id)).toBe(false);
    expect(sims.dc1.state.jobs(sims.dc1.groupId).map((j) => j.id)).toEqual([job.id]);
    expect(sims.dc2.state.jobs(sims.dc2.groupId)).toEqual([]);
    expect(wire("dc1").filter((w) => !w.startsWith("GET") && w !== "challenge")).toEqual([
      `POST /groups/${sims.dc1.groupId}/logCollectionJobs`,
    ]);
    expect(wire("dc2").filter((w) => !w.startsWith("GET") && w !== "challenge")).toEqual([
      `POST /orgs/${sims.dc2.orgId}/apiKeys`,
      `PATCH /orgs/${sims.dc2.orgId}/apiKeys/${key.id}`,
      `PATCH /groups/${sims.dc2.groupId}/apiKeys/${key.id}`,
    ]);

    // Refresh, then destroy in the engine's order: what depends on the key goes first.
    const keyRead = await host.read(key.id, urn(KEY_TYPE, "made"), fixture.withKey(strip(key.properties)));
    expect(keyRead.properties.privateKey).toBe(key.properties.privateKey);
    const assignmentRead = await host.read(
      assignment.id,
      assignmentUrn,
      withAssignment(strip(assignment.properties)),
    );
    expect(assignmentRead.properties.roles).toEqual(["GROUP_READ_ONLY"]);
    const jobRead = await host.read(job.id, jobUrn, fixture.withJob(strip(job.properties)));
    expect(jobRead.id).toBe(job.id);
    expect(jobRead.inputs?.server).toBe("dc1");
    // `pulumi destroy` runs in a process of its own.
    const destroyer = await fixture.newHost(both());
    for (const n of NAMES) sims[n].resetRequests();
    await destroyer.delete(assignment.id, assignmentUrn, withAssignment(strip(assignmentRead.properties)));
    await destroyer.delete(key.id, urn(KEY_TYPE, "made"), fixture.withKey(strip(keyRead.properties)));
    await destroyer.delete(job.id, jobUrn, fixture.withJob(strip(jobRead.properties)));
    expect(sims.dc2.state.apiKeys(sims.dc2.orgId).some((k) => k.id === key.id)).toBe(false);
    expect(sims.dc1.state.jobs(sims.dc1.groupId)).toEqual([]);
    expect(wire("dc1")).toEqual([
      "challenge",
      `DELETE /groups/${sims.dc1.groupId}/logCollectionJobs/${job.id}`,
    ]);
    expect(wire("dc2")).toEqual([
      "challenge",
      `DELETE /groups/${sims.dc2.groupId}/apiKeys/${key.id}`,
      `DELETE /orgs/${sims.dc2.orgId}/apiKeys/${key.id}`,
    ]);

    // What the stack holds names the server, never what it stands for.
    const everything = JSON.stringify([key, assignment, job, keyRead, assignmentRead, jobRead]);
    for (const n of NAMES) {
      expect(everything).not.toContain(SECRETS[n]);
      expect(everything).not.toContain(sims[n].url);
    }
    for (const text of [fixture.keyText, fixture.jobText, assignmentText]) {
      for (const n of NAMES) expect(text).not.toContain(SECRETS[n]);
      expect(text).not.toContain("servers");
    }
  });

  it("refuses at check a server name no server has, naming the configured ones, before any request", async () => {
    const host = await fixture.newHost(both());
    const checked = await host.check(
      urn(KEY_TYPE, "typo"),
      {},
      fixture.withKey({ orgId: sims.dc1.orgId, apiKeyId: keyToAdopt("dc1").id, server: "dc_1" }),
    );
    expect(checked.failures).toEqual([
      {
        property: "server",
        reason: expect.stringMatching(
          /^server names the server "dc_1", which is not configured; opsmanager:servers has dc1, dc2 \(did you mean "dc1"\?\)/,
        ),
      },
    ]);
    const jobChecked = await host.check(
      urn(JOB_TYPE, "bad-name"),
      {},
      fixture.withJob({
        groupId: sims.dc1.groupId,
        resourceType: "REPLICASET",
        resourceName: "rs0",
        sizeRequestedPerFileBytes: 1,
        logTypes: ["FTDC"],
        redacted: false,
        server: "dc1.baseUrl",
      }),
    );
    expect(jobChecked.failures).toEqual([
      { property: "server", reason: expect.stringContaining("server must be a server's name") },
    ]);
    for (const n of NAMES) expect(sims[n].requests).toEqual([]);
  });

  it("refuses at check a named server missing a setting, naming the exact --path key to set, before any request", async () => {
    const host = await fixture.newHost(
      serversConfig({
        dc1: { baseUrl: sims.dc1.url, publicKey: sims.dc1.publicKey, privateKey: SECRETS.dc1 },
        dc2: { baseUrl: sims.dc2.url, publicKey: sims.dc2.publicKey },
      }),
    );
    const error = await failureOf(
      host.check(
        urn(KEY_TYPE, "incomplete"),
        {},
        fixture.withKey({ orgId: sims.dc2.orgId, apiKeyId: keyToAdopt("dc2").id, server: "dc2" }),
      ),
    );
    expect(error.message).toContain(
      "Ops Manager settings missing: opsmanager:servers.dc2.privateKey. Set opsmanager:servers.dc2.privateKey (pulumi config set --secret --path 'opsmanager:servers.dc2.privateKey' …).",
    );
    // The server that is complete is not held back by the other.
    const fine = await host.check(
      urn(KEY_TYPE, "complete"),
      {},
      fixture.withKey({ orgId: sims.dc1.orgId, apiKeyId: keyToAdopt("dc1").id, server: "dc1" }),
    );
    expect(fine.failures).toEqual([]);
    for (const n of NAMES) expect(sims[n].requests).toEqual([]);
    expect(error.message).not.toContain(SECRETS.dc1);
  });

  it("keeps what each server showed it supports apart: the database log's name, and a listing of jobs", async () => {
    // A server that follows the spec beside the deployed one: `DATABASE`, and no listing of jobs.
    const spec = await startSimulator({
      profile: "spec",
      seed: {
        orgId: "5f00000000000000000000a3",
        groupId: "5f00000000000000000000b3",
        publicKey: "adminthr",
        randomSeed: 33,
      },
    });
    try {
      const config = serversConfig({
        dc1: { baseUrl: sims.dc1.url, publicKey: sims.dc1.publicKey, privateKey: SECRETS.dc1 },
        spec: { baseUrl: spec.url, publicKey: spec.publicKey, privateKey: spec.privateKey },
      });
      const host = await fixture.newHost(config);
      const jobOn = (server: string, groupId: string, name: string) =>
        checkThenCreate(
          host,
          urn(JOB_TYPE, name),
          fixture.withJob({
            groupId,
            resourceType: "REPLICASET",
            resourceName: name,
            sizeRequestedPerFileBytes: 1_000,
            logTypes: ["MONGODB"],
            redacted: false,
            server,
          }),
        );
      const posts = (sim: Simulator) =>
        sim.requests
          .filter((q) => q.method === "POST" && q.authenticated)
          .map((q) => `${q.status} ${(q.body as { logTypes: string[] }).logTypes}`);
      sims.dc1.resetRequests();
      spec.resetRequests();
      // The spec's server refuses MONGODB once and takes DATABASE; the deployed one takes MONGODB.
      await jobOn("spec", spec.groupId, "spec-1");
      await jobOn("dc1", sims.dc1.groupId, "dc1-1");
      await jobOn("spec", spec.groupId, "spec-2");
      await jobOn("dc1", sims.dc1.groupId, "dc1-2");
      expect(posts(spec)).toEqual(["400 MONGODB", "201 DATABASE", "201 DATABASE"]);
      expect(posts(sims.dc1)).toEqual(["201 MONGODB", "201 MONGODB"]);
      // A refresh: the spec's server has no listing (one 405, one warning naming it); dc1 lists its jobs.
      const jobs = await Promise.all([
        jobOn("spec", spec.groupId, "spec-3"),
        jobOn("dc1", sims.dc1.groupId, "dc1-3"),
      ]);
      const refresh = await fixture.newHost(config);
      const [specJob, dc1Job] = jobs as [
        Awaited<ReturnType<typeof jobOn>>,
        Awaited<ReturnType<typeof jobOn>>,
      ];
      await refresh.read(specJob.id, urn(JOB_TYPE, "spec-3"), fixture.withJob(strip(specJob.properties)));
      const dc1Read = await refresh.read(
        dc1Job.id,
        urn(JOB_TYPE, "dc1-3"),
        fixture.withJob(strip(dc1Job.properties)),
      );
      expect(dc1Read.properties.status).toBe("IN_PROGRESS");
      const warnings = refresh.stderr.match(/has no listing of log collection jobs/g) ?? [];
      expect(warnings).toHaveLength(1);
      expect(refresh.stderr).toContain(`the server at ${spec.url}`);
      expect(refresh.stderr).not.toContain(`the server at ${sims.dc1.url}`);
    } finally {
      await spec.close();
    }
  });

  it("records another name for the same server in place, without a request, for every resource", async () => {
    // `alias` reaches dc1's server: a rename while the old name is still configured.
    const aliased = serversConfig({
      dc1: { baseUrl: sims.dc1.url, publicKey: sims.dc1.publicKey, privateKey: SECRETS.dc1 },
      alias: { baseUrl: `${sims.dc1.url}/`, publicKey: sims.dc1.publicKey, privateKey: SECRETS.dc1 },
      dc2: { baseUrl: sims.dc2.url, publicKey: sims.dc2.publicKey, privateKey: SECRETS.dc2 },
    });
    const host = await fixture.newHost(aliased);
    const key = keyToAdopt("dc1");
    const programs = {
      key: (server: string) =>
        fixture.withKey({ orgId: sims.dc1.orgId, apiKeyId: key.id, restoreOnDelete: true, server }),
      assignment: (server: string) =>
        withAssignment({ apiKeyId: key.id, groupId: sims.dc1.groupId, roles: ["GROUP_READ_ONLY"], server }),
      job: (server: string) =>
        fixture.withJob({
          groupId: sims.dc1.groupId,
          resourceType: "REPLICASET",
          resourceName: "rs-renamed",
          sizeRequestedPerFileBytes: 1_000,
          logTypes: ["FTDC"],
          redacted: false,
          server,
        }),
    };
    const cases = [
      { urn: urn(KEY_TYPE, "renamed-key"), program: programs.key, wrap: fixture.withKey },
      { urn: urn(ASSIGNMENT_TYPE, "renamed-assignment"), program: programs.assignment, wrap: withAssignment },
      { urn: urn(JOB_TYPE, "renamed-job"), program: programs.job, wrap: fixture.withJob },
    ];
    const made = [];
    for (const c of cases) made.push(await checkThenCreate(host, c.urn, c.program("dc1")));
    for (const n of NAMES) sims[n].resetRequests();
    for (const [i, c] of cases.entries()) {
      const state = c.wrap(strip(made[i]!.properties));
      const checked = await host.check(c.urn, state, c.program("alias"));
      expect(checked.failures).toEqual([]);
      const news = c.wrap(checked.inputs);
      const d = await host.diff(made[i]!.id, c.urn, state, news);
      expect(d, c.urn).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
      const updated = await host.update(made[i]!.id, c.urn, state, news);
      expect(updated.properties.server).toBe("alias");
      // Refreshed under its new name, from the same server.
      const read = await host.read(made[i]!.id, c.urn, c.wrap(strip(updated.properties)));
      expect(read.id, c.urn).toBe(made[i]!.id);
      expect(read.inputs?.server).toBe("alias");
      // Named back by its first name, too: the same server.
      const back = await host.diff(made[i]!.id, c.urn, c.wrap(strip(updated.properties)), c.program("dc1"));
      expect(back, c.urn).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    }
    // The refreshes read dc1's listings (keys, the project's keys, its jobs), and nothing was written.
    expect(sims.dc1.requests.filter((q) => q.authenticated && q.method !== "GET")).toEqual([]);
    expect(sims.dc2.requests).toEqual([]);
  });

  it("keeps an assignment replaced under another name for the same server: the old one's delete is skipped", async () => {
    const aliased = serversConfig({
      dc1: { baseUrl: sims.dc1.url, publicKey: sims.dc1.publicKey, privateKey: SECRETS.dc1 },
      alias: { baseUrl: sims.dc1.url.toUpperCase(), publicKey: sims.dc1.publicKey, privateKey: SECRETS.dc1 },
    });
    const key = keyToAdopt("dc1");
    const program = (server: string) =>
      withAssignment({
        apiKeyId: key.id,
        groupId: sims.dc1.groupId,
        roles: ["GROUP_DATA_ACCESS_READ_ONLY"],
        server,
      });
    // Made by an earlier `pulumi up` under dc1; replaced (`--replace`, or the resource renamed) under alias.
    const earlier = await fixture.newHost(aliased);
    const old = await checkThenCreate(earlier, urn(ASSIGNMENT_TYPE, "old-name"), program("dc1"));
    const host = await fixture.newHost(aliased);
    await checkThenCreate(host, urn(ASSIGNMENT_TYPE, "new-name"), program("alias"));
    sims.dc1.resetRequests();
    await host.delete(old.id, urn(ASSIGNMENT_TYPE, "old-name"), withAssignment(strip(old.properties)));
    expect(sims.dc1.requests).toEqual([]);
    const held = sims.dc1.state
      .apiKey(key.id)!
      .roles.filter((r) => r.groupId === sims.dc1.groupId)
      .map((r) => r.roleName);
    expect(held).toEqual(["GROUP_DATA_ACCESS_READ_ONLY"]);
  });

  it("replaces a job and an assignment moved to another server: made there first, then deleted on the old one", async () => {
    const host = await fixture.newHost(both());
    const jobInputs = (name: Name) =>
      fixture.withJob({
        groupId: sims[name].groupId,
        resourceType: "REPLICASET",
        resourceName: "rs-moving",
        sizeRequestedPerFileBytes: 1_000,
        logTypes: ["FTDC"],
        redacted: false,
        server: name,
      });
    const job = await checkThenCreate(host, urn(JOB_TYPE, "moving"), jobInputs("dc1"));
    const moved = await host.diff(
      job.id,
      urn(JOB_TYPE, "moving"),
      fixture.withJob(strip(job.properties)),
      jobInputs("dc2"),
    );
    expect(moved).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["server", "groupId"],
      deleteBeforeReplace: false,
    });
    const assignment = await checkThenCreate(
      host,
      urn(ASSIGNMENT_TYPE, "moving"),
      withAssignment({
        apiKeyId: keyToAdopt("dc1").id,
        groupId: sims.dc1.groupId,
        roles: ["GROUP_OWNER"],
        server: "dc1",
      }),
    );
    const assignmentMoved = await host.diff(
      assignment.id,
      urn(ASSIGNMENT_TYPE, "moving"),
      withAssignment(strip(assignment.properties)),
      withAssignment({ ...strip(assignment.properties), server: "dc2" }),
    );
    expect(assignmentMoved).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["server"],
      deleteBeforeReplace: false,
    });
    // An adopted key that restores on delete is released on the old server before the other adopts one.
    const key = await checkThenCreate(
      host,
      urn(KEY_TYPE, "moving"),
      fixture.withKey({
        orgId: sims.dc1.orgId,
        apiKeyId: keyToAdopt("dc1").id,
        restoreOnDelete: true,
        server: "dc1",
      }),
    );
    const keyMoved = await host.diff(
      key.id,
      urn(KEY_TYPE, "moving"),
      fixture.withKey(strip(key.properties)),
      fixture.withKey({
        orgId: sims.dc1.orgId,
        apiKeyId: keyToAdopt("dc1").id,
        restoreOnDelete: true,
        server: "dc2",
      }),
    );
    expect(keyMoved).toMatchObject({ changes: "DIFF_SOME", replaces: ["server"], deleteBeforeReplace: true });
    // The engine's order: the new job on dc2, then the old one deleted on dc1, each on its own server.
    for (const n of NAMES) sims[n].resetRequests();
    const replacement = await checkThenCreate(host, urn(JOB_TYPE, "moving"), jobInputs("dc2"));
    const destroyer = await fixture.newHost(both());
    await destroyer.delete(job.id, urn(JOB_TYPE, "moving"), fixture.withJob(strip(job.properties)));
    expect(sims.dc2.state.jobs(sims.dc2.groupId).map((j) => j.id)).toContain(replacement.id);
    expect(sims.dc1.state.jobs(sims.dc1.groupId).map((j) => j.id)).not.toContain(job.id);
    expect(wire("dc1")).toEqual([
      "challenge",
      `DELETE /groups/${sims.dc1.groupId}/logCollectionJobs/${job.id}`,
    ]);
  });

  it("names the resource and what to do when its server has since left the config", async () => {
    const host = await fixture.newHost(both());
    const job = await checkThenCreate(
      host,
      urn(JOB_TYPE, "orphan"),
      fixture.withJob({
        groupId: sims.dc2.groupId,
        resourceType: "REPLICASET",
        resourceName: "rs-orphan",
        sizeRequestedPerFileBytes: 1_000,
        logTypes: ["FTDC"],
        redacted: false,
        server: "dc2",
      }),
    );
    const without = await fixture.newHost(
      serversConfig({
        dc1: { baseUrl: sims.dc1.url, publicKey: sims.dc1.publicKey, privateKey: SECRETS.dc1 },
      }),
    );
    for (const n of NAMES) sims[n].resetRequests();
    for (const call of [
      without.read(job.id, urn(JOB_TYPE, "orphan"), fixture.withJob(strip(job.properties))),
      without.delete(job.id, urn(JOB_TYPE, "orphan"), fixture.withJob(strip(job.properties))),
    ]) {
      const error = await failureOf(call);
      expect(error.message).toContain(`LogCollectionJob ${job.id} (project ${sims.dc2.groupId}, server dc2)`);
      expect(error.message).toContain(
        'names the server "dc2", which is not configured; opsmanager:servers has dc1',
      );
      expect(error.message).toContain("A resource the stack holds on it needs it configured");
    }
    expect(sims.dc2.state.jobs(sims.dc2.groupId).map((j) => j.id)).toContain(job.id);
    for (const n of NAMES) expect(sims[n].requests).toEqual([]);
  });

  it("reads state written before servers as the default server's: named as such it is no move, on another server a replacement", async () => {
    // The default server is dc1's, as a stack that names its servers after having had only the default.
    const host = await fixture.newHost({
      "opsmanager:baseUrl": sims.dc1.url,
      "opsmanager:publicKey": sims.dc1.publicKey,
      "opsmanager:privateKey": SECRETS.dc1,
      ...both(),
    });
    const key = keyToAdopt("dc1");
    const state = fixture.withKey({
      orgId: sims.dc1.orgId,
      apiKeyId: key.id,
      publicKey: key.publicKey,
      desc: key.desc,
      roles: [],
      privateKey: "",
      projectRoles: [],
      restoreOnDelete: false,
      adopted: { desc: "", roles: [] },
      managed: { desc: false, roles: false, by: "apiKeyId" },
      keepers: {},
    });
    const news = (server?: string) =>
      fixture.withKey({
        orgId: sims.dc1.orgId,
        apiKeyId: key.id,
        ...(server === undefined ? {} : { server }),
      });
    const diff = (olds: Props, server?: string) => host.diff(key.id, urn(KEY_TYPE, "k"), olds, news(server));
    expect(await diff(state)).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
    expect(await diff(state, "dc1")).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(await diff(state, "dc2")).toMatchObject({ changes: "DIFF_SOME", replaces: ["server"] });
    expect(await diff({ ...state, server: "dc1" }, "dc1")).toMatchObject({ changes: "DIFF_NONE" });
    expect(await diff({ ...state, server: "dc1" })).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    for (const n of NAMES) expect(sims[n].requests).toEqual([]);

    // Without the default server's settings, a move away from it is refused before anything is made.
    const without = await fixture.newHost(both());
    const error = await failureOf(without.diff(key.id, urn(KEY_TYPE, "k"), state, news("dc2")));
    expect(error.message).toContain(
      'the resource moves from the default server to server "dc2", but the default server is no longer configured: keep its settings (opsmanager:baseUrl and the rest) until the move is done',
    );
  });
});

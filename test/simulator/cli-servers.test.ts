/**
 * The simulator's command line with `--servers N`, as a user runs it: several Ops Managers, each its
 * own world, their printed lines pasted into a shell as the named servers of `opsmanager:servers`, and
 * those settings used by the provider's client against each.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Credentials, cleanUp, clientFor, listKeys, paste, runCli, startCli, stop } from "./cli-process";
import { accepts, freePortRun, release, secondPortHeld } from "./ports";

afterEach(cleanUp);

/** What the text prints of one server besides its settings. */
interface Printed {
  url: string;
  orgId: string;
  groupId: string;
  adoptId: string;
  adoptDesc: string;
  stateFile: string | undefined;
}

/** Each server's block of the startup text, by name. */
function printedServers(stdout: string): Record<string, Printed> {
  const servers: Record<string, Printed> = {};
  for (const block of stdout.split(/^# (?=sim\d+ listening on )/m).slice(1)) {
    const head = /^(sim\d+) listening on (\S+) /.exec(block);
    if (!head) throw new Error(`no server in ${block}`);
    servers[head[1]!] = {
      url: head[2]!,
      orgId: /^# Organization \(orgId\): (\w+)$/m.exec(block)?.[1] ?? "",
      groupId: /^# Project \(groupId\): +(\w+)$/m.exec(block)?.[1] ?? "",
      adoptId: /^# A key to adopt: +apiKeyId (\w+),/m.exec(block)?.[1] ?? "",
      adoptDesc: JSON.parse(/^# A key to adopt: .* \((".*")\)$/m.exec(block)?.[1] ?? '""') as string,
      stateFile: /^# State file: (.+)$/m.exec(block)?.[1],
    };
  }
  return servers;
}

/**
 * The `opsmanager:servers` object that `pulumi config set --path` calls build, as a stack would hold
 * it; refuses any call that sets another key.
 */
function serversObject(calls: string[][]): Record<string, Record<string, string>> {
  const servers: Record<string, Record<string, string>> = {};
  for (const args of calls) {
    const key = /^opsmanager:servers\.(\w+)\.(\w+)$/.exec(args.at(-2)!);
    if (!key) throw new Error(`not a named server's setting: ${args.join(" ")}`);
    servers[key[1]!] = { ...servers[key[1]!], [key[2]!]: args.at(-1)! };
  }
  return servers;
}

function credentials(server: Record<string, string> | undefined): Credentials {
  const { baseUrl, publicKey, privateKey } = server ?? {};
  if (!baseUrl || !publicKey || !privateKey) throw new Error("a server without its three settings");
  return { baseUrl, publicKey, privateKey };
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

describe("the simulator's command line with --servers", () => {
  it("--servers 2 prints each server's settings under its name in opsmanager:servers, and each server takes only its own", async () => {
    const { child, stdout } = await startCli(["--port", "0", "--servers", "2", "--keys", "3"]);
    for (const line of stdout.trimEnd().split("\n")) {
      expect(line).toMatch(/^(#|pulumi config set )/);
    }
    expect(stdout).toMatch(
      /^pulumi config set --path 'opsmanager:servers\.sim1\.baseUrl' http:\/\/127\.0\.0\.1:\d+$/m,
    );
    expect(stdout).toContain("\npulumi config set --secret --path 'opsmanager:servers.sim2.privateKey' ");

    const { pulumiCalls, env } = await paste(stdout);
    expect(pulumiCalls.map((args) => args.slice(0, -1))).toEqual(
      ["sim1", "sim2"].flatMap((name) => [
        ["config", "set", "--path", `opsmanager:servers.${name}.baseUrl`],
        ["config", "set", "--path", `opsmanager:servers.${name}.publicKey`],
        ["config", "set", "--secret", "--path", `opsmanager:servers.${name}.privateKey`],
      ]),
    );
    // Named servers live in stack config only: the environment names one server.
    expect(Object.keys(env).filter((name) => name.startsWith("OPSMANAGER_"))).toEqual([]);

    const stack = serversObject(pulumiCalls);
    expect(Object.keys(stack)).toEqual(["sim1", "sim2"]);
    const sim1 = credentials(stack.sim1);
    const sim2 = credentials(stack.sim2);
    const printed = printedServers(stdout);
    const [p1, p2] = [printed.sim1!, printed.sim2!];
    expect([sim1.baseUrl, sim2.baseUrl]).toEqual([p1.url, p2.url]);
    expect(portOf(sim1.baseUrl)).not.toBe(portOf(sim2.baseUrl));
    expect(sim1.publicKey).not.toBe(sim2.publicKey);
    expect(sim1.privateKey).not.toBe(sim2.privateKey);
    for (const p of [p1, p2]) {
      expect(p.orgId).toMatch(/^[0-9a-f]{24}$/);
      expect(p.groupId).toMatch(/^[0-9a-f]{24}$/);
    }
    expect(new Set([p1.orgId, p1.groupId, p2.orgId, p2.groupId]).size).toBe(4);

    // Each server lists its own organization with its own credentials: its own keys, none of the other's.
    const listed: string[][] = [];
    for (const [settings, p] of [
      [sim1, p1],
      [sim2, p2],
    ] as const) {
      const { response, client } = await listKeys(settings, p.orgId);
      expect(response.status).toBe(200);
      expect(client.stats).toMatchObject({ roundTrips: 2, challenges: 1 });
      const ids = (response.body as { results: Array<{ id: string }> }).results.map((k) => k.id);
      expect(ids).toHaveLength(4);
      expect(ids).toContain(p.adoptId);
      listed.push(ids);
    }
    expect(listed[0]!.filter((id) => listed[1]!.includes(id))).toEqual([]);

    // One's credentials are refused by the other: a challenge, then 401.
    for (const [settings, other] of [
      [sim1, p2],
      [sim2, p1],
    ] as const) {
      const wrong = clientFor({ ...settings, baseUrl: other.url });
      await expect(
        wrong.request({ method: "GET", path: `/orgs/${other.orgId}/apiKeys` }),
      ).rejects.toMatchObject({
        name: "AuthenticationError",
        status: 401,
      });
      expect(wrong.stats).toMatchObject({ roundTrips: 2, challenges: 1 });
    }

    // A key adopted on the wrong server is not found there, nor is the other's organization.
    const onSim2 = clientFor(sim2);
    await expect(
      onSim2.request({ method: "GET", path: `/orgs/${p2.orgId}/apiKeys/${p1.adoptId}` }),
    ).rejects.toMatchObject({ status: 400, errorCode: "API_KEY_NOT_FOUND" });
    await expect(onSim2.request({ method: "GET", path: `/orgs/${p1.orgId}/apiKeys` })).rejects.toMatchObject({
      status: 404,
      errorCode: "ORG_NOT_FOUND",
    });

    expect(await stop(child)).toBe(0);
  });

  it("listens on consecutive ports from --port", async () => {
    const first = await freePortRun(3);
    const { child, stdout } = await startCli(["--port", String(first), "--servers", "3", "--keys", "0"]);
    const printed = printedServers(stdout);
    expect(Object.keys(printed)).toEqual(["sim1", "sim2", "sim3"]);
    expect(Object.values(printed).map((p) => p.url)).toEqual([
      `http://127.0.0.1:${first}`,
      `http://127.0.0.1:${first + 1}`,
      `http://127.0.0.1:${first + 2}`,
    ]);
    expect(stdout).toContain(
      `pulumi config set --path 'opsmanager:servers.sim3.baseUrl' http://127.0.0.1:${first + 2}\n`,
    );
    expect(await stop(child)).toBe(0);
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s closes every server: each writes its last change to its state file, and none of their ports takes a connection after",
    async (signal) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-servers-"));
      try {
        const args = ["--port", "0", "--servers", "2", "--keys", "1", "--state", path.join(dir, "s.json")];
        const { child, stdout } = await startCli(args);
        const printed = printedServers(stdout);
        const ports = Object.values(printed).map((p) => portOf(p.url));
        expect(ports).toHaveLength(2);
        expect(await Promise.all(ports.map(accepts))).toEqual([true, true]);
        const stack = serversObject((await paste(stdout)).pulumiCalls);
        for (const name of ["sim1", "sim2"]) {
          const p = printed[name]!;
          await clientFor(credentials(stack[name])).request({
            method: "PATCH",
            path: `/orgs/${p.orgId}/apiKeys/${p.adoptId}`,
            body: { desc: `last change on ${name}` },
          });
        }

        // At once: a change is written a moment after it is made, or when its server is closed.
        expect(await stop(child, signal)).toBe(0);
        expect(await Promise.all(ports.map(accepts))).toEqual([false, false]);
        const descs = (file: string) =>
          (
            JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as { apiKeys: { desc: string }[] }
          ).apiKeys.map((k) => k.desc);
        expect(descs("s.json")).toContain("last change on sim1");
        expect(descs("s-sim2.json")).toContain("last change on sim2");
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("a port in use among them fails naming that port and its server, and exits 1 with none left listening", async () => {
    const { first, holder } = await secondPortHeld();
    try {
      const result = await runCli(["--port", String(first), "--servers", "2"]);
      // The process ends on its own only when nothing listens any more: sim1, started, was closed.
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `simulator failed to start: port ${first + 1} (sim2's) on 127.0.0.1 is already in use (another simulator, perhaps); ` +
          "choose another first port with --port N (--servers 2 takes 2 consecutive ports from it), " +
          "or --port 0 for any free ports\n",
      );
      expect(await accepts(first)).toBe(false);
    } finally {
      await release(holder);
    }
  });

  it.each([
    [["--servers", "0"], "--servers must be from 1 to 16, got 0"],
    [["--servers", "17"], "--servers must be from 1 to 16, got 17"],
    [["--servers", "x"], "--servers needs a non-negative integer, got x"],
    [["--servers", "-1"], "--servers needs a non-negative integer, got -1"],
    [["--servers", "2", "--port", "65535"], "--servers 2 from --port 65535 would go past port 65535"],
  ])(
    "%j is a usage error: its reason and the usage on stderr, exit 2, nothing started",
    async (args, reason) => {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.split("\n")[0]).toBe(reason);
      expect(result.stderr).toContain("\nusage: node dist/simulator/cli.js ");
      expect(result.stderr).toContain("\n  --servers N    start N simulators (1 to 16), sim1, sim2, ...");
    },
  );

  it("with --state FILE, sim1 keeps its state in FILE and sim2 in FILE-sim2, and each finds its own at the next start", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-servers-"));
    try {
      const file = path.join(dir, "sim.json");
      const args = ["--port", "0", "--servers", "2", "--keys", "2", "--state", file];
      const first = await startCli(args);
      const printed = printedServers(first.stdout);
      expect([printed.sim1!.stateFile, printed.sim2!.stateFile]).toEqual([
        file,
        path.join(dir, "sim-sim2.json"),
      ]);
      expect(printed.sim2!.adoptDesc).toBe("generated key 1");
      // A change on sim2 only: its file keeps it, sim1's does not.
      const sim2 = credentials(serversObject((await paste(first.stdout)).pulumiCalls).sim2);
      const patched = await clientFor(sim2).request({
        method: "PATCH",
        path: `/orgs/${printed.sim2!.orgId}/apiKeys/${printed.sim2!.adoptId}`,
        body: { desc: "renamed on sim2" },
      });
      expect(patched.status).toBe(200);
      expect(await stop(first.child)).toBe(0);

      expect(fs.readdirSync(dir).sort()).toEqual(["sim-sim2.json", "sim.json"]);
      const saved = (name: string) =>
        JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as {
          orgId: string;
          apiKeys: { desc: string }[];
        };
      expect(saved("sim.json").orgId).toBe(printed.sim1!.orgId);
      expect(saved("sim-sim2.json").orgId).toBe(printed.sim2!.orgId);
      expect(saved("sim.json").apiKeys.map((k) => k.desc)).not.toContain("renamed on sim2");
      expect(saved("sim-sim2.json").apiKeys.map((k) => k.desc)).toContain("renamed on sim2");

      const second = await startCli(args);
      const again = printedServers(second.stdout);
      expect([again.sim1!.orgId, again.sim1!.adoptId, again.sim1!.adoptDesc]).toEqual([
        printed.sim1!.orgId,
        printed.sim1!.adoptId,
        "generated key 1",
      ]);
      expect([again.sim2!.orgId, again.sim2!.adoptId, again.sim2!.adoptDesc]).toEqual([
        printed.sim2!.orgId,
        printed.sim2!.adoptId,
        "renamed on sim2",
      ]);
      expect(await stop(second.child)).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The simulator's command line as a user runs it: `node dist/simulator/cli.js`, its printed lines
 * pasted into a shell, and those settings used by the provider's client against it.
 */
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SERVERS_CONFIG } from "../../provider/resources/shared/servers";
import { resolveSettings, SETTINGS } from "../../provider/resources/shared/settings";
import { SERVERS_SETTING, STACK_SETTINGS } from "../../simulator/stack-settings";
import { cleanUp, listKeys, paste, runCli, startCli, stop } from "./cli-process";

const DOCUMENTED_PORT = 8180;

afterEach(cleanUp);

function freePortHeld(): Promise<net.Server> {
  const server = net.createServer();
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("the simulator's command line", () => {
  it("prints lines that, pasted into a shell as they are, configure a stack and an environment that authenticate", async () => {
    const { child, stdout } = await startCli(["--port", "0", "--keys", "3"]);
    // Every line is a command or a comment: the whole text can be pasted.
    for (const line of stdout.trimEnd().split("\n")) {
      expect(line).toMatch(/^(#|pulumi config set |export )/);
    }
    const url = /^# Ops Manager simulator listening on (http:\/\/127\.0\.0\.1:(\d+)) /m.exec(stdout);
    expect(url).not.toBeNull();
    expect(Number(url![2])).not.toBe(DOCUMENTED_PORT);
    const orgId = /^# Organization \(orgId\): (\w+)$/m.exec(stdout)?.[1];
    const groupId = /^# Project \(groupId\): +(\w+)$/m.exec(stdout)?.[1];
    const adopt = /^# A key to adopt: +apiKeyId (\w+), publicKey (\w+) /m.exec(stdout);
    expect(orgId).toMatch(/^[0-9a-f]{24}$/);
    expect(groupId).toMatch(/^[0-9a-f]{24}$/);
    expect(adopt).not.toBeNull();

    const { pulumiCalls, env } = await paste(stdout);
    expect(pulumiCalls.map((args) => args.slice(0, -1))).toEqual([
      ["config", "set", "opsmanager:baseUrl"],
      ["config", "set", "opsmanager:publicKey"],
      ["config", "set", "--secret", "opsmanager:privateKey"],
    ]);
    const stack = Object.fromEntries(pulumiCalls.map((args) => [args.at(-2)!, args.at(-1)!]));

    // The stack config, read as the provider reads it (no environment), authenticates.
    const fromStack = resolveSettings((key) => stack[key], {});
    expect(fromStack.baseUrl).toBe(url![1]);
    const viaStack = await listKeys(fromStack, orgId!);
    expect(viaStack.response.status).toBe(200);
    expect(viaStack.client.stats).toMatchObject({ roundTrips: 2, challenges: 1 });
    const listed = (viaStack.response.body as { results: Array<{ id: string; publicKey: string }> }).results;
    expect(listed).toHaveLength(4);
    expect(listed.map((k) => [k.id, k.publicKey])).toContainEqual([adopt![1], adopt![2]]);

    // So does the environment alone.
    const fromEnv = resolveSettings(undefined, env);
    expect(fromEnv).toMatchObject({
      baseUrl: fromStack.baseUrl,
      publicKey: fromStack.publicKey,
      privateKey: fromStack.privateKey,
    });
    expect((await listKeys(fromEnv, orgId!)).response.status).toBe(200);

    expect(await stop(child)).toBe(0);
  });

  it(`listens on the documented port, ${DOCUMENTED_PORT}, when --port is not given`, async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      `--port N       port to listen on (default ${DOCUMENTED_PORT}; 0 for any free port)`,
    );

    const started = await startCli([]).then(
      (s) => s,
      (error: Error) => error,
    );
    if (started instanceof Error) {
      // Something else holds the port: then the message must say so, naming the port and --port.
      expect(started.message).toContain(`port ${DOCUMENTED_PORT} on 127.0.0.1 is already in use`);
    } else {
      expect(started.stdout).toContain(
        `pulumi config set opsmanager:baseUrl http://127.0.0.1:${DOCUMENTED_PORT}\n`,
      );
      expect(started.stdout).toContain(`export OPSMANAGER_BASE_URL=http://127.0.0.1:${DOCUMENTED_PORT}\n`);
      expect(await stop(started.child)).toBe(0);
    }
  });

  it("a port already in use fails with a message that names the port and --port, and exits 1", async () => {
    const holder = await freePortHeld();
    try {
      const { port } = holder.address() as net.AddressInfo;
      const result = await runCli(["--port", String(port)]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `simulator failed to start: port ${port} on 127.0.0.1 is already in use (another simulator, perhaps); ` +
          "choose another with --port N, or --port 0 for any free port\n",
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe("the settings the startup text names", () => {
  it("are the provider's own stack config keys and first environment variables, so the two cannot drift", () => {
    for (const [name, named] of Object.entries(STACK_SETTINGS)) {
      const setting = SETTINGS[name as keyof typeof SETTINGS];
      expect(named.config).toBe(setting.config);
      expect(named.env).toBe(setting.env[0]);
    }
  });

  it("name the provider's own key of named servers, so that --servers prints what the provider reads", () => {
    expect(SERVERS_SETTING.config).toBe(SERVERS_CONFIG);
  });
});

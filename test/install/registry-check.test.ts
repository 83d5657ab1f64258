/**
 * The check behind the suites that install from the npm registry: they skip when the registry cannot
 * be reached, and only then. A real npm, pointed at loopback registries that refuse, answer or hang.
 * The check blocks while npm runs (suites decide to skip when they load), so the registries that
 * answer or hang run in a child process of their own.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registryUnreachable } from "../support/registry";

// One registry that answers every request with the 404 npm gets for a package it does not have, and
// one that takes the connection and never answers; their ports on the first line of stdout.
const REGISTRIES = `
const http = require("node:http");
const net = require("node:net");
const answering = http.createServer((_req, res) => {
  res.writeHead(404, { "content-type": "application/json" });
  res.end('{"error":"Not found"}');
});
const silent = net.createServer((socket) => socket.on("error", () => {}));
answering.listen(0, "127.0.0.1", () =>
  silent.listen(0, "127.0.0.1", () =>
    console.log(JSON.stringify({ answering: answering.address().port, silent: silent.address().port })),
  ),
);
`;

let child: ChildProcess;
let ports: { answering: number; silent: number };

function env(registry: string): NodeJS.ProcessEnv {
  return { ...process.env, npm_config_registry: registry };
}

beforeAll(async () => {
  child = spawn(process.execPath, ["-e", REGISTRIES], { stdio: ["ignore", "pipe", "inherit"] });
  ports = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.slice(0, out.indexOf("\n"))));
    });
    child.once("exit", (code) => reject(new Error(`the registries exited with ${code}`)));
  });
});

afterAll(() => {
  child?.kill();
});

describe("whether the npm registry can be reached", () => {
  it("a registry whose port refuses connections is unreachable, and the reason names the code and the registry", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const reason = registryUnreachable("@pulumi/pulumi", { env: env(`http://127.0.0.1:${port}/`) });
    expect(reason).toBe(
      `\`npm view @pulumi/pulumi\` could not reach the npm registry (http://127.0.0.1:${port}) [ECONNREFUSED]`,
    );
  });

  it("a registry that answers, even with an error, is reachable: a suite must meet that failure, not skip", () => {
    const reason = registryUnreachable("@pulumi/pulumi", {
      env: env(`http://127.0.0.1:${ports.answering}/`),
    });
    expect(reason).toBeUndefined();
  });

  it("a registry that takes the connection and never answers is unreachable once the timeout has passed", () => {
    const started = Date.now();
    const reason = registryUnreachable("@pulumi/pulumi", {
      env: env(`http://127.0.0.1:${ports.silent}/`),
      timeoutMs: 1_000,
    });
    expect(reason).toMatch(
      new RegExp(
        `^\`npm view @pulumi/pulumi\` (got no answer from|could not reach) the npm registry \\(http://127\\.0\\.0\\.1:${ports.silent}\\)`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

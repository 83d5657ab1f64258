import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadUndici } from "../../provider/client/undici";
import { DEFAULT_USER, type DigestServer, startDigestServer } from "./support/digest-server";

const ROOT = path.join(__dirname, "..", "..");

let server: DigestServer;

beforeAll(async () => {
  server = await startDigestServer();
});

afterAll(async () => {
  await server.close();
});

describe("loading undici", () => {
  it("takes the Agent and request modules alone from the installed undici, not its whole index", () => {
    // Should an undici release move these modules, this fails: the client still works through the
    // index, but the first request then costs about 40 ms more.
    expect(loadUndici(require).from).toBe("modules");
  });

  it("falls back to the package index when the modules have moved, and its parts still send requests", async () => {
    const asked: string[] = [];
    const parts = loadUndici((id) => {
      asked.push(id);
      if (id.startsWith("undici/lib/"))
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
      return require(id);
    });
    expect(parts.from).toBe("index");
    expect(asked).toEqual(["undici/lib/dispatcher/agent", "undici"]);
    const agent = new parts.Agent();
    try {
      const response = await parts.request.call(agent, {
        origin: `http://127.0.0.1:${server.port}`,
        path: "/api/public/v1.0/orgs",
        method: "GET",
      });
      await response.body.dump();
      // The digest server challenges a request with no Authorization: the request crossed the wire.
      expect(response.statusCode).toBe(401);
      expect(server.requests.at(-1)?.verdict).toBe("challenge");
    } finally {
      await agent.close();
    }
  });

  it("falls back too when a module that resolves no longer has the expected export", () => {
    const parts = loadUndici((id) => (id === "undici/lib/api" ? {} : require(id)));
    expect(parts.from).toBe("index");
    expect(typeof parts.request).toBe("function");
  });

  it("is not loaded by a check, so a preview never loads undici", () => {
    // A fresh Node process, as the dynamic-provider host is: the built package's host entry, one check.
    const script = `
      const host = require(${JSON.stringify(path.join(ROOT, "dist", "provider", "host.js"))});
      host.orgApiKeyMethods
        .check({}, { orgId: "5f0000000000000000000001", publicKey: "abcdefgh", desc: "d", roles: ["ORG_MEMBER"] })
        .then((result) => {
          const undici = Object.keys(require.cache).filter((f) => f.includes("/node_modules/undici/"));
          process.stdout.write(JSON.stringify({ failures: result.failures, undici: undici.length }));
        });`;
    const out = execFileSync(process.execPath, ["-e", script], {
      env: {
        PATH: process.env.PATH,
        OPSMANAGER_BASE_URL: `http://127.0.0.1:${server.port}`,
        OPSMANAGER_PUBLIC_KEY: DEFAULT_USER,
        OPSMANAGER_PRIVATE_KEY: "not-used-by-a-check",
      },
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({ failures: [], undici: 0 });
  });
});

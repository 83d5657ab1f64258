/**
 * The simulator's server (simulator/server.ts): HTTPS with a certificate of its own, and a close that
 * does not wait for idle keep-alive sockets.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import { itNeeding } from "../support/prerequisite";
import { CHALLENGE_RE, DigestClient, hasOpenssl } from "./support";

describe("the server", () => {
  itNeeding(
    "with tls it serves HTTPS and builds https links",
    hasOpenssl() ? undefined : "openssl",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-sim-tls-"));
      try {
        const keyFile = path.join(dir, "key.pem");
        const certFile = path.join(dir, "cert.pem");
        execFileSync(
          "openssl",
          [
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            keyFile,
            "-out",
            certFile,
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
          ],
          { stdio: "ignore" },
        );
        const sim = await startSimulator({
          tls: { key: fs.readFileSync(keyFile, "utf8"), cert: fs.readFileSync(certFile, "utf8") },
        });
        try {
          expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
          const reply = await new Promise<{ status: number; challenge: string }>((resolve, reject) => {
            https
              .get(
                `${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`,
                { ca: fs.readFileSync(certFile), rejectUnauthorized: false },
                (res) => {
                  res.resume();
                  res.on("end", () =>
                    resolve({
                      status: res.statusCode ?? 0,
                      challenge: String(res.headers["www-authenticate"]),
                    }),
                  );
                },
              )
              .on("error", reject);
          });
          expect(reply.status).toBe(401);
          expect(reply.challenge).toMatch(CHALLENGE_RE);
        } finally {
          await sim.close();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("close returns promptly with idle keep-alive sockets open", async () => {
    const sim = await startSimulator();
    const agent = new http.Agent({ keepAlive: true });
    await new DigestClient(sim, sim.publicKey, sim.privateKey, agent).call(
      "GET",
      `/orgs/${sim.orgId}/apiKeys`,
    );
    const started = Date.now();
    await sim.close();
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });
});

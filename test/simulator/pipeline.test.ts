/**
 * A request's way through the simulator (simulator/pipeline.ts): what is refused before authentication,
 * how the target is read, where links point, a fault's answer against a cut connection, and a step
 * that throws.
 */
import * as net from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator";
import type { Simulator } from "../../simulator/types";
import {
  API_PATH,
  authorization,
  DigestClient,
  exchange,
  json,
  type ListBody,
  nonceOf,
  validJobFor,
} from "./support";

const MAX_BODY_BYTES = 1024 * 1024;

describe("a request's way through the simulator", () => {
  let sim: Simulator;
  let client: DigestClient;
  const keysPath = () => `/orgs/${sim.orgId}/apiKeys`;
  beforeAll(async () => {
    sim = await startSimulator();
    client = new DigestClient(sim);
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    sim.faults.clear();
    sim.resetRequests();
    client.nonce = undefined;
  });

  /**
   * A signed GET as raw HTTP/1.0, with this Host header or none: Node's server refuses an HTTP/1.1
   * request without one before the simulator sees it, an HTTP/1.0 one reaches it.
   */
  async function rawGet(
    relPath: string,
    host: string | undefined,
  ): Promise<{ status: number; body: string }> {
    const nonce = nonceOf(await exchange(`${sim.apiRoot}${relPath}`));
    const uri = `${API_PATH}${relPath}`;
    const head = [
      `GET ${uri} HTTP/1.0`,
      `Authorization: ${authorization(sim.publicKey, sim.privateKey, "GET", uri, nonce, 1)}`,
      ...(host === undefined ? [] : [`Host: ${host}`]),
    ];
    return new Promise((resolve, reject) => {
      const socket = net.connect(sim.port, "127.0.0.1");
      const chunks: Buffer[] = [];
      socket.on("data", (c: Buffer) => chunks.push(c));
      socket.on("error", reject);
      socket.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const split = text.indexOf("\r\n\r\n");
        resolve({ status: Number(text.split(" ")[1]), body: text.slice(split + 4) });
      });
      socket.end(`${head.join("\r\n")}\r\n\r\n`);
    });
  }

  it("a body over 1 MiB is 413 PAYLOAD_TOO_LARGE before authentication, recorded with at most 1 MiB of it", async () => {
    const reply = await exchange(`${sim.apiRoot}${keysPath()}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "x".repeat(MAX_BODY_BYTES + 1),
    });
    expect(reply.status).toBe(413);
    expect(reply.headers["www-authenticate"]).toBeUndefined();
    expect(reply.headers["x-vendor-service-version"]).toBeTruthy();
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(json(reply)).toEqual({
      detail: `The request body exceeds ${MAX_BODY_BYTES} bytes.`,
      error: 413,
      errorCode: "PAYLOAD_TOO_LARGE",
      parameters: [],
      reason: "Payload Too Large",
    });
    const [entry] = sim.requests;
    expect(entry).toMatchObject({ method: "POST", status: 413, authenticated: false });
    expect(entry?.rawBody.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(sim.requests).toHaveLength(1);
  });

  it("a path outside the API root is 404 RESOURCE_NOT_FOUND without a challenge; the API root itself is challenged", async () => {
    for (const outside of ["/other", `${API_PATH}x/orgs`, "/"]) {
      const reply = await exchange(`${sim.url}${outside}?pageNum=1`);
      expect(reply.status, outside).toBe(404);
      expect(reply.headers["www-authenticate"], outside).toBeUndefined();
      expect(json(reply), outside).toEqual({
        detail: `Cannot find resource ${outside}.`,
        error: 404,
        errorCode: "RESOURCE_NOT_FOUND",
        parameters: [outside],
        reason: "Not Found",
      });
    }
    expect((await exchange(`${sim.url}${API_PATH}`)).status).toBe(401);
    expect(sim.requests.map((r) => [r.path, r.status, r.authenticated])).toEqual([
      ["/other", 404, false],
      [`${API_PATH}x/orgs`, 404, false],
      ["/", 404, false],
      [API_PATH, 401, false],
    ]);
  });

  it("a repeated query parameter counts once, its first value, and __proto__ is a name like any other", async () => {
    const reply = await client.call("GET", `${keysPath()}?itemsPerPage=2&itemsPerPage=3&__proto__=x`);
    expect(reply.status).toBe(200);
    expect(json<ListBody>(reply).results).toHaveLength(2);
    const query = sim.requests.at(-1)?.query ?? {};
    expect(Object.keys(query)).toEqual(["itemsPerPage", "__proto__"]);
    expect(Object.getOwnPropertyDescriptor(query, "__proto__")?.value).toBe("x");
  });

  it("links point where the Host header says, and at the simulator's own address when there is none", async () => {
    const path = `${keysPath()}?itemsPerPage=1`;
    const named = await rawGet(path, "opsmanager.example:8443");
    expect(named.status).toBe(200);
    expect((JSON.parse(named.body) as ListBody).links[0]?.href).toBe(
      `http://opsmanager.example:8443${API_PATH}${keysPath()}?pageNum=1&itemsPerPage=1`,
    );
    const bare = await rawGet(path, undefined);
    expect(bare.status).toBe(200);
    expect((JSON.parse(bare.body) as ListBody).links[0]?.href).toBe(
      `${sim.apiRoot}${keysPath()}?pageNum=1&itemsPerPage=1`,
    );
  });

  it("a fault that answers a status after acting sends that answer whole, even with drop mid", async () => {
    sim.faults.add({ method: "POST", status: 503, actThenFail: true, drop: "mid" });
    const path = `/groups/${sim.groupId}/logCollectionJobs`;
    const before = sim.state.jobs().length;
    const reply = await client.call("POST", path, validJobFor());
    expect(reply.status).toBe(503);
    expect(json(reply)).toMatchObject({ error: 503, errorCode: "SERVICE_UNAVAILABLE" });
    expect(sim.state.jobs()).toHaveLength(before + 1);
    expect(sim.requests.at(-1)).toMatchObject({ status: 503, fault: "drop-mid+act-then-fail+status-503" });
  });

  it("a step that throws is answered 500 UNEXPECTED_ERROR, and the record keeps status 0", async () => {
    sim.faults.add({
      whenAnswered: () => {
        throw new Error("whenAnswered broke");
      },
    });
    const reply = await client.call("GET", keysPath());
    expect(reply.status).toBe(500);
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(reply.headers["x-vendor-service-version"]).toBeUndefined();
    expect(json(reply)).toEqual({
      detail: "Unexpected error: whenAnswered broke",
      error: 500,
      errorCode: "UNEXPECTED_ERROR",
      parameters: [],
      reason: "Internal Server Error",
    });
    expect(sim.requests.at(-1)).toMatchObject({ status: 0, fault: "when-answered", authenticated: true });
    expect((await client.call("GET", keysPath())).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpClient, TlsError } from "../../provider/client";
import { makeTestCa, type TestCa } from "../support/tls";
import { digestClient } from "./support/clients";
import { type DigestServer, startDigestServer } from "./support/digest-server";

let pki: TestCa;
let server: DigestServer;
const clients: HttpClient[] = [];

beforeAll(async () => {
  pki = makeTestCa();
  server = await startDigestServer({ tls: { key: pki.serverKey, cert: pki.serverCert } });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

function makeClient(host: string, caPem?: string): HttpClient {
  const c = digestClient(`https://${host}:${server.port}`, {
    ...(caPem ? { caPem } : {}),
    retry: { baseDelayMs: 1, maxAttempts: 3 },
  });
  clients.push(c);
  return c;
}

describe("HTTPS with a private certificate authority", () => {
  it("trusts the server when its CA is given as caPem", async () => {
    for (const host of ["127.0.0.1", "localhost"]) {
      const client = makeClient(host, pki.caPem);
      const res = await client.request({ method: "GET", path: "/orgs/o/apiKeys" });
      expect(res.status).toBe(200);
      expect(res.url).toBe(`https://${host}:${server.port}/api/public/v1.0/orgs/o/apiKeys`);
      expect(client.stats.roundTrips).toBe(2);
    }
  });

  it("without the CA fails with a TlsError that says what to set, and does not retry", async () => {
    const client = makeClient("127.0.0.1");
    const before = server.requests.length;
    const error = await client.request({ method: "GET", path: "/orgs/o/apiKeys" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TlsError);
    const tlsError = error as TlsError;
    expect(tlsError.code).toBe("OM_ERR_TLS");
    expect(tlsError.requestSent).toBe(false);
    expect(tlsError.causeCode).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect(tlsError.message).toContain("the server's certificate is not trusted");
    expect(tlsError.message).toContain("PEM file of its certificate authority");
    expect(tlsError.message).toContain("(caPem)");
    expect(tlsError.message).toMatch(/^GET \/orgs\/o\/apiKeys failed: /);
    expect(tlsError.url).toBe(`https://127.0.0.1:${server.port}/api/public/v1.0/orgs/o/apiKeys`);
    expect(client.stats.roundTrips).toBe(1);
    expect(server.requests.length).toBe(before);
  });

  it("a CA that did not sign the server's certificate is not enough", async () => {
    const other = makeTestCa("Another Test CA");
    const client = makeClient("127.0.0.1", other.caPem);
    await expect(client.request({ method: "GET", path: "/x" })).rejects.toBeInstanceOf(TlsError);
  });
});

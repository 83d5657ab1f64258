/**
 * The setup every conformance suite shares: one verbatim server for the file and clients of the API
 * behind its digest authentication (as the provider builds them), closed after the file; the server's
 * answers and record reset before each test.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { apiRoot } from "../../../provider/api/api-root";
import { type ClientOptions, HttpClient } from "../../../provider/client";
import { startVerbatimServer, type VerbatimServer } from "./verbatim-server";

/** Makes a client of the server's API with its credentials, `extra` options on top; closed after the file. */
export type ClientOf = (extra?: Partial<ClientOptions>) => HttpClient;

/**
 * Registers the suite's hooks; `ready` receives the server and a maker of clients once it listens.
 *
 * @example
 * let server: VerbatimServer;
 * let client: HttpClient;
 * verbatimSuite((started, clientOf) => {
 *   server = started;
 *   client = clientOf();
 * });
 */
export function verbatimSuite(ready: (server: VerbatimServer, clientOf: ClientOf) => void): void {
  let server: VerbatimServer | undefined;
  const clients: HttpClient[] = [];
  beforeAll(async () => {
    const started = await startVerbatimServer();
    server = started;
    ready(started, (extra = {}) => {
      const client = new HttpClient({
        baseUrl: apiRoot(started.origin),
        username: started.publicKey,
        password: started.privateKey,
        ...extra,
      });
      clients.push(client);
      return client;
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.close();
  });
  beforeEach(() => server?.reset());
}

/**
 * Clients of the test digest server, and the servers and clients a test starts, closed after it.
 */
import { afterEach } from "vitest";
import { apiRoot } from "../../../provider/api/api-root";
import { HttpClient } from "../../../provider/client";
import type { ClientOptions } from "../../../provider/client/types";
import {
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  type DigestServer,
  type DigestServerOptions,
  startDigestServer,
} from "./digest-server";

/** A client of the server at `origin` (its API root), with the server's default credentials. */
export function digestClient(origin: string, options: Partial<ClientOptions> = {}): HttpClient {
  return new HttpClient({
    baseUrl: apiRoot(origin),
    username: DEFAULT_USER,
    password: DEFAULT_PASSWORD,
    ...options,
  });
}

/** Starts servers and clients for one test at a time; the suite's `defaults` apply to every client. */
export interface PerTest {
  /** A digest server, closed after the test. */
  serve(options?: DigestServerOptions): Promise<DigestServer>;
  /** A client of the server at `origin`, closed after the test. */
  client(origin: string, options?: Partial<ClientOptions>): HttpClient;
  /** A server and a client of it. */
  setup(
    serverOptions?: DigestServerOptions,
    clientOptions?: Partial<ClientOptions>,
  ): Promise<{ server: DigestServer; client: HttpClient }>;
}

/** Registers, in the calling suite, an `afterEach` that closes what the test started. */
export function perTest(defaults: Partial<ClientOptions>): PerTest {
  const servers: DigestServer[] = [];
  const clients: HttpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const started: PerTest = {
    async serve(options = {}) {
      const server = await startDigestServer(options);
      servers.push(server);
      return server;
    },
    client(origin, options = {}) {
      const client = digestClient(origin, { ...defaults, ...options });
      clients.push(client);
      return client;
    },
    async setup(serverOptions = {}, clientOptions = {}) {
      const server = await started.serve(serverOptions);
      return { server, client: started.client(server.origin, clientOptions) };
    },
  };
  return started;
}

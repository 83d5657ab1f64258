/**
 * A loopback server that answers chosen requests with published bodies, byte for byte, behind real
 * digest authentication (the simulator's authenticator: MD5, qop=auth, the deployed challenge). A
 * request without valid credentials gets the deployed server's 401: the challenge, and the
 * bad-credentials body. Everything that arrives is recorded.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_NONCE_LIFETIME_MS, DigestAuthenticator } from "../../../simulator/digest";
import { readBody } from "../../support/http";
import { badCredentials } from "../bodies/errors";
import type { PublishedAnswer } from "../bodies/types";

/** The path prefix of the public API, which a base URL without a path resolves to. */
export const API_ROOT = "/api/public/v1.0";

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  /** Path below {@link API_ROOT}. */
  path: string;
  query: Record<string, string>;
  body: string;
  /** Whether the digest credentials were accepted. */
  authenticated: boolean;
  /** The status answered. */
  status: number;
  /** `performance.now()` when the request had arrived in full, and when its answer was sent. */
  receivedAt: number;
  answeredAt: number;
}

export interface VerbatimServer {
  /** `http://127.0.0.1:<port>`: a base URL as a user types it. */
  origin: string;
  publicKey: string;
  privateKey: string;
  /** Every request, challenges included, in arrival order. */
  requests: SeenRequest[];
  /** The requests that got past authentication. */
  authenticated(): SeenRequest[];
  /**
   * Answers `method path` (path below {@link API_ROOT}, any query) with `answers` in turn; the last
   * one is repeated. A request with no answer set gets a 404 that no published body has.
   */
  serve(method: string, path: string, ...answers: PublishedAnswer[]): void;
  /** Forgets the answers and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

const NOT_SERVED =
  '{"detail":"This conformance test serves no answer here.","error":404,"reason":"Not Found"}';

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, "content-length": String(Buffer.byteLength(body)) });
  res.end(body);
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startVerbatimServer(): Promise<VerbatimServer> {
  const publicKey = "conformance";
  const privateKey = "5d0b1c7e-conformance-4f8e-private-key";
  const auth = new DigestAuthenticator(
    (user) => (user === publicKey ? privateKey : undefined),
    DEFAULT_NONCE_LIFETIME_MS,
  );
  const routes = new Map<string, { answers: PublishedAnswer[]; next: number }>();
  const requests: SeenRequest[] = [];

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const receivedAt = performance.now();
      const target = req.url ?? "/";
      const url = new URL(target, "http://127.0.0.1");
      const path = url.pathname.startsWith(`${API_ROOT}/`)
        ? url.pathname.slice(API_ROOT.length)
        : url.pathname;
      const seen: SeenRequest = {
        method: req.method ?? "",
        path,
        query: Object.fromEntries(url.searchParams),
        body,
        authenticated: false,
        status: 0,
        receivedAt,
        answeredAt: 0,
      };
      requests.push(seen);
      const verdict = auth.verify(req.headers.authorization, seen.method, target);
      let status: number;
      if (!verdict.ok) {
        // The deployed server's answer to missing or refused credentials (spec, Authentication).
        status = 401;
        send(
          res,
          status,
          { ...badCredentials.headers, "www-authenticate": verdict.challenge, connection: "keep-alive" },
          badCredentials.body,
        );
      } else {
        seen.authenticated = true;
        const route = routes.get(`${seen.method} ${path}`);
        const answer = route?.answers[Math.min(route.next++, route.answers.length - 1)];
        if (answer === undefined) {
          status = 404;
          send(res, status, badCredentials.headers, NOT_SERVED);
        } else {
          status = answer.status;
          send(res, status, answer.headers, answer.body);
        }
      }
      seen.status = status;
      seen.answeredAt = performance.now();
    })().catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    publicKey,
    privateKey,
    requests,
    authenticated: () => requests.filter((r) => r.authenticated),
    serve(method, path, ...answers) {
      if (answers.length === 0) throw new Error("serve needs at least one answer");
      routes.set(`${method} ${path}`, { answers, next: 0 });
    },
    reset() {
      routes.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

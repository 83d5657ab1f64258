/**
 * What the simulator's tests share: a bare HTTP exchange, a careful digest client of its own (so the
 * simulator is tried by a client that is not the provider's), the bodies' shapes, and a job body each
 * profile accepts.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as http from "node:http";
import type { Simulator, SimulatorProfile } from "../../simulator/types";

/** Both servers the simulator plays, for the behaviour that differs between them. */
export const BOTH: SimulatorProfile[] = ["deployed", "spec"];
/** The database log's name in each profile: deployed servers call it MONGODB, the spec DATABASE. */
export const DB_LOG: Record<SimulatorProfile, string> = { deployed: "MONGODB", spec: "DATABASE" };

/** The API root's path, which a digest `uri` starts with. */
export const API_PATH = "/api/public/v1.0";
/** The deployed server's challenge, exactly; group 1 is the nonce, group 2 `stale`. */
export const CHALLENGE_RE =
  /^Digest realm="MMS Public API", domain="", nonce="([A-Za-z0-9+/=]+)", algorithm=MD5, qop="auth", stale=(true|false)$/;

/** An answer as it arrived: status, headers, body text, and whether it came on a reused socket. */
export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  reusedSocket: boolean;
}

/** A link of a body, as the server writes it. */
export interface Link {
  href: string;
  rel: string;
}
/** An API key in a body. */
export interface KeyBody {
  id: string;
  desc: string;
  privateKey: string;
  publicKey: string;
  roles: { orgId?: string; groupId?: string; roleName: string }[];
  links: Link[];
}
/** A page of a listing. */
export interface ListBody {
  links: Link[];
  results: KeyBody[];
  totalCount: number;
  status?: number;
}
/** An error body in the server's shape. */
export interface ErrorBody {
  detail: string;
  error: number;
  errorCode?: string;
  parameters: unknown[];
  reason: string;
}

function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

/** One HTTP exchange; rejects when the connection fails. */
export function exchange(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    agent?: http.Agent;
    timeoutMs?: number;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? "GET",
      headers: options.headers,
      agent: options.agent,
    });
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(new Error("client timeout")));
    }
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("aborted", () => reject(new Error("response aborted")));
      res.on("end", () => {
        if (!res.complete) {
          reject(new Error("response incomplete"));
          return;
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
          reusedSocket: req.reusedSocket,
        });
      });
    });
    req.end(options.body);
  });
}

/** A digest `Authorization` header for one request, with a fresh cnonce. */
export function authorization(
  user: string,
  password: string,
  method: string,
  uri: string,
  nonce: string,
  nc: number,
): string {
  const ncText = nc.toString(16).padStart(8, "0");
  const cnonce = randomBytes(8).toString("hex");
  const ha1 = md5(`${user}:MMS Public API:${password}`);
  const ha2 = md5(`${method}:${uri}`);
  const response = md5(`${ha1}:${nonce}:${ncText}:${cnonce}:auth:${ha2}`);
  return `Digest username="${user}", realm="MMS Public API", nonce="${nonce}", uri="${uri}", algorithm=MD5, qop=auth, nc=${ncText}, cnonce="${cnonce}", response="${response}"`;
}

/** The nonce of a reply's challenge; throws when it carries none. */
export function nonceOf(reply: Reply): string {
  const match = CHALLENGE_RE.exec(String(reply.headers["www-authenticate"]));
  if (!match?.[1]) throw new Error(`no challenge in ${reply.status} reply`);
  return match[1];
}

/** A minimal digest client that keeps its nonce and counts nc, as a careful client does. */
export class DigestClient {
  nonce: string | undefined;
  nc = 0;
  constructor(
    private readonly sim: Simulator,
    private readonly user = sim.publicKey,
    private readonly password = sim.privateKey,
    private readonly agent?: http.Agent,
  ) {}

  async call(
    method: string,
    relPath: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; rawBody?: string; timeoutMs?: number } = {},
  ): Promise<Reply> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.nonce === undefined) {
        this.nonce = nonceOf(
          await exchange(`${this.sim.apiRoot}/orgs/${this.sim.orgId}/apiKeys`, { agent: this.agent }),
        );
        this.nc = 0;
      }
      const headers: Record<string, string> = {
        Accept: "application/json",
        Authorization: authorization(
          this.user,
          this.password,
          method,
          `${API_PATH}${relPath}`,
          this.nonce,
          ++this.nc,
        ),
        ...extra.headers,
      };
      const text = extra.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
      if (text !== undefined && !extra.headers?.["Content-Type"])
        headers["Content-Type"] = "application/json";
      const reply = await exchange(`${this.sim.apiRoot}${relPath}`, {
        method,
        headers,
        body: text,
        agent: this.agent,
        timeoutMs: extra.timeoutMs,
      });
      if (reply.status !== 401 || !reply.headers["www-authenticate"]) return reply;
      this.nonce = nonceOf(reply);
      this.nc = 0;
      if (!String(reply.headers["www-authenticate"]).endsWith("stale=true")) return reply;
    }
    throw new Error("stale nonce loop");
  }
}

/** Whether an `openssl` command is on PATH (the TLS test makes its certificate with it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A reply's body parsed as JSON. */
export function json<T>(reply: Reply): T {
  return JSON.parse(reply.text) as T;
}

/** A job body the profile's server accepts (the default profile's unless told). */
export function validJobFor(profile: SimulatorProfile = "deployed") {
  return {
    resourceType: "REPLICASET",
    resourceName: "rs0",
    sizeRequestedPerFileBytes: 10_000_000,
    logTypes: [DB_LOG[profile], "FTDC"],
    redacted: true,
  };
}

/**
 * The requests of MongoDB's Go client for Ops Manager (`go.mongodb.org/ops-manager` v0.61.0, package
 * `opsmngr`), replayed byte for byte, for the services of organization API keys, their access lists,
 * project API keys and log collection jobs. The Go module proxy refuses that module (403 for every
 * version), so the client cannot be built here; this replays what its source builds instead:
 *
 * - the URL: the base URL with `/` appended, resolved against a relative path
 *   (`api/public/v1.0/orgs/%s/apiKeys`, …); list options through `setQueryParams`, which encodes them
 *   with go-querystring and `url.Values.Encode` (keys sorted, `omitempty` fields left out);
 * - the headers of `NewRequest`: `Content-Type: application/json` when there is a body,
 *   `Accept: application/json`, `User-Agent: go-ops-manager`, and Go's transport's
 *   `Accept-Encoding: gzip`;
 * - the body: `json.Encoder` output, the struct's fields in declaration order, `omitempty` fields left
 *   out, and a trailing newline;
 * - digest authentication as `github.com/mongodb-forks/digest` (the transport MongoDB's tools give the
 *   client) does it: each request sent once without credentials for the challenge, then again signed
 *   with `nc=00000001`;
 * - the answer accepted when its status is 2xx (`CheckResponse`).
 */
import * as http from "node:http";
import type { Simulator } from "../../simulator/types";
import { authorization, exchange, nonceOf, type Reply } from "./support";

const API = "api/public/v1.0";

/** One call's answer as the client gets it. */
export interface GoReply {
  status: number;
  /** The body parsed as JSON; `undefined` when there is none. */
  body: unknown;
  /** Whether the client returns no error (`CheckResponse`: a 2xx status). */
  ok: boolean;
}

/** A list option's query as `setQueryParams` writes it: only the fields set, keys sorted. */
function query(values: Record<string, string | number | boolean | undefined>): string {
  const set = Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== false && v !== 0 && v !== "")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return set.length === 0 ? "" : `?${set.join("&")}`;
}

/** `json.Encoder` output of a struct: declared order, `omitempty` fields left out, a newline after. */
function encode(fields: [string, unknown][]): string {
  const kept = fields.filter(
    ([, v]) => v !== undefined && v !== "" && v !== 0 && !(Array.isArray(v) && v.length === 0),
  );
  return `${JSON.stringify(Object.fromEntries(kept))}\n`;
}

/** `APIKeyInput`: `desc` then `roles`, both `omitempty`. */
function apiKeyInput(desc: string | undefined, roles: string[] | undefined): string {
  return encode([
    ["desc", desc],
    ["roles", roles],
  ]);
}

/** What `LogCollectionService.Create` sends of a `LogCollectionJob` (its fields in declaration order). */
export interface GoLogCollectionJob {
  resourceType: string;
  resourceName: string;
  redacted: boolean;
  logCollectionFromDate?: number;
  logCollectionToDate?: number;
  logTypes: string[];
  sizeRequestedPerFileBytes: number;
}

/** The Go client's services, as their methods send their requests. */
export class GoOpsManagerClient {
  /** Keeps connections alive between requests, as Go's default transport does. */
  private readonly agent = new http.Agent({ keepAlive: true });

  constructor(
    private readonly sim: Simulator,
    private readonly user = sim.publicKey,
    private readonly password = sim.privateKey,
  ) {}

  /** Closes the client's connections (as a Go program that exits would). */
  close(): void {
    this.agent.destroy();
  }

  /** `Client.NewRequest` and `Client.Do` through the digest transport. */
  async call(method: string, path: string, body?: string): Promise<GoReply> {
    const headers: Record<string, string> = {
      "User-Agent": "go-ops-manager",
      Accept: "application/json",
      "Accept-Encoding": "gzip",
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const url = `${this.sim.url}/${path}`;
    const first = await exchange(url, { method, headers, body, agent: this.agent });
    let reply: Reply = first;
    if (first.status === 401 && first.headers["www-authenticate"]) {
      const uri = `/${path}`;
      reply = await exchange(url, {
        method,
        headers: {
          ...headers,
          Authorization: authorization(this.user, this.password, method, uri, nonceOf(first), 1),
        },
        body,
        agent: this.agent,
      });
    }
    return {
      status: reply.status,
      body: reply.text === "" ? undefined : JSON.parse(reply.text),
      ok: reply.status >= 200 && reply.status < 300,
    };
  }

  /** `APIKeysService` (organization API keys). */
  readonly orgApiKeys = {
    list: (orgId: string, opts: { pageNum?: number; itemsPerPage?: number } = {}) =>
      this.call("GET", `${API}/orgs/${orgId}/apiKeys${query(opts)}`),
    get: (orgId: string, keyId: string) =>
      this.call("GET", `${API}/orgs/${orgId}/apiKeys/${encodeURIComponent(keyId)}`),
    create: (orgId: string, desc: string, roles: string[]) =>
      this.call("POST", `${API}/orgs/${orgId}/apiKeys`, apiKeyInput(desc, roles)),
    update: (orgId: string, keyId: string, desc: string | undefined, roles: string[] | undefined) =>
      this.call("PATCH", `${API}/orgs/${orgId}/apiKeys/${keyId}`, apiKeyInput(desc, roles)),
    delete: (orgId: string, keyId: string) =>
      this.call("DELETE", `${API}/orgs/${orgId}/apiKeys/${encodeURIComponent(keyId)}`),
  };

  /** `AccessListAPIKeysService`: the entry is put in the path as given (the client does not escape it). */
  readonly accessListApiKeys = {
    list: (orgId: string, keyId: string) =>
      this.call("GET", `${API}/orgs/${orgId}/apiKeys/${keyId}/accessList`),
    get: (orgId: string, keyId: string, entry: string) =>
      this.call("GET", `${API}/orgs/${orgId}/apiKeys/${keyId}/accessList/${entry}`),
    create: (orgId: string, keyId: string, entries: { ipAddress?: string; cidrBlock?: string }[]) =>
      this.call(
        "POST",
        `${API}/orgs/${orgId}/apiKeys/${keyId}/accessList`,
        // `[]*AccessListAPIKeysReq`: `ipAddress` then `cidrBlock`, both `omitempty`.
        `${JSON.stringify(
          entries.map((e) =>
            Object.fromEntries(
              Object.entries({ ipAddress: e.ipAddress, cidrBlock: e.cidrBlock }).filter(([, v]) => v),
            ),
          ),
        )}\n`,
      ),
    delete: (orgId: string, keyId: string, entry: string) =>
      this.call("DELETE", `${API}/orgs/${orgId}/apiKeys/${keyId}/accessList/${entry}`),
  };

  /** `ProjectAPIKeysService`. */
  readonly projectApiKeys = {
    list: (groupId: string) => this.call("GET", `${API}/groups/${groupId}/apiKeys`),
    create: (groupId: string, desc: string, roles: string[]) =>
      this.call("POST", `${API}/groups/${groupId}/apiKeys`, apiKeyInput(desc, roles)),
    assign: (groupId: string, keyId: string, roles: string[]) =>
      // `AssignAPIKey` has no `omitempty`: its roles are always sent.
      this.call("PATCH", `${API}/groups/${groupId}/apiKeys/${keyId}`, `${JSON.stringify({ roles })}\n`),
    unassign: (groupId: string, keyId: string) =>
      this.call("DELETE", `${API}/groups/${groupId}/apiKeys/${keyId}`),
  };

  /**
   * `LogCollectionService`. `pending` is not among the client's `LogListOptions` (only `verbose` and
   * the paging options are); it is sent as `setQueryParams` would send such an option.
   */
  readonly logCollections = {
    list: (groupId: string, opts: { verbose?: boolean; pending?: boolean } = {}) =>
      this.call("GET", `${API}/groups/${groupId}/logCollectionJobs${query(opts)}`),
    get: (groupId: string, jobId: string, opts: { verbose?: boolean } = {}) =>
      this.call("GET", `${API}/groups/${groupId}/logCollectionJobs/${jobId}${query(opts)}`),
    create: (groupId: string, job: GoLogCollectionJob) =>
      this.call(
        "POST",
        `${API}/groups/${groupId}/logCollectionJobs`,
        encode([
          ["resourceType", job.resourceType],
          ["resourceName", job.resourceName],
          ["redacted", job.redacted],
          ["logCollectionFromDate", job.logCollectionFromDate],
          ["logCollectionToDate", job.logCollectionToDate],
          ["logTypes", job.logTypes],
          ["sizeRequestedPerFileBytes", job.sizeRequestedPerFileBytes],
        ]),
      ),
    extend: (groupId: string, jobId: string, expirationDate: string) =>
      this.call(
        "PATCH",
        `${API}/groups/${groupId}/logCollectionJobs/${jobId}`,
        encode([["expirationDate", expirationDate]]),
      ),
    retry: (groupId: string, jobId: string) =>
      this.call("PUT", `${API}/groups/${groupId}/logCollectionJobs/${jobId}/retry`),
    delete: (groupId: string, jobId: string) =>
      this.call("DELETE", `${API}/groups/${groupId}/logCollectionJobs/${jobId}`),
  };
}

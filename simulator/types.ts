/**
 * Public types of the local Ops Manager simulator: the three operations of
 * ../shared/spec/ops-manager-public-api.md (list org API keys, patch one, create a log collection job)
 * behind real digest authentication, with recorded requests and fault injection for tests, as the spec
 * writes them or as deployed servers answer them (`SimulatorProfile`), the latter with a job's life
 * after its create and an organization API key's whole life (create, get, delete, its access list, its
 * project assignments).
 */

export type OrgRoleName = "ORG_OWNER" | "ORG_MEMBER" | "ORG_GROUP_CREATOR" | "ORG_READ_ONLY";

/** A role as the server stores it: exactly one of `orgId` or `groupId`. */
export interface SimRole {
  orgId?: string;
  groupId?: string;
  roleName: string;
}

/** An API key as the simulator stores it. `privateKey` is the full secret (the API redacts it). */
export interface SimApiKey {
  id: string;
  orgId: string;
  desc: string;
  publicKey: string;
  privateKey: string;
  roles: SimRole[];
}

/**
 * One entry of an organization API key's access list, as the simulator stores it. An address is kept
 * as both `ipAddress` and its one-address block (`cidrBlock` `x/32`, or `x/128` for IPv6), as the
 * server answers it; a wider block has `cidrBlock` only.
 */
export interface SimAccessListEntry {
  cidrBlock: string;
  ipAddress?: string;
  /** When it was added (ISO 8601). */
  created: string;
  /**
   * How many requests the key authenticated from an address inside the entry; absent for an entry never
   * used (and in state files written before use was recorded).
   */
  count?: number;
  /** When the key last authenticated from an address inside the entry (ISO 8601, whole seconds). */
  lastUsed?: string;
  /** The address that request came from. */
  lastUsedAddress?: string;
}

/** Where a log collection job is in its life (the Ops Manager documentation's `status` values). */
export type SimJobStatus = "IN_PROGRESS" | "SUCCESS" | "FAILURE" | "MARKED_FOR_EXPIRY" | "EXPIRED";

export interface SimLogCollectionJob {
  id: string;
  groupId: string;
  /** As the client sent it: the `deployed` profile takes any case (mongocli sends lower case). */
  resourceType: string;
  resourceName: string;
  sizeRequestedPerFileBytes: number;
  logTypes: string[];
  redacted: boolean;
  /** The optional time window (ms since the epoch), when the client sent one (`deployed` profile). */
  logCollectionFromDate?: number;
  logCollectionToDate?: number;
  /** When it was created (ISO 8601): the record's `creationDate`. */
  createdAt: string;
  /** The id of the API key that created it: the record's `userId`. */
  userId: string;
  /** When it expires (ISO 8601): 30 days after creation unless extended. */
  expirationDate: string;
  /**
   * Where it is in its life. An `IN_PROGRESS` job becomes `outcome` at `finishDate`, and any job
   * becomes `EXPIRED` once `expirationDate` has passed, as a read finds it.
   */
  status: SimJobStatus;
  /** When an `IN_PROGRESS` job finishes (ISO 8601): `jobDurationMs` after it was created or retried. */
  finishDate: string;
  /** What it finishes as: `SUCCESS` unless a test says `FAILURE`. */
  outcome: "SUCCESS" | "FAILURE";
}

/** A job as `state.addJob` takes it: what a POST carries, and any of the rest (an id, a status, …). */
export type NewSimLogCollectionJob = Pick<
  SimLogCollectionJob,
  "groupId" | "resourceType" | "resourceName" | "sizeRequestedPerFileBytes" | "logTypes" | "redacted"
> &
  Partial<SimLogCollectionJob>;

/** What a test may change of a job, as time or someone outside Pulumi would. */
export type SimJobChange = Partial<
  Pick<SimLogCollectionJob, "status" | "expirationDate" | "finishDate" | "outcome">
>;

/** What the simulator starts with. Everything is deterministic for a given seed. */
export interface SeedOptions {
  /** 24-hex organization id. Default `5f0000000000000000000001`. */
  orgId?: string;
  /** 24-hex group (project) id. Default `5f0000000000000000000002`. */
  groupId?: string;
  /** 24-hex id of the admin key. Default `5f0000000000000000000003`. */
  adminKeyId?: string;
  /** How many extra API keys to generate in the org besides the admin key. Default 5. */
  keys?: number;
  /** The admin credentials (an ORG_OWNER key of the org). Defaults are printed by the CLI. */
  publicKey?: string;
  privateKey?: string;
  /** Seed of the generator behind generated ids, keys and roles. Default 1. */
  randomSeed?: number;
}

/**
 * Which server the simulator plays. `deployed`: the Ops Manager that users run, as its documentation
 * and MongoDB's Go client show it (the database log is `MONGODB`, `API_KEY_NOT_FOUND` is 400, callers
 * without the role get 401 with an `errorCode`, expired nonces are answered `stale=false`, …).
 * `spec`: the API reference as written (`DATABASE`, `stale=true`, no role checks).
 */
export type SimulatorProfile = "deployed" | "spec";

export interface SimulatorOptions {
  /** Which server to play. Default `deployed`. */
  profile?: SimulatorProfile;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  /** Keep state in this JSON file: loaded at start when it exists, written after every change. */
  stateFile?: string;
  seed?: SeedOptions;
  /** How long a nonce is accepted before the server calls it expired. Default 60_000 ms. */
  nonceLifetimeMs?: number;
  /** Record requests in `requests`. Default true. */
  record?: boolean;
  /**
   * Serve at most this many keys a page, whatever `itemsPerPage` asks (1 to 500), silently, as some
   * deployed servers cap pages; the page's links carry the size served. Default none: the spec's 500.
   */
  maxItemsPerPage?: number;
  /**
   * Send a `WWW-Authenticate: Digest` challenge (a new nonce, `stale=false`) with the 401 that refuses a
   * caller's role, as well as its `errorCode`. Whether deployed servers do is not known either way; a
   * client must not take it for a refused nonce. Default false.
   */
  challengeOnRoleRefusal?: boolean;
  /**
   * What assigning an organization key to a project (`PATCH /groups/{GROUP-ID}/apiKeys/{API-KEY-ID}`)
   * answers when it succeeds, in the `deployed` profile: `"key"`, 200 with the key, as newer Ops Manager
   * documentation shows it, or `"noContent"`, 204 without a body, as older documentation shows it.
   * Default `"key"`.
   */
  projectKeyAssignAnswer?: "key" | "noContent";
  /**
   * How long a log collection job stays `IN_PROGRESS` before it finishes (as `SUCCESS`, or `FAILURE`
   * when a test says so with `state.updateJob`). Default 30_000 ms.
   */
  jobDurationMs?: number;
}

/** One request the simulator received, as it crossed the wire. */
export interface RecordedRequest {
  /** Sequence number, from 1. */
  seq: number;
  /** When it arrived, in ms of the simulator's `performance.now()` (for a bench to time gaps). */
  receivedAt: number;
  method: string;
  /** Path without the query string, e.g. `/api/public/v1.0/orgs/…/apiKeys`, private keys `[REDACTED]`. */
  path: string;
  /** Parsed query parameters. */
  query: Record<string, string>;
  /**
   * Request headers, names lowercased, without `authorization` (its digest fields are in `digest`).
   * Repeated headers are joined with ", ".
   */
  headers?: Record<string, string>;
  /** Raw request body text ("" when none). */
  rawBody: string;
  /** Parsed JSON body when it parsed, else undefined. */
  body: unknown;
  /** Whether the request carried a valid digest Authorization header. */
  authenticated: boolean;
  /** The `Authorization` header's digest fields (username, nonce, nc, cnonce, uri, qop, algorithm, response). */
  digest?: Record<string, string>;
  /** Status sent; 0 when the connection was dropped before a status line. */
  status: number;
  /** Name of the fault injected into this request, if any. */
  fault?: string;
}

/** A fault for the next matching request(s). */
export interface Fault {
  /** Only requests with this method (default any). */
  method?: string;
  /** Only requests whose path (without the API root) starts with this (default any). */
  pathPrefix?: string;
  /**
   * Match only requests signed by this user (the digest `username`: an API key's public key), as when
   * two teams' tools share a server. A `beforeAuth` fault cannot take it: no credentials are read yet.
   */
  user?: string;
  /** How many matching requests get it. Default 1. */
  times?: number;
  /** Answer with this status and an error body in the server's shape. */
  status?: number;
  errorCode?: string;
  /**
   * `Retry-After` header value, in seconds. A 429 without it gets none in the `deployed` profile (the
   * error table documents RATE_LIMITED without one) and 1 second in the `spec` profile.
   */
  retryAfterSeconds?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /**
   * Hold the request until this promise settles, then go on as without it (after `delayMs`, if both):
   * a delay that ends when the test says, not when a clock does. A request still held when the
   * server closes is never answered.
   */
  holdUntil?: PromiseLike<unknown>;
  /**
   * Drop the connection: `"before"` without acting on the request, `"after"` after acting on it
   * (a POST creates its job) and before the response, `"mid"` after acting and after sending part of
   * the response.
   */
  drop?: "before" | "after" | "mid";
  /**
   * Act on the request (a POST creates its job) and still answer the fault: an error `status`, or a
   * `raw` answer such as a 201 whose body cannot be read.
   */
  actThenFail?: boolean;
  /** Answer with this raw body and content type instead of JSON (hostile-server tests). */
  raw?: { status: number; contentType: string; body: string };
  /** Never answer (the socket stays open until the server closes). */
  hang?: boolean;
  /**
   * Apply before the credentials are checked, to a request with or without them, as a proxy or load
   * balancer in front of the server would (a 500 to the bodyless request that fetches a challenge, say).
   * Such a fault never acts: `actThenFail` and `drop` `"after"` or `"mid"` are refused. By default a
   * fault applies to authenticated requests only.
   */
  beforeAuth?: boolean;
  /**
   * Called once the server has acted on the request (or picked the fault's answer), before any byte
   * of the response is sent: a change of state made here (`sim.state.removeApiKey(…)`) is seen by every
   * request the client sends after reading this answer, and by none before. For races that must not
   * depend on timing: a key deleted between the pages of one listing. `request.status` is not set yet.
   * Not called for `hang`, `drop: "before"`, or a request the delay outlived (the server closing).
   */
  whenAnswered?: (request: RecordedRequest) => void;
}

/** Random faults applied to every authenticated request, with a seeded generator. */
export interface ChaosOptions {
  /** Probability of a 503 SERVICE_UNAVAILABLE answer, without acting. */
  rate503?: number;
  /** Probability of a 429 RATE_LIMITED answer with `Retry-After`, without acting. */
  rate429?: number;
  /** `Retry-After` seconds on a 429. Default 1. */
  retryAfterSeconds?: number;
  /** Probability of dropping the connection mid-response (after acting). */
  rateDropMid?: number;
  /** Seed of the generator. Default 1. */
  seed?: number;
}

export interface FaultController {
  /** Queue faults; each applies to the next matching requests. */
  add(...faults: Fault[]): void;
  /** Random faults from now on; `undefined` turns them off. */
  chaos(options: ChaosOptions | undefined): void;
  /** Nonce lifetime from now on, in ms. */
  nonceLifetime(ms: number): void;
  /**
   * From now on a nonce also expires once the server has checked `count` more requests (of any client)
   * than when it issued it: a lifetime that ages with the traffic, the same on a busy machine as on a
   * quiet one. `undefined` turns it off.
   */
  nonceLifetimeRequests(count: number | undefined): void;
  /**
   * Expire every nonce issued so far, now, as if its lifetime had passed (answered as an expired nonce:
   * `stale=true` in the spec's profile, `stale=false` in the deployed one); later nonces live their
   * lifetime.
   */
  expireNonces(): void;
  /** Accept each nonce once only (nc 00000001); a reuse gets a 401 with a fresh nonce, stale=false. */
  refuseNonceReuse(on: boolean): void;
  /** The page cap from now on (see `SimulatorOptions.maxItemsPerPage`); `undefined`: none. */
  maxItemsPerPage(count: number | undefined): void;
  /**
   * Remove every queued fault, chaos, and refusal; nonce lifetime and page cap back to the
   * simulator's options.
   */
  clear(): void;
}

export interface Simulator {
  /** The server it plays. */
  profile: SimulatorProfile;
  /** Origin, e.g. `http://127.0.0.1:41234` (no path). */
  url: string;
  /** `url` + `/api/public/v1.0`. */
  apiRoot: string;
  port: number;
  orgId: string;
  groupId: string;
  /** The admin credentials. */
  publicKey: string;
  privateKey: string;
  requests: RecordedRequest[];
  faults: FaultController;
  /** Direct access to state, for arranging and asserting (no HTTP). */
  state: {
    apiKeys(orgId?: string): SimApiKey[];
    apiKey(id: string): SimApiKey | undefined;
    /** Add a key; missing fields are generated. Returns the stored key. */
    addApiKey(key: Partial<SimApiKey> & { orgId?: string }): SimApiKey;
    /** Add `count` generated keys to an org (default the seeded org). */
    addApiKeys(count: number, orgId?: string): SimApiKey[];
    /** Change a key directly, as someone outside Pulumi would. */
    updateApiKey(id: string, change: Partial<Pick<SimApiKey, "desc" | "roles">>): SimApiKey;
    removeApiKey(id: string): void;
    addOrg(orgId: string): void;
    addGroup(groupId: string): void;
    /** The access list of an organization API key, in the order its entries were added. */
    accessList(keyId: string): SimAccessListEntry[];
    /** The log collection jobs of a group (default all), in creation order, as a read finds them now. */
    jobs(groupId?: string): SimLogCollectionJob[];
    job(id: string): SimLogCollectionJob | undefined;
    /** Add a job (missing fields are generated), as a POST would, or as it was on another server. */
    addJob(job: NewSimLogCollectionJob): SimLogCollectionJob;
    /** Change a job: finish it, fail it, expire it, extend it, as time or someone outside Pulumi would. */
    updateJob(id: string, change: SimJobChange): SimLogCollectionJob;
    /** Delete a job, as someone outside Pulumi would; an unknown id is ignored. */
    removeJob(id: string): void;
  };
  /** Empty the request log. */
  resetRequests(): void;
  /**
   * Resolves once no client can add to the request log: every connection's client has ended its side
   * (closed its connection, or exited), and every request it sent has been read and recorded. Then the
   * log holds every request those clients will ever make: "nothing more was sent" as a fact, not after
   * a guessed wait. A request the server still holds (a `hang`, a delay) does not keep it from idle.
   */
  idle(): Promise<void>;
  close(): Promise<void>;
}

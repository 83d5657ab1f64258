/**
 * The simulator's HTTP(S) server: it builds one simulator's parts (state, digest, faults, request
 * log), hands each request to ./pipeline, and listens; close cancels delayed requests, ends every
 * connection and writes the state file.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { API_ROOT } from "./answers";
import { DEFAULT_NONCE_LIFETIME_MS, DigestAuthenticator } from "./digest";
import { FaultEffects } from "./fault-effects";
import { Faults, validatePageCap } from "./faults";
import { RequestPipeline } from "./pipeline";
import { profileRules } from "./profiles";
import { RequestLog } from "./request-log";
import { SimState } from "./state";
import type { Simulator, SimulatorOptions } from "./types";

const KEEP_ALIVE_TIMEOUT_MS = 30_000;

function validateOptions(opts: SimulatorOptions): void {
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port <= 65535)) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${opts.port}`);
  }
  if (opts.jobDurationMs !== undefined && !(opts.jobDurationMs >= 0)) {
    throw new RangeError(`jobDurationMs must be >= 0, got ${opts.jobDurationMs}`);
  }
  if (opts.nonceLifetimeMs !== undefined && !(opts.nonceLifetimeMs >= 0)) {
    throw new RangeError(`nonceLifetimeMs must be >= 0, got ${opts.nonceLifetimeMs}`);
  }
  validatePageCap(opts.maxItemsPerPage, "maxItemsPerPage");
  if (opts.seed?.keys !== undefined && !(Number.isInteger(opts.seed.keys) && opts.seed.keys >= 0)) {
    throw new RangeError(`seed.keys must be a non-negative integer, got ${opts.seed.keys}`);
  }
  if (opts.tls !== undefined && (typeof opts.tls.key !== "string" || typeof opts.tls.cert !== "string")) {
    throw new TypeError("tls needs key and cert as PEM strings");
  }
}

function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/** The simulator's state as tests change it, over the same `SimState` the API answers from. */
function stateFacade(state: SimState): Simulator["state"] {
  return {
    apiKeys: (orgId) => state.apiKeys(orgId),
    apiKey: (id) => state.apiKey(id),
    addApiKey: (key) => state.addApiKey(key),
    addApiKeys: (count, orgId) => state.addApiKeys(count, orgId),
    updateApiKey: (id, change) => state.updateApiKey(id, change),
    removeApiKey: (id) => state.removeApiKey(id),
    addOrg: (orgId) => state.addOrg(orgId),
    addGroup: (groupId) => state.addGroup(groupId),
    accessList: (keyId) => state.accessLists.list(keyId),
    jobs: (groupId) => state.jobStore.jobs(groupId),
    job: (id) => state.jobStore.job(id),
    addJob: (job) => state.jobStore.addJob(job),
    updateJob: (id, change) => state.jobStore.updateJob(id, change),
    removeJob: (id) => state.jobStore.removeJob(id),
  };
}

/**
 * What clients may still add to the request log: connections whose client has not ended its side (it
 * may send another request), and requests still being read. `none()` resolves once there are neither,
 * one event-loop turn later (a request read in full is recorded within that turn).
 */
class OpenConnections {
  private sending = 0;
  private waiting: (() => void)[] = [];

  constructor(server: http.Server) {
    // The TCP connection, under TLS too: a handshake that never completes still holds one.
    server.on("connection", (socket: Socket) => this.track(socket, ["end", "close"]));
    server.on("request", (req: http.IncomingMessage) => this.track(req, ["end", "close"]));
  }

  none(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.settle();
    });
  }

  /** Counts `emitter` until the first of `events`. */
  private track(emitter: NodeJS.EventEmitter, events: string[]): void {
    this.sending += 1;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.sending -= 1;
      this.settle();
    };
    for (const event of events) emitter.once(event, finish);
  }

  private settle(): void {
    if (this.sending > 0 || this.waiting.length === 0) return;
    setImmediate(() => {
      if (this.sending === 0) for (const resolve of this.waiting.splice(0)) resolve();
    });
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

async function shutDown(server: http.Server, effects: FaultEffects, state: SimState): Promise<void> {
  effects.stop();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive sockets and hanging requests would otherwise hold close() open.
  server.closeAllConnections();
  await closed;
  await state.flush();
}

/**
 * Starts a simulator.
 * @example
 * const sim = await startSimulator({ seed: { keys: 20 } });
 * // digest user sim.publicKey, password sim.privateKey, base URL sim.apiRoot
 * await sim.close();
 */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  validateOptions(opts);
  const rules = profileRules(opts.profile);
  const state = SimState.open(opts.seed, opts.stateFile);
  if (opts.jobDurationMs !== undefined) state.jobStore.jobDurationMs = opts.jobDurationMs;
  const lifetimeMs = opts.nonceLifetimeMs ?? DEFAULT_NONCE_LIFETIME_MS;
  const digest = new DigestAuthenticator((user) => state.privateKeyOf(user), lifetimeMs);
  digest.staleOnExpiry = rules.staleOnExpiry;
  const faults = new Faults(digest, lifetimeMs, opts.maxItemsPerPage);
  const effects = new FaultEffects(rules, digest);
  const admin = state.adminKey();
  const log = new RequestLog(state, admin.privateKey, opts.record !== false);
  const scheme = opts.tls ? "https" : "http";
  const host = opts.host ?? "127.0.0.1";
  const { listener } = new RequestPipeline({
    state,
    rules,
    digest,
    faults,
    effects,
    log,
    scheme,
    authority: () => `${urlHost(host)}:${port}`,
    challengeOnRoleRefusal: Boolean(opts.challengeOnRoleRefusal),
    projectKeyAssignAnswer: opts.projectKeyAssignAnswer,
  });

  const server: http.Server = opts.tls
    ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, listener)
    : http.createServer(listener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const connections = new OpenConnections(server);
  await listen(server, opts.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const url = `${scheme}://${urlHost(host)}:${port}`;
  let closing: Promise<void> | undefined;

  return {
    profile: rules.name,
    url,
    apiRoot: `${url}${API_ROOT}`,
    port,
    orgId: state.orgId,
    groupId: state.groupId,
    publicKey: admin.publicKey,
    privateKey: admin.privateKey,
    requests: log.requests,
    faults,
    state: stateFacade(state),
    resetRequests: () => {
      log.requests.length = 0;
    },
    idle: () => connections.none(),
    close: () => {
      closing ??= shutDown(server, effects, state);
      return closing;
    },
  };
}

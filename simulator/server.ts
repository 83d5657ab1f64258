/**
 * The simulator's HTTP(S) server: reads each request, records it (./request-log), authenticates it
 * with digest, applies injected faults, routes it to ./api and sends the answer as ./framing frames it.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { API_ROOT, errorBody } from "./answers";
import { handleApiRequest } from "./api";
import { DEFAULT_NONCE_LIFETIME_MS, DigestAuthenticator } from "./digest";
import { type ChosenFault, Faults, validatePageCap } from "./faults";
import { challengeAnswer, type Framed, faultAnswer, frame, jsonHeaders } from "./framing";
import { profileRules } from "./profiles";
import { RequestLog } from "./request-log";
import { SimState } from "./state";
import type { RecordedRequest, Simulator, SimulatorOptions } from "./types";

const MAX_BODY_BYTES = 1024 * 1024;
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

function parseQuery(queryString: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(queryString)) {
    // The first occurrence wins, as a servlet's getParameter does; defineProperty keeps `__proto__` a
    // plain key.
    if (Object.getOwnPropertyDescriptor(query, name) === undefined) {
      Object.defineProperty(query, name, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return query;
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
  const timers = new Set<NodeJS.Timeout>();
  const scheme = opts.tls ? "https" : "http";
  const admin = state.adminKey();
  const log = new RequestLog(state, admin.privateKey, opts.record !== false);
  const host = opts.host ?? "127.0.0.1";
  let closing: Promise<void> | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const send = (res: http.ServerResponse, entry: RecordedRequest, { status, headers, text }: Framed) => {
    if (res.destroyed || res.headersSent) return;
    entry.status = status;
    res.writeHead(status, { ...headers, "Content-Length": String(Buffer.byteLength(text)) });
    res.end(text);
  };

  /** Applies what a fault does before the request is acted on; `true` when that ends the request. */
  const holdOrAnswer = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    entry: RecordedRequest,
    chosen: ChosenFault,
  ): Promise<boolean> => {
    const { fault } = chosen;
    entry.fault = chosen.name;
    if (fault.delayMs !== undefined) {
      await sleep(fault.delayMs);
      if (closing) return true;
    }
    if (fault.hang) return true;
    if (fault.drop === "before") {
      req.socket.destroy();
      return true;
    }
    if ((fault.raw !== undefined || fault.status !== undefined) && !fault.actThenFail) {
      fault.whenAnswered?.(entry);
      send(
        res,
        entry,
        faultAnswer(fault, rules, () => digest.challenge(false)),
      );
      return true;
    }
    return false;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    }
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const method = (req.method ?? "GET").toUpperCase();
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q < 0 ? target : target.slice(0, q);
    const query = parseQuery(q < 0 ? "" : target.slice(q + 1));
    const entry = log.add(method, path, query, req.headers, rawBody);

    if (size > MAX_BODY_BYTES) {
      const body = errorBody(413, "PAYLOAD_TOO_LARGE", `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
      send(res, entry, { status: 413, headers: jsonHeaders(), text: JSON.stringify(body) });
      return;
    }
    if (path !== API_ROOT && !path.startsWith(`${API_ROOT}/`)) {
      const body = errorBody(404, "RESOURCE_NOT_FOUND", `Cannot find resource ${path}.`, [path]);
      send(res, entry, { status: 404, headers: jsonHeaders(), text: JSON.stringify(body) });
      return;
    }

    const relPath = path.slice(API_ROOT.length) || "/";
    const early = faults.take(method, relPath, true);
    if (early && (await holdOrAnswer(req, res, entry, early))) return;

    const verdict = digest.verify(req.headers.authorization, method, target);
    if (verdict.fields) entry.digest = log.scrubRecord(verdict.fields);
    if (!verdict.ok) {
      send(res, entry, challengeAnswer(verdict.challenge));
      return;
    }
    entry.authenticated = true;

    const chosen = faults.take(method, relPath);
    const fault = chosen?.fault;
    if (chosen && (await holdOrAnswer(req, res, entry, chosen))) return;
    const answersFault = fault !== undefined && (fault.raw !== undefined || fault.status !== undefined);

    const result = handleApiRequest(
      {
        method,
        relPath,
        query,
        rawBody,
        contentType: req.headers["content-type"],
        origin: `${scheme}://${req.headers.host ?? `${urlHost(host)}:${port}`}`,
        caller: verdict.username,
      },
      state,
      rules,
      { maxItemsPerPage: faults.pageCap, projectKeyAssignAnswer: opts.projectKeyAssignAnswer },
    );
    fault?.whenAnswered?.(entry);

    if (fault?.drop === "after") {
      req.socket.destroy();
      return;
    }
    if (answersFault) {
      send(
        res,
        entry,
        faultAnswer(fault, rules, () => digest.challenge(false)),
      );
      return;
    }
    const framed = frame(result, query);
    // Only a role refusal answers 401 past authentication (./roles).
    if (opts.challengeOnRoleRefusal && framed.status === 401) {
      framed.headers["WWW-Authenticate"] = digest.challenge(false);
    }
    if (fault?.drop === "mid") {
      const buf = Buffer.from(framed.text);
      entry.status = framed.status;
      res.writeHead(framed.status, { ...framed.headers, "Content-Length": String(buf.length) });
      res.write(buf.subarray(0, Math.max(1, Math.floor(buf.length / 2))), () => req.socket.destroy());
      return;
    }
    send(res, entry, framed);
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      const body = errorBody(500, "UNEXPECTED_ERROR", `Unexpected error: ${(error as Error).message}`);
      const text = JSON.stringify(body);
      res.writeHead(500, {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(text)),
      });
      res.end(text);
    });
  };

  const server: http.Server = opts.tls
    ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, onRequest)
    : http.createServer(onRequest);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${scheme}://${urlHost(host)}:${port}`;

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
    state: {
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
    },
    resetRequests: () => {
      log.requests.length = 0;
    },
    close: () => {
      if (!closing) {
        closing = (async () => {
          for (const timer of timers) clearTimeout(timer);
          timers.clear();
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          // Idle keep-alive sockets and hanging requests would otherwise hold close() open.
          server.closeAllConnections();
          await closed;
          await state.flush();
        })();
      }
      return closing;
    },
  };
}

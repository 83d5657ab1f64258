/**
 * One request through the simulator, step by step: read it (./read-request), authenticate it
 * (./authenticate), apply the fault injected for it (./fault-effects), route it to the API (./api), and
 * frame the answer (./framing) and send it (./respond). Each step may end the request; the record in
 * the log (./request-log) says how far it went.
 */
import type * as http from "node:http";
import type { ApiResult } from "./answers";
import { handleApiRequest } from "./api";
import { authenticate } from "./authenticate";
import type { DigestAuthenticator } from "./digest";
import { answersItself, type FaultEffects } from "./fault-effects";
import type { Faults } from "./faults";
import { challengeAnswer, frame } from "./framing";
import type { ProfileRules } from "./profiles";
import { belowApiRoot, type IncomingRequest, readRequest, refusalBeforeAuth } from "./read-request";
import type { RequestLog } from "./request-log";
import { send, sendCut, sendUnexpected } from "./respond";
import type { SimState } from "./state";
import type { Fault } from "./types";

/** What the pipeline works with: one simulator's state, rules, credentials, faults and log. */
export interface PipelineParts {
  state: SimState;
  rules: ProfileRules;
  digest: DigestAuthenticator;
  faults: Faults;
  effects: FaultEffects;
  log: RequestLog;
  /** `http` or `https`, for the links in answers. */
  scheme: string;
  /** `host:port` the simulator listens on, for links when a request names no `Host`. */
  authority: () => string;
  /** `SimulatorOptions.challengeOnRoleRefusal`. */
  challengeOnRoleRefusal: boolean;
  /** `SimulatorOptions.projectKeyAssignAnswer`. */
  projectKeyAssignAnswer?: "key" | "noContent";
}

/** The simulator's request handler. */
export class RequestPipeline {
  constructor(private readonly parts: PipelineParts) {}

  /** The server's `request` listener: the pipeline, and a bare 500 when a step throws. */
  readonly listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    this.handle(req, res).catch((error: unknown) => sendUnexpected(res, error));
  };

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const { digest, faults, effects, log } = this.parts;

    // 1. Read, and refuse what never reaches authentication.
    const incoming = await readRequest(req, log);
    const { method, entry } = incoming;
    const refusal = refusalBeforeAuth(incoming);
    if (refusal) {
      send(res, entry, refusal);
      return;
    }
    const relPath = belowApiRoot(incoming.path);
    // A fault in front of the server, as a proxy's, acts before the credentials are read.
    const early = faults.take(method, relPath, true);
    if (early && (await effects.hold(req, res, entry, early))) return;

    // 2. Authenticate.
    const verdict = authenticate(digest, log, incoming, req.headers.authorization);
    if (!verdict.ok) {
      send(res, entry, challengeAnswer(verdict.challenge));
      return;
    }

    // 3. Fault: what the fault chosen for this request does before the API acts.
    const chosen = faults.take(method, relPath, false, verdict.username);
    if (chosen && (await effects.hold(req, res, entry, chosen))) return;

    // 4. Route: the key's use is recorded on its access list, then the API acts and answers.
    this.recordUse(req, verdict.username);
    const result = this.route(req, incoming, relPath, verdict.username);
    chosen?.fault.whenAnswered?.(entry);

    // 5. Frame and send, as the fault, if any, has it.
    this.answer(req, res, incoming, result, chosen?.fault);
  }

  /**
   * A request the key authenticated counts as a use of each entry of its access list that holds the
   * address it came from (`count`, `lastUsed`, `lastUsedAddress`). The simulator records use only: it
   * does not refuse an address outside the list.
   */
  private recordUse(req: http.IncomingMessage, caller: string): void {
    const key = this.parts.state.apiKeyByPublicKey(caller);
    const address = req.socket.remoteAddress;
    if (key !== undefined && address !== undefined) this.parts.state.accessLists.recordUse(key.id, address);
  }

  private route(
    req: http.IncomingMessage,
    { method, query, rawBody }: IncomingRequest,
    relPath: string,
    caller: string,
  ): ApiResult {
    const { state, rules, faults, scheme, authority } = this.parts;
    return handleApiRequest(
      {
        method,
        relPath,
        query,
        rawBody,
        contentType: req.headers["content-type"],
        origin: `${scheme}://${req.headers.host ?? authority()}`,
        caller,
      },
      state,
      rules,
      { maxItemsPerPage: faults.pageCap, projectKeyAssignAnswer: this.parts.projectKeyAssignAnswer },
    );
  }

  private answer(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    { query, entry }: IncomingRequest,
    result: ApiResult,
    fault: Fault | undefined,
  ): void {
    if (fault?.drop === "after") {
      req.socket.destroy();
      return;
    }
    // A fault that acts then fails: the API has acted, the client hears the fault.
    if (fault !== undefined && answersItself(fault)) {
      send(res, entry, this.parts.effects.answer(fault));
      return;
    }
    const framed = frame(result, query);
    // Only a role refusal answers 401 past authentication (./roles).
    if (this.parts.challengeOnRoleRefusal && framed.status === 401) {
      framed.headers["WWW-Authenticate"] = this.parts.digest.challenge(false);
    }
    if (fault?.drop === "mid") {
      sendCut(req, res, entry, framed);
      return;
    }
    send(res, entry, framed);
  }
}

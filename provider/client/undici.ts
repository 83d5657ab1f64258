import type { Agent, Dispatcher } from "undici";

/** The parts of undici this client uses. */
export interface UndiciParts {
  Agent: typeof Agent;
  /** undici's `Dispatcher#request`, called with an `Agent` as `this`. */
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** `"modules"`: the Agent and request modules alone; `"index"`: the whole package, the fallback. */
  from: "modules" | "index";
}

type Load = (id: string) => unknown;

let loaded: UndiciParts | undefined;

/**
 * undici's Agent and request API, loaded by the first request, so that a preview, which sends no
 * request, never loads undici; and only those two modules, not the index, which loads all of undici
 * (fetch, WebSocket, caches, mocks). undici has no `exports` map, so they resolve by path; should a
 * release move them, the index is loaded instead: slower, the same behaviour (a test says which ran).
 */
export function undici(): UndiciParts {
  loaded ??= loadUndici(requireUndici);
  return loaded;
}

/**
 * `require` of each module {@link loadUndici} asks for, each named literally: a bundler follows a
 * `require("…")` call and not a `require` passed as a value (the plugin's single executable bundles
 * undici, tools/release/bundle.js).
 */
function requireUndici(id: string): unknown {
  switch (id) {
    case "undici/lib/dispatcher/agent":
      return require("undici/lib/dispatcher/agent");
    case "undici/lib/api":
      return require("undici/lib/api");
    case "undici":
      return require("undici");
    default:
      throw new Error(`undici.ts loads no module ${id}`);
  }
}

/** {@link undici} with the loader given: for tests of the fallback. */
export function loadUndici(load: Load): UndiciParts {
  try {
    const AgentClass = load("undici/lib/dispatcher/agent");
    const api = load("undici/lib/api") as { request?: unknown } | undefined;
    if (typeof AgentClass === "function" && typeof api?.request === "function") {
      return {
        Agent: AgentClass as typeof Agent,
        request: api.request as UndiciParts["request"],
        from: "modules",
      };
    }
  } catch {
    // A release that moved them: the index below has them under their public names.
  }
  const index = load("undici") as typeof import("undici");
  return {
    Agent: index.Agent,
    request: index.Dispatcher.prototype.request as UndiciParts["request"],
    from: "index",
  };
}

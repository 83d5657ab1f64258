/**
 * What a deployment learns, kept for as long as the host runs. What it learns of a server is kept per
 * client ({@link perServer}), and clients are per server and credentials, so different credentials never
 * share what they see: the shared listings and the writes they wait for (./listing-cache.ts), what a
 * server showed of its log collection jobs (../log-collection-job/job-memory.ts). Each memory is made
 * here so that one reset forgets them all.
 */
import type { Transport } from "../../api/transport";

const resets: (() => void)[] = [];

/**
 * A memory per client: the function returned gives the one of `transport`'s server, made by `make` on
 * first use and forgotten by {@link resetServerMemoryForTests}.
 *
 * @example
 * const jobMemoryOf = perServer(() => ({ missing: new Map<string, ApiError>() }));
 */
export function perServer<T>(make: () => T): (transport: Transport) => T {
  let memories = new WeakMap<Transport, T>();
  resets.push(() => {
    memories = new WeakMap();
  });
  return (transport) => {
    let memory = memories.get(transport);
    if (memory === undefined) {
      memory = make();
      memories.set(transport, memory);
    }
    return memory;
  };
}

let created = new Set<string>();

/**
 * What this deployment created, by what names it on its server whatever name reached that server
 * (the server's API root and the resource's ids): a delete of an older resource naming the same thing
 * is then its replacement's to skip.
 */
export function createdInDeployment(): Set<string> {
  return created;
}

let keys = new Set<string>();

/**
 * The organization API keys a resource of this deployment created, adopted, read, updated or deleted,
 * as `{server's identity} {key id}`: a create whose answer was lost never takes one of them for the key
 * it may have made.
 */
export function keysInDeployment(): Set<string> {
  return keys;
}

let creates = new Map<string, unknown[]>();

/**
 * The creates of this deployment by what they make (an organization key's server, organization, desc
 * and roles): kept for the life of the process, since a create whose answer was lost may make its key
 * any time (see `org-api-key/deployment-keys.ts`).
 */
export function createsInDeployment<T>(): Map<string, T[]> {
  return creates as Map<string, T[]>;
}

let originals = new Map<string, unknown>();

/**
 * What existed before the program first managed each thing whose state this process has seen, by the
 * same names as {@link createdInDeployment}: a replacement created here carries it (./replacement.ts).
 */
export function originalsInDeployment(): Map<string, unknown> {
  return originals;
}

/** For tests: forget everything learned of every server. */
export function resetServerMemoryForTests(): void {
  for (const reset of resets) reset();
  created = new Set();
  keys = new Set();
  creates = new Map();
  originals = new Map();
}

/**
 * What a deployment learns, kept for as long as the host runs. What it learns of a server is kept per
 * client ({@link perServer}), and clients are per server and credentials, so different credentials never
 * share what they see: the shared listings (./listing-cache.ts), what a
 * server showed of its log collection jobs (../log-collection-job/job-memory.ts). What it learns of the
 * things its resources manage is kept for the deployment ({@link perDeployment}): what it created and
 * what was there before (./replacement.ts). Each
 * memory is made here so that one reset forgets them all.
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

/** A memory of the whole deployment, made by `make` and made anew by {@link resetServerMemoryForTests}. */
export function perDeployment<T>(make: () => T): () => T {
  let memory = make();
  resets.push(() => {
    memory = make();
  });
  return () => memory;
}

/**
 * What this deployment created, by what names it on its server whatever name reached that server
 * (the server's API root and the resource's ids): a delete of an older resource naming the same thing
 * is then its replacement's to skip.
 */
export const createdInDeployment = perDeployment(() => new Set<string>());

/**
 * What existed before the program first managed each thing whose state this process has seen, by the
 * same names as {@link createdInDeployment}: a replacement created here carries it (./replacement.ts).
 */
export const originalsInDeployment = perDeployment(() => new Map<string, unknown>());

/**
 * The names of {@link createdInDeployment} whose create carried no older resource's record, and so
 * recorded what it found as what existed before (a rename without an alias): ./replacement.ts.
 */
export const recordedAnewInDeployment = perDeployment(() => new Set<string>());

/** Forget everything learned of every server and by the deployment: another deployment begins. */
export function forgetServerMemory(): void {
  for (const reset of resets) reset();
}

/** For tests: {@link forgetServerMemory}. */
export const resetServerMemoryForTests = forgetServerMemory;

/**
 * How ./main.ts, inside the bundle, writes the code cache that ./code-cache.ts, outside it, holds: one
 * function under a key of the process's symbol registry, since the bundle and the launcher are two
 * separate copies of whatever module they both load.
 */
const FLUSH = Symbol.for("pulumi-opsmanager.flushCodeCache");

type Holder = Record<symbol, (() => void) | undefined>;

/** Sets what {@link flushCodeCache} runs, once (unset, it runs nothing). */
export function onFlushCodeCache(write: () => void): void {
  const holder = globalThis as unknown as Holder;
  holder[FLUSH] = () => {
    delete holder[FLUSH];
    write();
  };
}

/** Writes the bundle's code cache, when ./code-cache.ts ran the bundle and has one to write. */
export function flushCodeCache(): void {
  (globalThis as unknown as Holder)[FLUSH]?.();
}

/**
 * The version each resource's state carries, as terraform-provider-random's schema version does: a
 * resource lists one upgrade step per earlier version (`steps[v]` takes the state of version v to
 * version v + 1), and its state upgrade applies the steps from the stored version on, in order. A new
 * shape of state is then a step added, never a guess from which fields are present. State written
 * before versions were recorded has none: it is version 0, and its step is the upgrade that guesses.
 *
 * The version is a field of the stored state, `stateVersion`, and not a declared output: it says how
 * the provider stored the rest, which a program has no use for.
 */
import { ResourceError } from "./resource-error";

/** A resource's state upgrade, step by step. */
export interface StateUpgrade<T> {
  /** The resource's type name, as errors name it (`OrgApiKey`). */
  readonly resource: string;
  /**
   * `steps[v]` takes the state of version v (0: written before versions) to version v + 1, given the
   * resource's id; the last one gives today's shape, `T`.
   */
  readonly steps: readonly [...((state: never, id: string) => unknown)[], (state: never, id: string) => T];
}

/** The version as stored state holds it: absent in state written before versions. */
export interface StoredVersion {
  stateVersion?: number;
}

/** What the version of stored state is read from; any other field is the resource's. */
interface Versioned {
  stateVersion?: unknown;
  __provider?: unknown;
}

/** The provider method reading the state, named in the error it throws on a version it cannot read. */
export type StateReader = "diff" | "read" | "update" | "delete";

/** The version of today's shape: one per step. */
export function currentVersion(upgrade: StateUpgrade<unknown>): number {
  return upgrade.steps.length;
}

/**
 * The version `olds` was written at: 0 when it has none. A version this code has no step for is never
 * read as another: a newer package wrote it (a stack deployed with it, the package then downgraded),
 * and `method` stops with what to do.
 */
export function storedVersion(
  upgrade: StateUpgrade<unknown>,
  olds: object,
  id: string,
  method: StateReader,
): number {
  const found = (olds as Versioned).stateVersion;
  if (found === undefined) return 0;
  const current = currentVersion(upgrade);
  if (Number.isInteger(found) && (found as number) >= 1 && (found as number) <= current)
    return found as number;
  const what = `${upgrade.resource} ${id}`;
  if (Number.isInteger(found) && (found as number) > current) {
    throw new ResourceError(
      `${what}: the stack holds its state at version ${found}, which a newer pulumi-opsmanager wrote; the pulumi-opsmanager installed reads state up to version ${current}, so ${method} stopped rather than misread it. Upgrade pulumi-opsmanager in the program's dependencies (npm install pulumi-opsmanager@latest) and run the command again.`,
    );
  }
  throw new ResourceError(
    `${what}: the stack holds its state with stateVersion ${JSON.stringify(found)}, which no pulumi-opsmanager writes (a whole number from 1 to ${current} here), so ${method} stopped rather than misread it. Was the state edited by hand? \`pulumi stack export\` shows it.`,
  );
}

/**
 * `olds` in today's shape: the steps from its version on, in order, applied to it without its version
 * and the serialized provider that Pulumi's host adds. Throws as {@link storedVersion} does.
 */
export function upgradeState<T>(upgrade: StateUpgrade<T>, olds: object, id: string, method: StateReader): T {
  const version = storedVersion(upgrade, olds, id, method);
  const { stateVersion: _version, __provider: _provider, ...fields } = olds as Versioned;
  // A copy: what a method makes of the state never changes the state as stored.
  let state: unknown = structuredClone(fields);
  for (const step of upgrade.steps.slice(version)) state = step(state as never, id);
  return state as T;
}

/**
 * The version each resource's state carries, as terraform-provider-random's schema version does: a
 * resource lists one upgrade step per earlier version (`steps[v]` takes the state of version v to
 * version v + 1), and its state upgrade applies the steps from the stored version on, in order. A new
 * shape of state is then a step added, never a guess from which fields are present. State written
 * before versions were recorded has none: it is version 0, and its step is the upgrade that guesses.
 *
 * The version is a field of the stored state, `stateVersion`, and not a declared output: it says how
 * the provider stored the rest, which a program has no use for, and a refresh that finds nothing to
 * change leaves state without one as it was (see {@link stateAfterRead}).
 */
import { type PartialCreate, withProviderText } from "./partially-created";
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

/** The version that create, update and a refresh that changed the state write: one per step. */
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
  // A copy: what a method makes of the state never changes the state as stored, which read compares
  // with what it found (stateAfterRead).
  let state: unknown = structuredClone(fields);
  for (const step of upgrade.steps.slice(version)) state = step(state as never, id);
  return state as T;
}

/** `props` as create and update write them: at the current version. */
export function withCurrentVersion<P extends object>(
  upgrade: StateUpgrade<unknown>,
  props: P,
): P & { stateVersion: number } {
  return { ...props, stateVersion: currentVersion(upgrade) };
}

/**
 * The state a refresh returns: exactly the state stored, its version (or its lack of one) included,
 * when `props` (what the refresh found, in today's shape) hold nothing else; otherwise `props` at the
 * current version. Pulumi compares a refresh's outputs with the old ones field by field for a
 * resource read with `get` (pulumi/pulumi#16544), under `PULUMI_ENABLE_LEGACY_REFRESH_DIFF=true`, and
 * in CLIs before the refresh diff asked the provider (pulumi/pulumi#16146): there, a version added to
 * unchanged state would show every resource written before versions as changed by a refresh. State
 * kept as stored keeps the shape of the version it says, so its steps still apply, and it is kept only
 * when they make of it exactly what the refresh found.
 */
export function stateAfterRead<P extends object>(
  upgrade: StateUpgrade<unknown>,
  olds: object,
  props: P,
  id: string,
): P | (P & { stateVersion: number }) {
  const { stateVersion: _version, __provider: _provider, ...stored } = olds as Versioned;
  // Equal as written is not enough: a later step may read a field of an older version another way (a
  // number of seconds as milliseconds, say), and the state kept would then be read as other than what
  // the refresh found. Kept only when it also means, once upgraded, exactly what was found.
  // At the current version no step applies: the state upgraded is the state stored.
  if (
    sameJson(stored, props) &&
    (storedVersion(upgrade, olds, id, "read") === currentVersion(upgrade) ||
      sameJson(upgradeState(upgrade, olds, id, "read"), props))
  ) {
    const { __provider: _omitted, ...kept } = olds as Versioned;
    return kept as P;
  }
  return withCurrentVersion(upgrade, props);
}

/** Whether two plain JSON values are equal, objects whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, i) => sameJson(value, b[i]));
  }
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => k in y && sameJson(x[k], y[k]));
}

/** The provider methods that write state, as each resource's methods module has them. */
interface StateWriters {
  create(inputs: never): Promise<{ id: string; outs: object }>;
  update(id: string, olds: never, news: never): Promise<{ outs: object }>;
  read(id: string, olds?: never): Promise<{ id?: string; props?: object }>;
}

/**
 * `methods` writing `upgrade`'s version into the state they return: create's (a partially created
 * resource's too) and update's at the current version, read's as {@link stateAfterRead} says. Each
 * resource's method map in `provider/host.ts` is made with it, so no method of a resource can write
 * state without its version.
 */
export function versioned<M extends StateWriters>(upgrade: StateUpgrade<unknown>, methods: M): M {
  const writers: StateWriters = {
    async create(inputs) {
      try {
        const made = await methods.create(inputs);
        return { ...made, outs: withCurrentVersion(upgrade, made.outs) };
      } catch (error) {
        const partial = error as Partial<PartialCreate<object>>;
        if (typeof partial.id === "string" && typeof partial.properties === "object") {
          const recorded = withProviderText(partial.properties, inputs as object);
          partial.properties = withCurrentVersion(upgrade, recorded);
        }
        throw error;
      }
    },
    async update(id, olds, news) {
      const updated = await methods.update(id, olds, news);
      return { ...updated, outs: withCurrentVersion(upgrade, updated.outs) };
    },
    async read(id, olds) {
      const found = await methods.read(id, olds);
      // A resource gone (an empty id) leaves the stack: there is no state to write.
      if (!found.id || found.props === undefined) return found;
      return { ...found, props: stateAfterRead(upgrade, olds ?? {}, found.props, found.id) };
    },
  };
  return { ...methods, ...writers };
}

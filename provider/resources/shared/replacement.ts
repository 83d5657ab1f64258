/**
 * One rule for every resource that records what it found before it managed something (an adopted key's
 * desc and roles, an assignment's roles), so that a destroy can put it back: a replacement that manages
 * the same thing on the same server (a resource renamed without an alias, `pulumi up --replace`) carries
 * that record from the old resource, keeps its own declared values applied, and a later destroy puts the
 * original back.
 *
 * The engine creates the replacement first and deletes the old resource after, in the same host process
 * (unless `deleteBeforeReplace`): the old resource's delete must then leave things as the replacement
 * applied them. The replacement can carry the old record only when this process has seen the old
 * resource's state before its create (a refresh in the same run, `pulumi up --refresh`; a diff); for a
 * renamed resource and for `--replace` the engine sends the provider no old state before the create.
 */
import { identityOf } from "./server-input";
import { createdInDeployment, originalsInDeployment, recordedAnewInDeployment } from "./server-memory";
import { warn } from "./warn";

/** What names a managed thing on its server whatever name reached that server: `{identity} {what}`. */
export function managedName(server: string | undefined, what: string): string {
  return `${identityOf(server) ?? ""} ${what}`;
}

/** Note what a resource's state records as there before the program managed `name`; the first stays. */
export function rememberOriginal(name: string, original: unknown): void {
  const seen = originalsInDeployment();
  if (!seen.has(name)) seen.set(name, original);
}

/** What an older resource of `name`, seen in this process, recorded as there before; else `undefined`. */
export function carriedOriginal<T>(name: string): T | undefined {
  return originalsInDeployment().get(name) as T | undefined;
}

/**
 * Note that a create of this process now manages `name`: an older resource's delete then leaves it.
 * `carried`: whether that create carried an older resource's record of what existed before; without
 * it, the create recorded what it found, which a delete of the older resource warns about.
 */
export function noteManagedHere(name: string, carried = true): void {
  createdInDeployment().add(name);
  if (!carried) recordedAnewInDeployment().add(name);
}

/**
 * Whether the create of this process that manages `name` carried no older resource's record: the older
 * resource's record of what existed before is then lost with its delete (a rename without an alias,
 * whose old state the engine never shows the new resource's create).
 */
export function recordLostToReplacement(name: string): boolean {
  return recordedAnewInDeployment().has(name);
}

/**
 * Warns, in the output of the `pulumi up` that deletes `resource`, that the values it recorded as there
 * before Pulumi (`original`) were not carried to the resource that replaced it in this run, so that a
 * later `pulumi destroy` no longer puts them back, and names the alias that would have kept them.
 */
export function warnRecordLost(resource: string, what: string, original: string): void {
  const message =
    `${resource}: a resource created in this run manages the same ${what} (a rename without an alias), so ` +
    `this resource's delete leaves the ${what} as that resource declares. The ${what} had ${original} before ` +
    "Pulumi managed it; that record was not carried to the new resource, which recorded the values it found, " +
    "so `pulumi destroy` will no longer put them back. Giving the new resource an alias naming this one " +
    '(`aliases: [{ name: "<the old name>" }]`) before renaming keeps the record; now, put those values back ' +
    "by hand after a destroy if they are wanted.";
  warn(message);
}

/**
 * Whether a create of this process manages `name`: the delete of an older resource naming it comes after
 * its replacement, and undoing it (a restore, an unassignment, a delete) would undo the replacement.
 */
export function managedHere(name: string): boolean {
  return createdInDeployment().has(name);
}

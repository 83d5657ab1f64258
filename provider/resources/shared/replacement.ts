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
import { createdInDeployment, originalsInDeployment } from "./server-memory";

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

/** Note that a create of this process now manages `name`: an older resource's delete then leaves it. */
export function noteManagedHere(name: string): void {
  createdInDeployment().add(name);
}

/**
 * Whether a create of this process manages `name`: the delete of an older resource naming it comes after
 * its replacement, and undoing it (a restore, an unassignment, a delete) would undo the replacement.
 */
export function managedHere(name: string): boolean {
  return createdInDeployment().has(name);
}

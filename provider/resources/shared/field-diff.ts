/**
 * A resource's diff as its one core computes it: the inputs whose change forces a replacement and the
 * inputs that change in place, by name. Each face answers the engine from it: the dynamic host with
 * `changes`, `replaces` and `deleteBeforeReplace` (it has no detailed diff), the provider plugin with
 * a detailed diff of exactly these fields.
 */
export interface FieldDiff {
  /** Inputs whose change replaces the resource. */
  replaces: string[];
  /** Inputs that change in place (starting or ceasing to manage one included). */
  updates: string[];
  /** Whether the old resource goes before its replacement is made. */
  deleteBeforeReplace: boolean;
}

/** The diff as `pulumi.dynamic.ResourceProvider`'s `diff` returns it. */
export function asDynamicDiff(diff: FieldDiff): {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
} {
  return {
    changes: diff.replaces.length + diff.updates.length > 0,
    replaces: diff.replaces,
    deleteBeforeReplace: diff.deleteBeforeReplace,
  };
}

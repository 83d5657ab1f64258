/**
 * A record of a listed page: its id read now, the rest checked only when first used, so that a record
 * the server describes wrongly fails only the resource that uses it, and a listing of thousands checks
 * only the records a deployment uses. The check is a function, not a schema, so that the declaration
 * names no zod type (see `types.ts`).
 */
export class ListedRecord<T> {
  readonly id: string;
  private readonly check: () => T;
  private parsed: T | undefined;

  /** `check` reads the whole record, throwing a `ResponseShapeError` that names its place in its page. */
  constructor(id: string, check: () => T) {
    this.id = id;
    this.check = check;
    this.parsed = undefined;
  }

  /** The record as its check reads it; checked once. */
  record(): T {
    this.parsed ??= this.check();
    return this.parsed;
  }
}

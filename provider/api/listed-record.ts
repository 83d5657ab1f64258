/**
 * A record of a listed page: what it is known by (its id) read now, the rest of it checked only when
 * first used, so that a record the server describes wrongly fails the resource that uses it, not every
 * resource of the listing, and a listing of thousands checks only the records a deployment uses.
 *
 * It takes the check as a function rather than a schema, so that its declaration names no zod type
 * (the package's public declarations must not: see `types.ts`).
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

import type { z } from "zod";
import type { JsonResponse } from "../client/types";
import { parseResponse } from "./parse";

/**
 * A record of a listed page: its id read now, the rest of it checked against `schema` only when first
 * used, so that a record the server describes wrongly fails the resource that uses it, not every
 * resource of the listing, and a listing of thousands checks only the records a deployment uses.
 */
export class ListedRecord<T> {
  readonly id: string;
  private readonly schema: z.ZodType<T>;
  private readonly raw: Record<string, unknown>;
  private readonly response: JsonResponse;
  private readonly path: string;
  private readonly index: number;
  private parsed: T | undefined;

  constructor(
    schema: z.ZodType<T>,
    raw: Record<string, unknown> & { id: string },
    response: JsonResponse,
    path: string,
    index: number,
  ) {
    this.id = raw.id;
    this.schema = schema;
    this.raw = raw;
    this.response = response;
    this.path = path;
    this.index = index;
    this.parsed = undefined;
  }

  /** The record as the schema reads it; throws a `ResponseShapeError` naming `results[index]`. */
  protected checked(): T {
    this.parsed ??= parseResponse(this.schema, this.response, "GET", this.path, {
      value: this.raw,
      at: ["results", this.index],
    });
    return this.parsed;
  }
}

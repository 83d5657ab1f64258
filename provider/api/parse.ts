import type { z } from "zod";
import { ResponseShapeError } from "../client/errors";
import type { JsonResponse } from "../client/types";
import { WRONG_SHAPE_HINT } from "./request";

/** The path of a zod issue as a reader would write it: `results[3].roles[0].roleName`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}

/**
 * Validate a response body against `schema`. A body that does not match raises a
 * {@link ResponseShapeError} naming each field at fault: the request succeeded, the data was refused.
 * With `part`, validates `part.value`, found in the body at `part.at` (`["results", 3]`), instead.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  response: JsonResponse,
  method: string,
  path: string,
  part?: { value: unknown; at: readonly PropertyKey[] },
): z.infer<S> {
  const result = schema.safeParse(part === undefined ? response.body : part.value);
  if (result.success) return result.data;
  const at = part?.at ?? [];
  throw new ResponseShapeError({
    method,
    path,
    url: response.url,
    status: response.status,
    hint: WRONG_SHAPE_HINT,
    description: "the body does not match the expected schema",
    issues: result.error.issues.map(
      (issue) => `${issuePath([...at, ...issue.path]) || "body"}: ${issue.message}`,
    ),
  });
}

/**
 * A listed record without what a record is known by (its id, a key's public key): the page's schema
 * may pass such a record when it checks the rest on use, so it is refused here, naming the record.
 */
export function unnamedRecordError(
  response: JsonResponse,
  path: string,
  index: number,
  missing: string,
): ResponseShapeError {
  return new ResponseShapeError({
    method: "GET",
    path,
    url: response.url,
    status: response.status,
    hint: WRONG_SHAPE_HINT,
    description: `results[${index}] has no ${missing}`,
  });
}

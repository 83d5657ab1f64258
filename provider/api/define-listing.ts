import type { z } from "zod";
import type { ListedRecord } from "./listed-record";
import { type Listing, listedById } from "./listing-pages";
import { parseResponse } from "./parse";
import { listingPageSchema } from "./schemas";

/** What {@link defineListing} needs; `names` defaults to `["id"]`, `listed` to a record by its id. */
export interface ListingDefinition<T, L extends ListedRecord<T>>
  extends Pick<Listing<T, L>, "path" | "noun" | "get"> {
  /** One record's schema, checked when the record is first used. */
  schema: z.ZodType<T, unknown>;
  names?: Listing<T, L>["names"];
  listed?: Listing<T, L>["listed"];
}

/** The {@link Listing} of `definition`, checked against the schema of a page of any listing. */
export function defineListing<T, L extends ListedRecord<T> = ListedRecord<T>>(
  definition: ListingDefinition<T, L>,
): Listing<T, L> {
  const { path, schema } = definition;
  return {
    path,
    noun: definition.noun,
    get: definition.get,
    names: definition.names ?? ["id"],
    listed: definition.listed ?? (listedById as Listing<T, L>["listed"]),
    envelope: (response) => parseResponse(listingPageSchema, response, "GET", path),
    check: (response, value, index) =>
      parseResponse(schema, response, "GET", path, { value, at: ["results", index] }),
  };
}

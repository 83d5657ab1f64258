/** One answer of the server as a public source shows it, served byte for byte. */
export interface PublishedAnswer {
  /**
   * Where it comes from: repository, commit, path and test name, or a documentation page's title and
   * address.
   */
  source: string;
  /**
   * `published`: the source shows this body (its shape and values). `constructed`: no source shows a
   * body for it; built from the documented error shape (`detail, error, errorCode, parameters, reason`)
   * with the error table's description as `detail`.
   */
  kind: "published" | "constructed";
  /** What was filled in, left out or adjusted, and why. */
  note?: string;
  status: number;
  headers: Record<string, string>;
  /** The body exactly as served. */
  body: string;
}

/** `Content-Type` of successful answers (spec, Versioning). */
export const JSON_HEADERS = { "content-type": "application/json" } as const;

/** `Content-Type` of the server's error answers, as the spec shows it for the 401. */
export const ERROR_HEADERS = { "content-type": "application/json;charset=ISO-8859-1" } as const;

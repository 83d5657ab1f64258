/** The request an error is about. `path` is below the API root; `url` is absolute and has no credentials. */
export interface CallInfo {
  method: string;
  path: string;
  url: string;
}

/** `: GET https://host/api/public/v1.0/…`, the ending of every message. */
export function callSuffix(call: CallInfo): string {
  return `: ${call.method} ${call.url}`;
}

/** Whitespace collapsed and cut to `max` characters, for quoting a body in a message. */
export function quoteSnippet(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat;
  return JSON.stringify(cut);
}

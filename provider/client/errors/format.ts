/** The request an error is about. `path` is below the API root; `url` is absolute and has no credentials. */
export interface CallInfo {
  method: string;
  path: string;
  url: string;
  /** For the bodyless `GET` that fetched a challenge: the method of the request, which was not sent. */
  probeFor?: string;
}

/**
 * `GET /path`, the start of every message; for a challenge request,
 * `GET /path (the bodyless request that fetches the authentication challenge, sent before the POST)`.
 */
export function callHead(call: CallInfo): string {
  const head = `${call.method} ${call.path}`;
  if (call.probeFor === undefined) return head;
  return `${head} (the bodyless request that fetches the authentication challenge, sent before the ${call.probeFor})`;
}

/** For a challenge request, `; the POST itself was not sent, so the server did not act on it`; else "". */
export function notSentNote(call: CallInfo): string {
  if (call.probeFor === undefined) return "";
  return `; the ${call.probeFor} itself was not sent, so the server did not act on it`;
}

/** The server's part of a URL, `om.example.com:8443` or the host alone; `url` itself should it not parse. */
export function hostOf(url: string, withPort: boolean): string {
  try {
    const parsed = new URL(url);
    return withPort ? parsed.host : parsed.hostname;
  } catch {
    return url;
  }
}

/**
 * The base URL a call was sent below, for a message whose advice is to check it: the call's `url` less
 * its `path` and query, `https://om.example.com:8443/api/public/v1.0`; the origin when they differ.
 */
export function baseUrlOf(call: CallInfo): string {
  try {
    const parsed = new URL(call.url);
    const below = parsed.pathname.endsWith(call.path) ? parsed.pathname.slice(0, -call.path.length) : "";
    return `${parsed.origin}${below}`;
  } catch {
    return call.url;
  }
}

/** Whitespace collapsed and cut to `max` characters, for quoting a body in a message. */
export function quoteSnippet(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat;
  return JSON.stringify(cut);
}

/**
 * A system or TLS library message on one line: OpenSSL's `80…:error:0A00010B:SSL routines:…:wrong
 * version number:../deps/…:350:` becomes `wrong version number`; other text has its white space
 * collapsed and is cut to `max` characters.
 */
export function oneLine(text: string, max = 200): string {
  const openssl = /[0-9A-F]{8,}:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/.exec(text);
  const flat = (openssl?.[1] ?? text).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Redaction of what a server sends back, bound for messages: a hostile or buggy one may echo credentials. */

/** What one call must never let through: the password and every Authorization header it sent. */
export interface Secrets {
  password: string;
  /** Authorization headers sent for this call. */
  authorizations: readonly string[];
}

/** `text` without the password, the Authorization headers (raw, JSON- or HTML-escaped) or any digest hash. */
export function redact(text: string, secrets: Secrets): string {
  let out = text;
  for (const value of [...secrets.authorizations, secrets.password]) {
    const forms = new Set([value, JSON.stringify(value).slice(1, -1), escapeHtml(value)]);
    for (const form of forms) out = out.split(form).join("[redacted]");
  }
  // The hashes themselves are hex, which no escaping or URL-encoding changes: removing them by value
  // also catches an echo escaped twice, or quoted inside a redirect's URL.
  for (const header of secrets.authorizations) {
    const hash = /response\s*=\s*"?([0-9a-f]{32,64})/i.exec(header)?.[1];
    if (hash !== undefined) out = out.split(hash).join("[redacted]");
  }
  return out.replace(/(response\s*=\s*(?:\\?["'])?)[0-9a-f]{32,64}/gi, "$1[redacted]");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The path of Ops Manager's public API below the server's URL (spec, Base URL). */
export const API_ROOT_PATH = "/api/public/v1.0";

/**
 * The API root for a server URL as a user types it; a URL with a path (a proxy's prefix, or the API
 * root itself) is taken as the API root. A URL the transport will refuse is returned as given, so that
 * the transport's check names it as the user typed it.
 *
 * @example
 * apiRoot("https://om.example.com:8443") // "https://om.example.com:8443/api/public/v1.0"
 */
export function apiRoot(serverUrl: string): string {
  if (typeof serverUrl !== "string") return serverUrl;
  const text = serverUrl.trim();
  if (!URL.canParse(text) || /[?#]/.test(text)) return serverUrl;
  const url = new URL(text);
  const refused =
    (url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "";
  // Decided on the parsed path, as the request's URL will be: `https://om/.` and `https://om\` are the
  // server's root too.
  if (refused || url.pathname.replace(/\/+$/, "") !== "") return serverUrl;
  return `${url.origin}${API_ROOT_PATH}`;
}

/**
 * Which server a URL names: its API root ({@link apiRoot}) in one spelling for every way of writing
 * it (`https://om:443/`, `https://OM`), or `undefined` for a URL that is none.
 *
 * @example
 * apiRootIdentity("https://OM.example.com:443/") // "https://om.example.com/api/public/v1.0"
 */
export function apiRootIdentity(serverUrl: string): string | undefined {
  try {
    const url = new URL(apiRoot(serverUrl));
    return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return undefined;
  }
}

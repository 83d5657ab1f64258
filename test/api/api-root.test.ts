import { describe, expect, it } from "vitest";
import { API_ROOT_PATH, apiRoot } from "../../provider/api/api-root";
import { resolveBaseUrl } from "../../provider/client";

/** The URL the client sends below, for a server URL as a user types it. */
const rootFor = (serverUrl: string) => resolveBaseUrl(apiRoot(serverUrl));

describe("the API root below a server's URL", () => {
  it("appends the API root to a bare server URL and keeps a given path", () => {
    expect(API_ROOT_PATH).toBe("/api/public/v1.0");
    expect(rootFor("https://om.example.com:8443")).toBe("https://om.example.com:8443/api/public/v1.0");
    expect(rootFor("https://om.example.com:8443/")).toBe("https://om.example.com:8443/api/public/v1.0");
    expect(rootFor("http://10.0.0.5:8080/api/public/v1.0/")).toBe("http://10.0.0.5:8080/api/public/v1.0");
    expect(rootFor("https://proxy.example.com/mms/api/public/v1.0")).toBe(
      "https://proxy.example.com/mms/api/public/v1.0",
    );
    expect(rootFor("  HTTPS://OM.example.com ")).toBe("https://om.example.com/api/public/v1.0");
  });

  it("decides on the path as the URL parser reads it, not as it is typed", () => {
    for (const url of [
      "https://om/.",
      "https://om/./",
      "https://om/%2e",
      "https:///om",
      "https://om\\",
      "https://om//",
    ]) {
      expect(rootFor(url)).toBe("https://om/api/public/v1.0");
    }
    expect(rootFor("https://om:8443\\mms")).toBe("https://om:8443/mms");
  });

  it("leaves a URL the transport refuses as typed, so that the transport's message quotes it so", () => {
    for (const url of [
      "om.example.com:8443",
      "ftp://om.example.com",
      "https://om.example.com/?x=1",
      "https://u:p@h",
    ]) {
      expect(apiRoot(url)).toBe(url);
    }
  });
});

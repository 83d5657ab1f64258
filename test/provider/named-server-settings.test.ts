/**
 * The settings of a named server (`opsmanager:servers.<name>`), in-process: each rule names the exact
 * `--path` key to set, no value of the object is ever echoed (it holds private keys), named servers take
 * nothing from the environment, and each server's settings are resolved and kept on their own.
 */
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import * as key from "../../provider/resources/org-api-key/org-api-key-methods";
import { configure, currentSettings, resetRuntimeForTests } from "../../provider/resources/shared/runtime";
import { resolveServerSettings, unknownServerReason } from "../../provider/resources/shared/servers";
import { resolveSettings } from "../../provider/resources/shared/settings";

const SECRET = "6f1d2c3b-name-4e5f-a6b7-RECOGNIZABLE41";
const dc2 = { baseUrl: "https://om2.example.com:8443", publicKey: "ijklmnop", privateKey: SECRET };

const lookup =
  (servers: unknown) =>
  (k: string): string | undefined =>
    k === "opsmanager:servers"
      ? typeof servers === "string"
        ? servers
        : JSON.stringify(servers)
      : undefined;

function thrown(work: () => unknown): Error & { code?: string; settings?: string[] } {
  try {
    work();
  } catch (error) {
    return error as Error & { code?: string; settings?: string[] };
  }
  throw new Error("nothing was thrown");
}

afterEach(() => resetRuntimeForTests());

describe("a named server's settings", () => {
  it("are read from its entry, a timeout given as a number too", () => {
    const settings = resolveServerSettings("dc2", lookup({ dc2: { ...dc2, timeoutSeconds: 60 } }));
    expect(settings).toEqual({ ...dc2, server: "dc2", timeoutMs: 60_000 });
  });

  it("missing ones fail together, each named by its exact --path key and how to set it", () => {
    const error = thrown(() => resolveServerSettings("dc2", lookup({ dc2: { baseUrl: dc2.baseUrl } })));
    expect(error.code).toBe("OM_ERR_CONFIG");
    expect(error.settings).toEqual(["opsmanager:servers.dc2.publicKey", "opsmanager:servers.dc2.privateKey"]);
    expect(error.message).toBe(
      "Ops Manager settings missing: opsmanager:servers.dc2.publicKey, opsmanager:servers.dc2.privateKey. " +
        "Set opsmanager:servers.dc2.publicKey (pulumi config set --path 'opsmanager:servers.dc2.publicKey' …); " +
        "opsmanager:servers.dc2.privateKey (pulumi config set --secret --path 'opsmanager:servers.dc2.privateKey' …).",
    );
  });

  it("take nothing from the environment, which is the default server's", () => {
    const env = { OPSMANAGER_PRIVATE_KEY: "from-env", OPSMANAGER_BASE_URL: "https://om.example.com" };
    const config = lookup({ dc2: { baseUrl: dc2.baseUrl, publicKey: dc2.publicKey } });
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      expect(thrown(() => resolveServerSettings("dc2", config)).settings).toEqual([
        "opsmanager:servers.dc2.privateKey",
      ]);
    } finally {
      process.env = saved;
    }
  });

  it("a malformed object is refused without echoing any of it", () => {
    const broken = `{"dc2": {"privateKey": "${SECRET}"`;
    const error = thrown(() => resolveServerSettings("dc2", lookup(broken)));
    expect(error.message).toMatch(/^opsmanager:servers must be an object of named servers/);
    expect(error.message).not.toContain(SECRET);
    const notObject = thrown(() => resolveServerSettings("dc2", lookup({ dc2: [SECRET] })));
    expect(notObject.message).toMatch(/^opsmanager:servers\.dc2 must be an object of settings/);
    expect(notObject.message).not.toContain(SECRET);
  });

  it("a setting that is not one names the one meant; a value of the wrong type names its key, not its value", () => {
    const typo = thrown(() => resolveServerSettings("dc2", lookup({ dc2: { ...dc2, baseURL: "x" } })));
    expect(typo.message).toContain("opsmanager:servers.dc2.baseURL is not a setting of a server");
    expect(typo.message).toContain("(did you mean baseUrl?)");
    const wrongType = thrown(() =>
      resolveServerSettings("dc2", lookup({ dc2: { ...dc2, privateKey: { value: SECRET } } })),
    );
    expect(wrongType.message).toBe(
      "opsmanager:servers.dc2.privateKey must be a string; set it with opsmanager:servers.dc2.privateKey (pulumi config set --secret --path 'opsmanager:servers.dc2.privateKey' …)",
    );
  });

  it("a bad URL, timeout or CA file names the server's own key", () => {
    const url = thrown(() =>
      resolveServerSettings(
        "dc2",
        lookup({ dc2: { ...dc2, baseUrl: `https://u:${SECRET}@om2.example.com` } }),
      ),
    );
    expect(url.message).toMatch(
      /^opsmanager:servers\.dc2\.baseUrl must not carry credentials; set opsmanager:servers\.dc2\.publicKey and opsmanager:servers\.dc2\.privateKey instead/,
    );
    expect(url.message).not.toContain(SECRET);
    const timeout = thrown(() =>
      resolveServerSettings("dc2", lookup({ dc2: { ...dc2, timeoutSeconds: 0 } })),
    );
    expect(timeout.message).toMatch(/^opsmanager:servers\.dc2\.timeoutSeconds must be a number of seconds/);
    const ca = thrown(() =>
      resolveServerSettings("dc2", lookup({ dc2: { ...dc2, caCertificate: "/no/such/ca.pem" } })),
    );
    expect(ca.message).toMatch(/^opsmanager:servers\.dc2\.caCertificate names the CA certificate file/);
    expect(ca.settings).toEqual(["opsmanager:servers.dc2.caCertificate"]);
  });

  it("a user name of digits, stored by `--path` as a number, is taken as its text", () => {
    const settings = resolveServerSettings("dc2", lookup({ dc2: { ...dc2, publicKey: 12345678 } }));
    expect(settings.publicKey).toBe("12345678");
  });

  it("a name that is a member of every object (constructor) is a name like any other: not configured", () => {
    const error = thrown(() => resolveServerSettings("constructor", lookup({ dc2 })));
    expect(error.message).toMatch(
      /^server names the server "constructor", which is not configured; opsmanager:servers has dc2/,
    );
    expect(error.message).toContain(
      "A resource the stack holds on it needs it configured, under that name, until the resource is deleted or moved",
    );
  });

  it("a name that is not configured gets the names that are, and a near miss", () => {
    const config = lookup({ dc1: dc2, dc2 });
    expect(unknownServerReason("dc2", config)).toBeUndefined();
    expect(unknownServerReason("DC-2", config)).toContain('(did you mean "dc2"?)');
    expect(unknownServerReason("london", config)).toMatch(
      /^names the server "london", which is not configured; opsmanager:servers has dc1, dc2, or add it with pulumi config set --path 'opsmanager:servers\.london\.baseUrl' URL/,
    );
    expect(unknownServerReason("dc2", lookup(undefined))).toMatch(
      /but no server is configured under opsmanager:servers/,
    );
  });

  it("are kept per server: resolving another does not resolve the first again, nor touch the default", () => {
    const config = lookup({ dc1: { ...dc2, baseUrl: "https://om1.example.com" }, dc2 });
    const first = resolveServerSettings("dc1", config);
    const second = resolveServerSettings("dc2", config);
    expect(resolveServerSettings("dc1", config)).toBe(first);
    expect(resolveServerSettings("dc2", config)).toBe(second);
    expect(first.baseUrl).toBe("https://om1.example.com");
    const defaults = resolveSettings(
      (k) =>
        ({
          "opsmanager:baseUrl": "https://om.example.com",
          "opsmanager:publicKey": "p",
          "opsmanager:privateKey": "q",
        })[k],
      {},
    );
    expect(defaults.server).toBeUndefined();
    expect(defaults.baseUrl).toBe("https://om.example.com");
  });

  it("reach the provider however the host hands the object over: JSON text, or an object with secrets inside", async () => {
    const wrapped = {
      dc2: {
        ...dc2,
        privateKey: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: SECRET },
      },
    };
    for (const value of [JSON.stringify({ dc2 }), wrapped]) {
      resetRuntimeForTests();
      await configure({
        config: { get: (k: string) => (k === "opsmanager:servers" ? value : undefined) as string },
      });
      expect(currentSettings("dc2")).toMatchObject({ ...dc2, server: "dc2" });
    }
  });
});

describe("a resource on a named server", () => {
  it("names the server and its own baseUrl key when the server cannot be reached", async () => {
    // A port that refuses: bound, then closed.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const servers = { dc2: { ...dc2, baseUrl: `http://127.0.0.1:${port}` } };
    await configure({
      config: { get: (k: string) => (k === "opsmanager:servers" ? JSON.stringify(servers) : undefined) },
    });
    const error = await key
      .create({ orgId: "5f0000000000000000000001", apiKeyId: "5f0000000000000000000009", server: "dc2" })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toContain(
      "OrgApiKey (API key id 5f0000000000000000000009 in organization 5f0000000000000000000001, server dc2)",
    );
    expect(error?.message).toContain("opsmanager:servers.dc2.baseUrl");
    expect(error?.message).not.toContain("opsmanager:baseUrl");
    expect(error?.message).not.toContain(SECRET);
  }, 30_000);
});

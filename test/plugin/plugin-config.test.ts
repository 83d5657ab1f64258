/**
 * The provider's own configuration over gRPC, as the engine calls the plugin for a provider resource:
 * CheckConfig checks every setting by the core's rules and names it as the user wrote it (`baseUrl`
 * for an explicit provider, `opsmanager:baseUrl` for the default provider's stack config), the
 * environment's fallbacks counting; Configure fails in the same words; the private key comes back a
 * secret; DiffConfig replaces on another server and updates in place otherwise.
 */
import type * as provpbTypes from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../support/host";
import { type Plugin, plain, provpb, secret, startPlugin, struct } from "../support/plugin";

const EXPLICIT = "urn:pulumi:dev::proj::pulumi:providers:opsmanager::prod";
const DEFAULT = "urn:pulumi:dev::proj::pulumi:providers:opsmanager::default_0_1_0";
const GOOD = {
  baseUrl: "https://om.example.com:8443",
  publicKey: "abcdefgh",
  privateKey: "0000-private-1111",
};

let plugin: Plugin;
let withEnv: Plugin;

beforeAll(async () => {
  [plugin, withEnv] = await Promise.all([
    startPlugin(),
    startPlugin({
      OPSMANAGER_BASE_URL: "https://env.example.com",
      MCLI_PUBLIC_API_KEY: "envuser",
      OPSMANAGER_PRIVATE_KEY: "env-private",
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([plugin?.close(), withEnv?.close()]);
});

async function checkConfig(urn: string, news: Record<string, unknown>, on = plugin) {
  const req = new provpb.CheckRequest().setUrn(urn).setNews(struct(news as never));
  const res = await on.call<provpbTypes.CheckResponse>("checkConfig", req);
  return {
    inputs: plain(res.getInputs()),
    failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
  };
}

async function configure(urn: string, args: Record<string, unknown>, on = plugin) {
  const req = new provpb.ConfigureRequest()
    .setUrn(urn)
    .setArgs(struct(args as never))
    .setAcceptsecrets(true);
  return on.call<provpbTypes.ConfigureResponse>("configure", req);
}

async function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>, on = plugin) {
  const req = new provpb.DiffRequest()
    .setUrn(EXPLICIT)
    .setOldInputs(struct(olds as never))
    .setOlds(struct(olds as never))
    .setNews(struct(news as never));
  const res = await on.call<provpbTypes.DiffResponse>("diffConfig", req);
  const kinds = ["ADD", "ADD_REPLACE", "DELETE", "DELETE_REPLACE", "UPDATE", "UPDATE_REPLACE"];
  const detailed: Record<string, string> = {};
  res.getDetaileddiffMap().forEach((entry, name) => {
    detailed[name] = kinds[entry.getKind()]!;
  });
  return {
    changes: res.getChanges() === provpb.DiffResponse.DiffChanges.DIFF_SOME,
    replaces: res.getReplacesList(),
    detailed,
  };
}

describe("test/plugin/plugin-config: the provider's settings, checked and diffed by the plugin", () => {
  it("a bad baseUrl is a failure of baseUrl for an explicit provider, of opsmanager:baseUrl for the default one", async () => {
    const explicit = await checkConfig(EXPLICIT, { ...GOOD, baseUrl: "ftp://om.example.com" });
    expect(explicit.failures).toEqual([
      {
        property: "baseUrl",
        reason:
          'baseUrl must start with http:// or https:// (got "ftp://om.example.com"); for example https://om.example.com:8443',
      },
    ]);
    const stack = await checkConfig(DEFAULT, { ...GOOD, baseUrl: "ftp://om.example.com", version: "0.1.0" });
    expect(stack.failures).toEqual([
      {
        property: "opsmanager:baseUrl",
        reason:
          'opsmanager:baseUrl must start with http:// or https:// (got "ftp://om.example.com"); for example https://om.example.com:8443',
      },
    ]);
  });

  it("the default provider of a program that names the plugin's download URL, with a version (the SDKs) or without, takes stack config too", async () => {
    // The engine's name for it: default, the version, the URL as a name (tokens.IntoQName).
    const url = "github_/api.github.com/pulumi-opsmanager/pulumi-opsmanager";
    const bad = { ...GOOD, baseUrl: "ftp://om.example.com" };
    for (const name of [`default_0_1_0_${url}`, `default_${url}`]) {
      const { failures } = await checkConfig(
        `urn:pulumi:dev::proj::pulumi:providers:opsmanager::${name}`,
        bad,
      );
      expect(
        failures.map((f) => f.property),
        name,
      ).toEqual(["opsmanager:baseUrl"]);
    }
    const named = await checkConfig("urn:pulumi:dev::proj::pulumi:providers:opsmanager::default_prod", bad);
    expect(named.failures.map((f) => f.property)).toEqual(["baseUrl"]);
  });

  it("missing settings are named with where to set them; the environment's fallbacks count", async () => {
    const none = await checkConfig(EXPLICIT, {});
    expect(none.failures).toEqual([
      {
        property: "",
        reason:
          "Ops Manager settings missing: baseUrl, publicKey, privateKey. Set baseUrl (an input of the provider, or the environment variable OPSMANAGER_BASE_URL or MCLI_OPS_MANAGER_URL); " +
          "publicKey (an input of the provider, or the environment variable OPSMANAGER_PUBLIC_KEY or MCLI_PUBLIC_API_KEY); " +
          "privateKey (an input of the provider, or the environment variable OPSMANAGER_PRIVATE_KEY or MCLI_PRIVATE_API_KEY).",
      },
    ]);
    const noKey = await checkConfig(DEFAULT, { baseUrl: GOOD.baseUrl, publicKey: GOOD.publicKey });
    expect(noKey.failures).toEqual([
      {
        property: "opsmanager:privateKey",
        reason: expect.stringMatching(
          /^Ops Manager settings missing: opsmanager:privateKey\. Set opsmanager:privateKey \(pulumi config set --secret opsmanager:privateKey …, or the environment variable OPSMANAGER_PRIVATE_KEY or MCLI_PRIVATE_API_KEY\)\.$/,
        ),
      },
    ]);
    expect((await checkConfig(EXPLICIT, {}, withEnv)).failures).toEqual([]);
    expect((await checkConfig(DEFAULT, { version: "0.1.0" }, withEnv)).failures).toEqual([]);
    // The environment stands in for what is not set, not for what is set wrong.
    expect((await checkConfig(EXPLICIT, { baseUrl: "om.example.com" }, withEnv)).failures).toEqual([
      {
        property: "baseUrl",
        reason: expect.stringMatching(/^baseUrl must start with http:\/\/ or https:\/\//),
      },
    ]);
  });

  it("the timeout's and the CA file's rules, and a URL with a password named without echoing it", async () => {
    expect((await checkConfig(EXPLICIT, { ...GOOD, timeoutSeconds: 0 })).failures).toEqual([
      {
        property: "timeoutSeconds",
        reason: 'timeoutSeconds must be a number of seconds greater than 0 and at most 3600 (got "0")',
      },
    ]);
    expect((await checkConfig(EXPLICIT, { ...GOOD, timeoutSeconds: 45 })).failures).toEqual([]);
    const ca = await checkConfig(EXPLICIT, { ...GOOD, caCertificate: "/nonexistent/ca.pem" });
    expect(ca.failures).toEqual([
      {
        property: "caCertificate",
        reason: expect.stringMatching(
          /^caCertificate names the CA certificate file "\/nonexistent\/ca\.pem", which cannot be read \(ENOENT\)\. Give the path of a readable PEM file with caCertificate \(an input of the provider/,
        ),
      },
    ]);
    const password = await checkConfig(EXPLICIT, {
      ...GOOD,
      baseUrl: "https://admin:hunter2@om.example.com",
    });
    expect(password.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^baseUrl must not carry credentials; set publicKey and privateKey instead \(got "https:\/\/\*\*\*@om\.example\.com"\)/,
        ),
      },
    ]);
    expect(JSON.stringify(password.failures)).not.toContain("hunter2");
  });

  it("a private key given as plain text comes back a secret; the rest as given; a setting not known yet passes", async () => {
    const checked = await checkConfig(EXPLICIT, { ...GOOD, timeoutSeconds: 45, version: "0.1.0" });
    expect(checked).toEqual({
      inputs: { ...GOOD, privateKey: secret(GOOD.privateKey), timeoutSeconds: 45, version: "0.1.0" },
      failures: [],
    });
    const unknown = await checkConfig(EXPLICIT, { ...GOOD, baseUrl: UNKNOWN });
    expect(unknown.failures).toEqual([]);
  });

  it("Configure fails with CheckConfig's words, and configures good settings", async () => {
    const bad = { ...GOOD, baseUrl: "ftp://om.example.com" };
    const [reason] = (await checkConfig(EXPLICIT, bad)).failures.map((f) => f.reason);
    await expect(configure(EXPLICIT, bad)).rejects.toThrow(reason);
    const [stackReason] = (await checkConfig(DEFAULT, bad)).failures.map((f) => f.reason);
    await expect(configure(DEFAULT, bad)).rejects.toThrow(stackReason);
    await expect(configure(EXPLICIT, {})).rejects.toThrow(
      /^\d+ [A-Z_]+: Ops Manager settings missing: baseUrl, /,
    );
    const ok = await configure(EXPLICIT, { ...GOOD, privateKey: secret(GOOD.privateKey) });
    expect(ok.getAcceptsecrets()).toBe(true);
  });

  it("DiffConfig: another server replaces, naming baseUrl; the same server spelt otherwise, credentials, CA and timeout update in place", async () => {
    expect(await diffConfig(GOOD, { ...GOOD, baseUrl: "https://other.example.com:8443" })).toEqual({
      changes: true,
      replaces: ["baseUrl"],
      detailed: { baseUrl: "UPDATE_REPLACE" },
    });
    // Another API root on the same host is another server too.
    expect(
      (await diffConfig(GOOD, { ...GOOD, baseUrl: "https://om.example.com:8443/proxy/api/public/v1.0" }))
        .replaces,
    ).toEqual(["baseUrl"]);
    expect(await diffConfig(GOOD, { ...GOOD, baseUrl: UNKNOWN })).toMatchObject({ replaces: ["baseUrl"] });
    for (const same of [
      "https://OM.example.com:8443/",
      "https://om.example.com:8443/api/public/v1.0/",
      " https://om.example.com:8443",
    ]) {
      expect(await diffConfig(GOOD, { ...GOOD, baseUrl: same })).toEqual({
        changes: true,
        replaces: [],
        detailed: { baseUrl: "UPDATE" },
      });
    }
    const settings = {
      publicKey: "zyxwvuts",
      privateKey: "2222-private-3333",
      caCertificate: "/etc/ssl/om-ca.pem",
      timeoutSeconds: 90,
    };
    expect(await diffConfig(GOOD, { ...GOOD, ...settings })).toEqual({
      changes: true,
      replaces: [],
      detailed: { publicKey: "UPDATE", privateKey: "UPDATE", caCertificate: "ADD", timeoutSeconds: "ADD" },
    });
    expect(await diffConfig({ ...GOOD, version: "0.1.0" }, { ...GOOD, version: "0.2.0" })).toEqual({
      changes: false,
      replaces: [],
      detailed: {},
    });
    // A secret compares by its value.
    expect((await diffConfig(GOOD, { ...GOOD, privateKey: secret(GOOD.privateKey) })).changes).toBe(false);
  });

  it("DiffConfig compares a base URL the environment gives as it gives it now; old settings naming no server replace nothing", async () => {
    const { baseUrl, ...rest } = GOOD;
    expect(await diffConfig(rest, { ...rest, baseUrl: "https://env.example.com/" }, withEnv)).toEqual({
      changes: true,
      replaces: [],
      detailed: { baseUrl: "ADD" },
    });
    expect(await diffConfig(rest, GOOD, withEnv)).toMatchObject({
      replaces: ["baseUrl"],
      detailed: { baseUrl: "ADD_REPLACE" },
    });
    expect(baseUrl).toBe(GOOD.baseUrl);
    // Old settings that name no server (the dynamic types' provider, when a stack moves here by
    // aliases): nothing to compare, nothing replaced.
    expect(await diffConfig({}, GOOD)).toEqual({
      changes: true,
      replaces: [],
      detailed: { baseUrl: "ADD", publicKey: "ADD", privateKey: "ADD" },
    });
    // ... even where the environment names another server: a stack moved from the dynamic types keeps
    // every resource.
    expect(await diffConfig({}, GOOD, withEnv)).toMatchObject({ changes: true, replaces: [] });
  });
});

/**
 * The provider plugin's schema (`provider/plugin/schema.json`) is what the code's descriptors say
 * (`npm run gen:schema` writes it), and says what issue 31 asks of it: the three resources, the
 * function, the configuration as config and as the explicit provider's inputs, key material secret,
 * every property described. And one version and one plugin source everywhere: package.json's version in
 * the schema, the plugin's own version module and every committed SDK's version fields, and the
 * contract's pluginDownloadURL in the schema and wherever each SDK hands it to the CLI.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../provider/plugin/version";
import { dynamicType } from "../../provider/resources/shared/providers";
import { PLUGIN_DOWNLOAD_URL, packageSchema, schemaText } from "../../provider/schema";
import { repoRoot } from "../support/program-dir";
import { SDK } from "./sdk-support";

const version = (
  JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { version: string }
).version;
const committedText = readFileSync(path.join(repoRoot(), "provider", "plugin", "schema.json"), "utf8");

interface Property {
  description?: string;
  secret?: boolean;
  type?: string;
  $ref?: string;
}
interface ObjectSpec {
  properties?: Record<string, Property>;
  inputProperties?: Record<string, Property>;
  required?: string[];
  requiredInputs?: string[];
  aliases?: { type: string }[];
}
const schema = JSON.parse(committedText) as {
  name: string;
  version: string;
  pluginDownloadURL: string;
  language: { csharp: { rootNamespace: string } };
  config: { variables: Record<string, Property> };
  provider: ObjectSpec;
  types: Record<string, ObjectSpec & { enum?: { value: string }[] }>;
  resources: Record<string, ObjectSpec>;
  functions: Record<string, { inputs: ObjectSpec; outputs: unknown }>;
};

describe("provider/plugin/schema.json", () => {
  it("is what the descriptors generate now (run `npm run gen:schema` after changing them)", () => {
    expect(committedText).toBe(schemaText(version));
  });

  it("is package opsmanager at package.json's version", () => {
    expect(schema.name).toBe("opsmanager");
    expect(schema.version).toBe(version);
    expect(packageSchema(version).version).toBe(version);
  });

  it("names the repository's GitHub releases as the plugin's download URL", () => {
    expect(PLUGIN_DOWNLOAD_URL).toBe("github://api.github.com/pulumi-opsmanager/pulumi-opsmanager");
    expect(schema.pluginDownloadURL).toBe(PLUGIN_DOWNLOAD_URL);
  });

  it("puts the .NET SDK under the PulumiOpsManager namespace, outside Pulumi's reserved Pulumi. prefix", () => {
    expect(schema.language.csharp.rootNamespace).toBe("PulumiOpsManager");
  });

  it("has the three resources and the function under the agreed tokens", () => {
    expect(Object.keys(schema.resources).sort()).toEqual([
      "opsmanager:index:ApiKeyProjectAssignment",
      "opsmanager:index:LogCollectionJob",
      "opsmanager:index:OrgApiKey",
    ]);
    expect(Object.keys(schema.functions)).toEqual(["opsmanager:index:getOrgApiKeys"]);
  });

  it("takes the settings as opsmanager:<key> config and as the explicit provider's inputs, the private key secret", () => {
    const keys = ["baseUrl", "publicKey", "privateKey", "caCertificate", "timeoutSeconds"];
    expect(Object.keys(schema.config.variables)).toEqual(keys);
    expect(Object.keys(schema.provider.inputProperties!)).toEqual(keys);
    expect(schema.config.variables.privateKey!.secret).toBe(true);
    expect(schema.provider.inputProperties!.privateKey!.secret).toBe(true);
    const secrets = keys.filter((k) => schema.provider.inputProperties![k]!.secret);
    expect(secrets).toEqual(["privateKey"]);
  });

  it("marks every private key secret, wherever a property of that name is", () => {
    const privateKeys: [string, Property][] = [];
    const visit = (where: string, properties: Record<string, Property> | undefined) => {
      for (const [name, p] of Object.entries(properties ?? {})) {
        if (name === "privateKey") privateKeys.push([where, p]);
      }
    };
    for (const [token, r] of Object.entries(schema.resources)) {
      visit(`${token} outputs`, r.properties);
      visit(`${token} inputs`, r.inputProperties);
    }
    for (const [token, t] of Object.entries(schema.types)) visit(token, t.properties);
    expect(privateKeys.map(([where]) => where).sort()).toEqual([
      "opsmanager:index:ApiKey",
      "opsmanager:index:OrgApiKey outputs",
    ]);
    expect(privateKeys.filter(([, p]) => p.secret !== true)).toEqual([]);
  });

  it("describes every property, of every resource, type, function and setting", () => {
    const undescribed: string[] = [];
    const check = (where: string, properties: Record<string, Property> | undefined) => {
      for (const [name, p] of Object.entries(properties ?? {})) {
        if (!p.description?.trim()) undescribed.push(`${where}.${name}`);
      }
    };
    check("config", schema.config.variables);
    check("provider", schema.provider.inputProperties);
    for (const [token, r] of Object.entries(schema.resources)) {
      check(`${token} (output)`, r.properties);
      check(`${token} (input)`, r.inputProperties);
    }
    for (const [token, t] of Object.entries(schema.types)) check(token, t.properties);
    for (const [token, f] of Object.entries(schema.functions)) check(token, f.inputs.properties);
    expect(undescribed).toEqual([]);
  });

  it("gives each resource today's inputs and outputs by name, the named server left to the dynamic face", () => {
    const key = schema.resources["opsmanager:index:OrgApiKey"]!;
    expect(Object.keys(key.inputProperties!)).toEqual([
      "orgId",
      "apiKeyId",
      "publicKey",
      "desc",
      "roles",
      "restoreOnDelete",
      "keepers",
      "accessList",
    ]);
    expect(key.requiredInputs).toEqual(["orgId"]);
    expect(Object.keys(key.properties!)).toContain("adopted");
    const job = schema.resources["opsmanager:index:LogCollectionJob"]!;
    expect(job.requiredInputs).toEqual([
      "groupId",
      "resourceType",
      "resourceName",
      "sizeRequestedPerFileBytes",
      "logTypes",
      "redacted",
    ]);
    for (const r of Object.values(schema.resources)) {
      expect(Object.keys(r.inputProperties!)).not.toContain("server");
      expect(Object.keys(r.properties!)).not.toContain("stateVersion");
    }
  });

  it("aliases each resource to its dynamic type, so that a stack the dynamic face deployed moves to the SDKs with no alias in the program", () => {
    const aliases = Object.fromEntries(
      Object.entries(schema.resources).map(([token, r]) => [token, r.aliases]),
    );
    expect(aliases).toEqual({
      "opsmanager:index:OrgApiKey": [{ type: "pulumi-nodejs:dynamic/opsmanager:OrgApiKey" }],
      "opsmanager:index:ApiKeyProjectAssignment": [
        { type: "pulumi-nodejs:dynamic/opsmanager:ApiKeyProjectAssignment" },
      ],
      "opsmanager:index:LogCollectionJob": [{ type: "pulumi-nodejs:dynamic/opsmanager:LogCollectionJob" }],
    });
    // The dynamic face's own tokens, as its resources register them.
    for (const token of Object.keys(schema.resources)) {
      expect(aliases[token]).toEqual([{ type: dynamicType(token.split(":")[2]!) }]);
    }
  });

  it("takes its value sets from the code's constants", () => {
    expect(schema.types["opsmanager:index:OrgRole"]!.enum!.map((e) => e.value)).toEqual([
      "ORG_OWNER",
      "ORG_MEMBER",
      "ORG_GROUP_CREATOR",
      "ORG_READ_ONLY",
    ]);
    expect(schema.types["opsmanager:index:LogType"]!.enum!.map((e) => e.value)).toContain("DATABASE");
  });
});

/** The text of the committed SDK file `file`, under `sdk/`. */
const sdkText = (file: string) => readFileSync(path.join(SDK, file), "utf8");
/** A committed `pulumi-plugin.json`, as the CLI reads it to install the plugin a program needs. */
const pluginJson = (file: string) => JSON.parse(sdkText(file)) as Record<string, unknown>;
const CLI_READS = { resource: true, name: "opsmanager", version, server: PLUGIN_DOWNLOAD_URL };
const quoted = (value: string) => JSON.stringify(value);

describe("one version and one plugin source everywhere", () => {
  it(`package.json's version (${version}) is the plugin's GetPluginInfo version (provider/plugin/version.ts; npm run gen:schema writes it)`, () => {
    expect(VERSION).toBe(version);
  });

  it("the Node.js SDK: its package's version, and pulumi.version and pulumi.server, which the CLI reads", () => {
    const manifest = JSON.parse(sdkText("nodejs/package.json")) as {
      name: string;
      version: string;
      pulumi: Record<string, unknown>;
    };
    expect(manifest.name).toBe("@pulumi-opsmanager/sdk");
    expect(manifest.version).toBe(version);
    expect(manifest.pulumi).toEqual(CLI_READS);
    // Each resource's and invoke's default options, which the engine reads where no pulumi.json is.
    expect(sdkText("nodejs/utilities.ts")).toContain(`pluginDownloadURL: ${quoted(PLUGIN_DOWNLOAD_URL)}`);
  });

  it("the Python SDK: the project's version, pulumi_opsmanager/pulumi-plugin.json, and the resource options' URL", () => {
    expect(sdkText("python/pyproject.toml")).toMatch(
      new RegExp(`^\\s*name = "pulumi_opsmanager"$[\\s\\S]*^\\s*version = ${quoted(version)}$`, "m"),
    );
    expect(pluginJson("python/pulumi_opsmanager/pulumi-plugin.json")).toEqual(CLI_READS);
    expect(sdkText("python/pulumi_opsmanager/_utilities.py")).toMatch(
      new RegExp(`def get_plugin_download_url\\(\\):\\s+return ${quoted(PLUGIN_DOWNLOAD_URL)}`),
    );
  });

  it("the Go SDK: pulumi-plugin.json, and pulumi.Version and pulumi.PluginDownloadURL in every resource's and invoke's default options", () => {
    expect(pluginJson("go/opsmanager/pulumi-plugin.json")).toEqual(CLI_READS);
    const utilities = sdkText("go/opsmanager/internal/pulumiUtilities.go");
    for (const kind of ["Resource", "Invoke"]) {
      const body = new RegExp(`func Pkg${kind}DefaultOpts\\([^)]*\\)[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(
        utilities,
      )?.[1];
      expect(body, `Pkg${kind}DefaultOpts`).toContain(
        `pulumi.PluginDownloadURL(${quoted(PLUGIN_DOWNLOAD_URL)})`,
      );
      expect(body, `Pkg${kind}DefaultOpts`).toContain(`semver.MustParse(${quoted(version)})`);
    }
  });

  it("the .NET SDK: package PulumiOpsManager.Opsmanager at the version, pulumi-plugin.json, and the URL in every resource's and invoke's options", () => {
    expect(pluginJson("dotnet/pulumi-plugin.json")).toEqual(CLI_READS);
    expect(sdkText("dotnet/version.txt").trim()).toBe(version);
    expect(sdkText("dotnet/PulumiOpsManager.Opsmanager.csproj")).toContain(`<Version>${version}</Version>`);
    const setting = `PluginDownloadURL = ${quoted(PLUGIN_DOWNLOAD_URL)}`;
    for (const file of ["OrgApiKey", "ApiKeyProjectAssignment", "LogCollectionJob", "Provider"]) {
      const text = sdkText(`dotnet/${file}.cs`);
      expect(text, file).toContain("namespace PulumiOpsManager.Opsmanager\n");
      expect(text, file).toContain(setting);
    }
    expect(sdkText("dotnet/Utilities.cs")).toContain(
      `PluginDownloadURL = src?.PluginDownloadURL ?? ${quoted(PLUGIN_DOWNLOAD_URL)}`,
    );
  });
});

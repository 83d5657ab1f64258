/**
 * The provider plugin's schema (`provider/plugin/schema.json`) is what the code's descriptors say
 * (`npm run gen:schema` writes it), and says what issue 31 asks of it: the three resources, the
 * function, the configuration as config and as the explicit provider's inputs, key material secret,
 * every property described.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { dynamicType } from "../../provider/resources/shared/providers";
import { packageSchema, schemaText } from "../../provider/schema";
import { repoRoot } from "../support/program-dir";

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

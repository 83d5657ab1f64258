/**
 * The provider plugin's package schema, assembled from each resource's descriptor (its folder's
 * `schema.ts`), the settings' and the API's value sets: `npm run gen:schema` writes it to
 * `provider/plugin/schema.json`, and Pulumi's code generators make the SDKs from that file
 * (`npm run gen:sdk`). Nothing here is written twice: a property is described where its type is.
 */
import { GROUP_ROLES, LOG_TYPES, ORG_ROLES, RESOURCE_TYPES } from "./api/types";
import {
  API_KEY_PROJECT_ASSIGNMENT_SCHEMA,
  API_KEY_PROJECT_ASSIGNMENT_TYPES,
} from "./resources/api-key-project-assignment/schema";
import { LOG_COLLECTION_JOB_SCHEMA, LOG_COLLECTION_JOB_TYPES } from "./resources/log-collection-job/schema";
import {
  GET_ORG_API_KEYS_SCHEMA,
  ORG_API_KEY_SCHEMA,
  ORG_API_KEY_TYPES,
} from "./resources/org-api-key/schema";
import { dynamicType } from "./resources/shared/providers";
import type { EnumDescriptor, Omitted, PropertyDescriptor } from "./resources/shared/schema-descriptor";
import { SETTINGS_SCHEMA } from "./resources/shared/settings-schema";

/** The package's name: plugin `pulumi-resource-opsmanager`, tokens `opsmanager:index:<name>`. */
export const PACKAGE = "opsmanager";

/**
 * Where `pulumi up` fetches the plugin from when it is not installed: the repository's GitHub releases
 * (tag `v<version>`, archive `pulumi-resource-opsmanager-v<version>-<os>-<arch>.tar.gz`). Every SDK
 * carries it, and the CLI's `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES` sends it to a mirror.
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-opsmanager/pulumi-opsmanager";

const ENUMS: EnumDescriptor[] = [
  { name: "OrgRole", description: "An organization role of an API key.", values: ORG_ROLES },
  { name: "GroupRole", description: "A project (group) role of an API key.", values: GROUP_ROLES },
  {
    name: "ResourceType",
    description: "The kind of resource a log collection job collects from.",
    values: RESOURCE_TYPES,
  },
  {
    name: "LogType",
    description:
      "A type of log a job collects; the database log is `MONGODB` (deployed servers) or `DATABASE` (the spec).",
    values: LOG_TYPES,
  },
];

const RESOURCES = [ORG_API_KEY_SCHEMA, API_KEY_PROJECT_ASSIGNMENT_SCHEMA, LOG_COLLECTION_JOB_SCHEMA];
const TYPES = [...ORG_API_KEY_TYPES, ...API_KEY_PROJECT_ASSIGNMENT_TYPES, ...LOG_COLLECTION_JOB_TYPES];
const FUNCTIONS = [GET_ORG_API_KEYS_SCHEMA];

type Properties = Record<string, PropertyDescriptor | Omitted>;

function token(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

// Each generator names a value after its `name` in its own style (Python `ORG_MEMBER`, Node.js and .NET
// `OrgMember`, Go `OrgRoleOrgMember`); from the value alone, Python's would read `OR_G_MEMBER`.
function enumName(value: string): string {
  return value
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

function described(properties: Properties): [string, PropertyDescriptor][] {
  return Object.entries(properties).flatMap(([name, p]) => ("omitted" in p ? [] : [[name, p]]));
}

/** `{ properties, required }` of an object type, a resource's inputs or outputs, or a function's. */
function object(properties: Properties, requiredKey = "required"): Record<string, unknown> {
  const entries = described(properties);
  const result: Record<string, unknown> = {
    properties: Object.fromEntries(
      entries.map(([name, p]) => [
        name,
        {
          ...p.type,
          description: p.description,
          ...(p.secret ? { secret: true } : {}),
          ...(p.replaces ? { willReplaceOnChanges: true } : {}),
        },
      ]),
    ),
  };
  const required = entries.filter(([, p]) => p.required).map(([name]) => name);
  if (required.length > 0) result[requiredKey] = required;
  return result;
}

/** The package schema of the plugin at `version` (package.json's), as Pulumi's `schema.json` takes it. */
export function packageSchema(version: string): Record<string, unknown> {
  const config = object(SETTINGS_SCHEMA);
  return {
    name: PACKAGE,
    displayName: "MongoDB Ops Manager",
    version,
    description:
      "Ops Manager organization API keys, their project assignments and log collection jobs, through the public API " +
      "of a self-hosted MongoDB Ops Manager (`/api/public/v1.0`) with digest authentication.",
    keywords: ["pulumi", "opsmanager", "mongodb", "ops-manager", "category/database", "kind/native"],
    license: "Apache-2.0",
    publisher: "pulumi-opsmanager",
    repository: "https://github.com/pulumi-opsmanager/pulumi-opsmanager",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    config: { variables: config.properties },
    provider: {
      description:
        "The provider of Ops Manager resources: one server and its credentials. Several servers are several " +
        'instances (`new opsmanager.Provider("prod", { baseUrl, publicKey, privateKey })` and the resource option ' +
        "`provider`); without one, resources use the stack config `opsmanager:<key>`, then the environment.",
      inputProperties: config.properties,
    },
    types: Object.fromEntries([
      ...ENUMS.map((e) => [
        token(e.name),
        {
          type: "string",
          description: e.description,
          enum: e.values.map((value) => ({ name: enumName(value), value })),
        },
      ]),
      ...TYPES.map((t) => [
        token(t.name),
        { type: "object", description: t.description, ...object(t.properties) },
      ]),
    ]),
    resources: Object.fromEntries(
      RESOURCES.map((r) => {
        // Outputs as `properties` and `required`, inputs as `inputProperties` and `requiredInputs`.
        const { properties: inputProperties, requiredInputs } = object(r.inputs, "requiredInputs");
        return [
          token(r.name),
          {
            description: r.description,
            ...object(r.outputs),
            inputProperties,
            requiredInputs,
            // A stack the dynamic face deployed moves to the SDK's types with no alias in the program.
            aliases: [{ type: dynamicType(r.name) }],
          },
        ];
      }),
    ),
    functions: Object.fromEntries(
      FUNCTIONS.map((f) => [
        token(f.name),
        { description: f.description, inputs: object(f.inputs), outputs: f.returns },
      ]),
    ),
    // The SDKs call `existsResource` (Node.js) and `exists_resource` (Python), which the Pulumi SDKs have
    // from 3.269 on: the generators' own minimum (and so Node 22, which the SDK needs from 3.249).
    language: {
      nodejs: {
        packageName: "@pulumi-opsmanager/sdk",
        packageDescription:
          "Ops Manager API keys and log collection jobs: the opsmanager provider plugin's SDK.",
        dependencies: { "@pulumi/pulumi": "^3.269.0" },
        respectSchemaVersion: true,
      },
      python: {
        packageName: "pulumi_opsmanager",
        requires: { pulumi: ">=3.269.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: {
        importBasePath: "github.com/pulumi-opsmanager/pulumi-opsmanager/sdk/go/opsmanager",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      csharp: {
        rootNamespace: "PulumiOpsManager",
        packageReferences: { Pulumi: "3.*" },
        respectSchemaVersion: true,
      },
    },
  };
}

/** {@link packageSchema} as `provider/plugin/schema.json` holds it: two-space JSON and a final newline. */
export function schemaText(version: string): string {
  return `${JSON.stringify(packageSchema(version), null, 2)}\n`;
}

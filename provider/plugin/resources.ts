/**
 * The plugin's resource types and function, by token, each over the core's methods
 * (../resources/methods.ts): the same check, diff, create, read, update and delete the dynamic face
 * calls.
 */

import { importApiKeyProjectAssignment, importLogCollectionJob, importOrgApiKey } from "../resources/imports";
import {
  apiKeyProjectAssignmentMethods,
  logCollectionJobMethods,
  orgApiKeyMethods,
} from "../resources/methods";
import type { GetOrgApiKeysArgs } from "../resources/org-api-key/get-org-api-keys";
import { orgApiKeysOn } from "../resources/org-api-key/org-api-keys-on";
import type { FieldDiff } from "../resources/shared/field-diff";
import { type ImportForm, parseImportId } from "./import-id";

/** The package's name: the plugin is `pulumi-resource-opsmanager`, its tokens `opsmanager:index:…`. */
export const PACKAGE = "opsmanager";

type Props = Record<string, unknown>;

/** A resource type as the plugin serves it: the core's methods, loosely typed at this edge. */
export interface PluginResource {
  check(
    olds: Props,
    news: Props,
  ): Promise<{ inputs?: Props; failures?: { property: string; reason: string }[] }>;
  fieldDiff(id: string, olds: Props, news: Props): Promise<FieldDiff>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, olds: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, olds: Props): Promise<void>;
  /** Outputs that are secret whatever the inputs were. */
  secretOutputs: readonly string[];
  /**
   * The outputs an update makes anew from each input, beside the input itself: unknown in a preview
   * of a change of that input (./preview.ts).
   */
  derivedOutputs: Readonly<Record<string, readonly string[]>>;
  /** The form of its `pulumi import` id. */
  importForm: ImportForm;
  /** The resource read from the server by the parts of its import id. */
  importFrom(first: string, second: string): Promise<{ id?: string; props?: Props; inputs?: Props }>;
}

// The core's methods take their own types; the plugin hands them what the engine sent, which check has
// already put through the same rules as the dynamic face's.
const loose = (methods: object) =>
  methods as unknown as Omit<
    PluginResource,
    "secretOutputs" | "derivedOutputs" | "importForm" | "importFrom"
  >;

const looseImport = (read: (a: string, b: string) => Promise<object>) => (a: string, b: string) =>
  read(a, b) as Promise<{ id?: string; props?: Props; inputs?: Props }>;

/** The resource types, by type token. */
export const RESOURCES: Readonly<Record<string, PluginResource>> = {
  [`${PACKAGE}:index:OrgApiKey`]: {
    ...loose(orgApiKeyMethods),
    secretOutputs: ["privateKey"],
    derivedOutputs: {
      desc: ["managed", "adopted"],
      roles: ["managed", "adopted"],
      accessList: ["accessListEntries", "adopted"],
      // A created key named by its own id or public key is adopted in place: its private key masked,
      // its keepers gone.
      apiKeyId: ["privateKey", "keepers", "managed"],
      publicKey: ["privateKey", "keepers", "managed"],
    },
    importForm: { resource: "OrgApiKey", parts: ["orgId", "apiKeyId"] },
    importFrom: looseImport(importOrgApiKey),
  },
  [`${PACKAGE}:index:ApiKeyProjectAssignment`]: {
    ...loose(apiKeyProjectAssignmentMethods),
    secretOutputs: [],
    derivedOutputs: {},
    importForm: { resource: "ApiKeyProjectAssignment", parts: ["groupId", "apiKeyId"] },
    importFrom: looseImport(importApiKeyProjectAssignment),
  },
  [`${PACKAGE}:index:LogCollectionJob`]: {
    ...loose(logCollectionJobMethods),
    secretOutputs: [],
    // The server's spelling of the instant, and whether it is managed.
    derivedOutputs: { expirationDate: ["expirationDate", "managed"] },
    importForm: { resource: "LogCollectionJob", parts: ["groupId", "jobId"] },
    importFrom: looseImport(importLogCollectionJob),
  },
};

/** The resource read for `pulumi import`: its id's parts parsed, then read from the server. */
export function importResource(resource: PluginResource, id: string) {
  const [first, second] = parseImportId(resource.importForm, id);
  return resource.importFrom(first, second);
}

/** The functions, by token: what each returns is an object (Pulumi's functions return one). */
export const FUNCTIONS: Readonly<Record<string, (args: Props) => Promise<Props>>> = {
  [`${PACKAGE}:index:getOrgApiKeys`]: async (args) => ({
    keys: await orgApiKeysOn(args as unknown as GetOrgApiKeysArgs),
  }),
};

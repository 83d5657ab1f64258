/**
 * OrgApiKey and getOrgApiKeys as the provider plugin's schema describes them (`provider/schema.ts`):
 * every input and output of `types.ts`, in the README's words. `stateVersion`, which the state also
 * carries, is not an output (it says how the state is stored; no program reads it).
 */
import type { ApiKey, Role } from "../../api/types";
import type {
  FunctionDescriptor,
  ObjectTypeDescriptor,
  ResourceDescriptor,
  TypeDescriptor,
} from "../shared/schema-descriptor";
import type { GetOrgApiKeysArgs } from "./get-org-api-keys";
import type {
  AccessListEntryOutput,
  OrgApiKeyProviderInputs,
  OrgApiKeyProviderOutputs,
  ProjectRole,
} from "./types";

const ORG_ROLE = { $ref: "#/types/opsmanager:index:OrgRole" } as const;
const ROLE_LIST = { type: "array", items: ORG_ROLE } as const;
const STRINGS = { type: "array", items: { type: "string" } } as const;
const STRING_MAP = { type: "object", additionalProperties: { type: "string" } } as const;

/** OrgApiKey's properties. */
export const ORG_API_KEY_SCHEMA = {
  name: "OrgApiKey",
  description:
    "An organization API key of Ops Manager, in one of two modes, set by whether the inputs name a key. " +
    "Adopted: `apiKeyId` or `publicKey` names an existing key; `pulumi up` adopts it and `pulumi destroy` " +
    "releases it (the key stays on the server). Created: neither is given; `pulumi up` makes the key with " +
    "one POST of its `desc` and `roles` (both required then), and `pulumi destroy` deletes it with one DELETE. " +
    "The create's answer is the only one that ever shows the whole private key: it becomes the secret output `privateKey`.",
  inputs: {
    orgId: {
      type: { type: "string" },
      description: "The organization's id. A change is a replacement.",
      required: true,
      replaces: true,
    },
    apiKeyId: {
      type: { type: "string" },
      description:
        "The key's id: give this **or** `publicKey` to adopt a key, neither to create one. A change is a replacement.",
      required: false,
      replaces: true,
    },
    publicKey: {
      type: { type: "string" },
      description: "Find the key by its public key instead. A change is a replacement.",
      required: false,
      replaces: true,
    },
    desc: {
      type: { type: "string" },
      description:
        "Managed when given: 1 to 250 characters, not blank; left alone when not given; required to create a key.",
      required: false,
    },
    roles: {
      type: ROLE_LIST,
      description:
        "Managed when given: a set of `ORG_OWNER`, `ORG_MEMBER`, `ORG_GROUP_CREATOR`, `ORG_READ_ONLY` (order and " +
        "repeats are no change); at least one; required to create a key.",
      required: false,
    },
    restoreOnDelete: {
      type: { type: "boolean" },
      description:
        "Default `false`; on destroy, put back the desc and roles the resource manages at that moment, as they " +
        "were before Pulumi managed them; adopted keys only.",
      required: false,
    },
    keepers: {
      type: STRING_MAP,
      description:
        "Created keys only: any change replaces the key, the new one made first, then the old one deleted " +
        '(rotation on your schedule: `{ rotated: "2026-11" }`).',
      required: false,
      replaces: true,
    },
    accessList: {
      type: STRINGS,
      description:
        "Managed when given: a set of IPv4/IPv6 addresses and CIDR blocks the key may call from " +
        '(`["203.0.113.7", "10.0.0.0/24", "2001:db8::/32"]`). An update adds new entries before it removes old ones.',
      required: false,
    },
    server: {
      omitted:
        "named servers are the dynamic face's; the plugin serves several servers as several provider instances",
    },
  },
  outputs: {
    orgId: { type: { type: "string" }, description: "The organization's id.", required: true },
    apiKeyId: { type: { type: "string" }, description: "The key's id.", required: true },
    publicKey: { type: { type: "string" }, description: "The key's public key.", required: true },
    desc: { type: { type: "string" }, description: "The key's description on the server.", required: true },
    roles: {
      type: ROLE_LIST,
      description: "The key's organization roles on the server, sorted.",
      required: true,
    },
    privateKey: {
      type: { type: "string" },
      description:
        "A created key's whole private key, a secret output; an adopted key's as the server returns it: redacted " +
        "(`********-****-****-…`), one sent in full masked to its last 4 characters.",
      required: true,
      secret: true,
    },
    projectRoles: {
      type: { type: "array", items: { $ref: "#/types/opsmanager:index:ProjectRole" } },
      description: "The key's project roles (read only).",
      required: true,
    },
    restoreOnDelete: {
      type: { type: "boolean" },
      description: "Whether destroy puts back what the key had before Pulumi managed it.",
      required: true,
    },
    adopted: {
      type: { $ref: "#/types/opsmanager:index:OrgApiKeyAdopted" },
      description:
        "The `{ desc, roles, accessList? }` the key had when adopted (what `restoreOnDelete` restores).",
      required: true,
    },
    managed: {
      type: { $ref: "#/types/opsmanager:index:OrgApiKeyManaged" },
      description:
        "`{ desc, roles, by }`: which inputs this resource manages, and whether it named the key by `apiKeyId` " +
        "or `publicKey`, or `created` it.",
      required: true,
    },
    keepers: {
      type: STRING_MAP,
      description: "The `keepers` a created key was made with; `{}` for an adopted key.",
      required: true,
    },
    accessList: {
      type: STRINGS,
      description:
        "Only while `accessList` is managed: the key's access list on the server, canonical and sorted.",
      required: false,
    },
    accessListEntries: {
      type: { type: "array", items: { $ref: "#/types/opsmanager:index:AccessListEntry" } },
      description:
        'With `accessList`: `{ entry, created, lastUsed, lastUsedAddress, count }` per entry (`""` or 0 where the ' +
        "server says nothing).",
      required: false,
    },
    server: {
      omitted: "named servers are the dynamic face's (see the input)",
    },
    pendingCreate: {
      type: { $ref: "#/types/opsmanager:index:PendingCreate" },
      description:
        "Only on a create whose answer was lost and whose key may exist: the desc its POST sent (the declared desc " +
        "and that attempt's mark) and when; the next `pulumi up` or `pulumi destroy` deletes the key with that desc.",
      required: false,
    },
  },
} satisfies ResourceDescriptor<OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs>;

/** The object types OrgApiKey's outputs name. */
export const ORG_API_KEY_TYPES: ObjectTypeDescriptor[] = [
  {
    name: "ProjectRole",
    description: "A project role of a key.",
    properties: {
      groupId: { type: { type: "string" }, description: "The project's id.", required: true },
      roleName: {
        type: { type: "string" },
        description: "The role's name (`GROUP_READ_ONLY`, …).",
        required: true,
      },
    },
  } satisfies TypeDescriptor<ProjectRole>,
  {
    name: "OrgApiKeyAdopted",
    description: "The desc, organization roles and managed access list a key had when adopted.",
    properties: {
      desc: { type: { type: "string" }, description: "The key's description then.", required: true },
      roles: { type: ROLE_LIST, description: "The key's organization roles then.", required: true },
      accessList: {
        type: STRINGS,
        description: "The key's access list then, when the resource manages it.",
        required: false,
      },
    },
  } satisfies TypeDescriptor<OrgApiKeyProviderOutputs["adopted"]>,
  {
    name: "OrgApiKeyManaged",
    description: "Which inputs an OrgApiKey manages, and how it named the key.",
    properties: {
      desc: {
        type: { type: "boolean" },
        description: "Whether the program declares `desc`.",
        required: true,
      },
      roles: {
        type: { type: "boolean" },
        description: "Whether the program declares `roles`.",
        required: true,
      },
      by: {
        type: { type: "string" },
        description:
          "`apiKeyId` or `publicKey`: how the key was named to adopt it; `created`: the resource made it.",
        required: true,
      },
    },
  } satisfies TypeDescriptor<OrgApiKeyProviderOutputs["managed"]>,
  {
    name: "PendingCreate",
    description: "A key's create whose answer was lost, recorded so that the next up or destroy settles it.",
    properties: {
      desc: {
        type: { type: "string" },
        description: "The desc the create's POST sent: the declared desc and the attempt's mark.",
        required: true,
      },
      sentAt: { type: { type: "string" }, description: "When the POST was sent (ISO 8601).", required: true },
    },
  } satisfies TypeDescriptor<NonNullable<OrgApiKeyProviderOutputs["pendingCreate"]>>,
  {
    name: "AccessListEntry",
    description:
      'An entry of a key\'s access list as the server has it (`""` or 0 where the server says nothing).',
    properties: {
      entry: {
        type: { type: "string" },
        description: "The entry in canonical spelling: `10.0.0.1`, `10.0.0.0/24`, `::1`.",
        required: true,
      },
      created: { type: { type: "string" }, description: "When it was added (ISO 8601).", required: true },
      lastUsed: {
        type: { type: "string" },
        description: "When the key last called from it (ISO 8601).",
        required: true,
      },
      lastUsedAddress: {
        type: { type: "string" },
        description: "The address the key last called from within it.",
        required: true,
      },
      count: {
        type: { type: "integer" },
        description: "How many calls the key made from it.",
        required: true,
      },
    },
  } satisfies TypeDescriptor<AccessListEntryOutput>,
  {
    name: "ApiKey",
    description: "An organization API key as the server returns it; `privateKey` is redacted by the server.",
    properties: {
      id: { type: { type: "string" }, description: "The key's id.", required: true },
      desc: { type: { type: "string" }, description: "The key's description.", required: false },
      privateKey: {
        type: { type: "string" },
        description: "The key's private key as the server shows it: redacted (`********-****-****-…`).",
        required: false,
        secret: true,
      },
      publicKey: { type: { type: "string" }, description: "The key's public key.", required: true },
      roles: {
        type: { type: "array", items: { $ref: "#/types/opsmanager:index:Role" } },
        description: "The key's roles: organization roles (with `orgId`) and project roles (with `groupId`).",
        required: true,
      },
    },
  } satisfies TypeDescriptor<ApiKey>,
  {
    name: "Role",
    description:
      "A role of an API key: an organization role (with `orgId`) or a project role (with `groupId`).",
    properties: {
      orgId: {
        type: { type: "string" },
        description: "The organization, for an organization role.",
        required: false,
      },
      groupId: { type: { type: "string" }, description: "The project, for a project role.", required: false },
      roleName: { type: { type: "string" }, description: "The role's name.", required: true },
    },
  } satisfies TypeDescriptor<Role>,
];

/** getOrgApiKeys: its inputs, and what it returns (the keys, as a list: the SDKs unwrap it). */
export const GET_ORG_API_KEYS_SCHEMA = {
  name: "getOrgApiKeys",
  description:
    "Every API key of an organization (all pages), each once, as the server returns them (`id`, `desc`, " +
    "`publicKey`, redacted `privateKey`, `roles`). It reads the organization's listing twice and returns the keys " +
    "only when both reads' pages agree and list the same keys; a listing that keeps changing fails.",
  inputs: {
    orgId: { type: { type: "string" }, description: "The organization whose keys to list.", required: true },
    server: {
      omitted: "named servers are the dynamic face's; the invoke's provider instance names the server",
    },
  },
  returns: { type: "array", items: { $ref: "#/types/opsmanager:index:ApiKey" } },
} satisfies FunctionDescriptor<GetOrgApiKeysArgs, ApiKey[]>;

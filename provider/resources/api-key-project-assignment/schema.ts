/**
 * ApiKeyProjectAssignment as the provider plugin's schema describes it (`provider/schema.ts`): every
 * input and output of `types.ts`, in the README's words. `stateVersion`, which the state also carries,
 * is not an output (it says how the state is stored; no program reads it).
 */
import type { ObjectTypeDescriptor, ResourceDescriptor, TypeDescriptor } from "../shared/schema-descriptor";
import type {
  ApiKeyProjectAssignmentProviderInputs,
  ApiKeyProjectAssignmentProviderOutputs,
  PreviousAssignment,
} from "./types";

const ROLE_LIST = { type: "array", items: { $ref: "#/types/opsmanager:index:GroupRole" } } as const;

/** ApiKeyProjectAssignment's properties. */
export const API_KEY_PROJECT_ASSIGNMENT_SCHEMA = {
  name: "ApiKeyProjectAssignment",
  description:
    "One organization API key in one project, with its project roles: a resource of its own, so that a created " +
    "key is assigned by passing `key.apiKeyId`, and two programs can each manage their own project's assignment " +
    "of one key.",
  inputs: {
    apiKeyId: {
      type: { type: "string" },
      description: "The organization key's id, 24 hexadecimal digits. A change is a replacement.",
      required: true,
      replaces: true,
    },
    groupId: {
      type: { type: "string" },
      description: "The project's id, 24 hexadecimal digits. A change is a replacement.",
      required: true,
      replaces: true,
    },
    roles: {
      type: ROLE_LIST,
      description:
        "A set of project roles (`GROUP_OWNER`, `GROUP_READ_ONLY`, …), at least one. A change is an update: one " +
        "PATCH carrying the whole set (roles not listed are taken away).",
      required: true,
    },
    restoreOnDelete: {
      type: { type: "boolean" },
      description:
        "Default `false`; on destroy, put back the roles an assignment that existed before had, instead of " +
        "unassigning (recorded at create, so it takes effect only when set then).",
      required: false,
    },
    server: {
      omitted:
        "named servers are the dynamic face's; the plugin serves several servers as several provider instances",
    },
  },
  outputs: {
    apiKeyId: { type: { type: "string" }, description: "The organization key's id.", required: true },
    groupId: { type: { type: "string" }, description: "The project's id.", required: true },
    roles: { type: ROLE_LIST, description: "The key's project roles on the server, sorted.", required: true },
    restoreOnDelete: {
      type: { type: "boolean" },
      description: "Whether destroy puts back the roles recorded in `previous`.",
      required: true,
    },
    previous: {
      type: { $ref: "#/types/opsmanager:index:PreviousAssignment" },
      description:
        "`{ recorded, roles }`: the roles the key had in the project before (recorded with `restoreOnDelete`).",
      required: true,
    },
    server: { omitted: "named servers are the dynamic face's (see the input)" },
  },
} satisfies ResourceDescriptor<ApiKeyProjectAssignmentProviderInputs, ApiKeyProjectAssignmentProviderOutputs>;

/** The object types ApiKeyProjectAssignment's outputs name. */
export const API_KEY_PROJECT_ASSIGNMENT_TYPES: ObjectTypeDescriptor[] = [
  {
    name: "PreviousAssignment",
    description: "The roles a key had in a project before an assignment, as recorded at its create.",
    properties: {
      recorded: {
        type: { type: "boolean" },
        description:
          "Whether they were read (only with `restoreOnDelete` at create): nothing is put back otherwise.",
        required: true,
      },
      roles: {
        type: { type: "array", items: { type: "string" } },
        description:
          "The key's project roles then, sorted; empty when it had none there (it was not assigned).",
        required: true,
      },
    },
  } satisfies TypeDescriptor<PreviousAssignment>,
];

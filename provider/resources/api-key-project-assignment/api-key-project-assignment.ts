import * as pulumi from "@pulumi/pulumi";
import type { GroupRole } from "../../api/types";
import { apiKeyIdSource } from "../shared/preview-tokens";
import { unwrittenLeakTraces } from "../shared/promise-stacks";
import { API_KEY_PROJECT_ASSIGNMENT_PROVIDER, dynamicType } from "../shared/providers";
import { restoringFirst } from "../shared/replace-order";
import type { PreviousAssignment } from "./types";

/** Inputs of {@link ApiKeyProjectAssignment}. */
export interface ApiKeyProjectAssignmentArgs {
  /**
   * The organization API key's id, 24 hexadecimal digits: an `OrgApiKey`'s `apiKeyId` output, or the id
   * of a key made elsewhere. A change is a replacement (the new assignment first, then the old one
   * taken away).
   */
  apiKeyId: pulumi.Input<string>;
  /** The project (group) id, 24 hexadecimal digits. A change is a replacement. */
  groupId: pulumi.Input<string>;
  /**
   * The key's project roles (`GROUP_OWNER`, `GROUP_READ_ONLY`, …), a set: at least one; order and
   * repeats do not matter. Roles not listed are taken away: a change is one PATCH with the whole set.
   */
  roles: pulumi.Input<pulumi.Input<GroupRole>[]>;
  /**
   * On delete, put back the roles the key had in the project before this resource was created, instead
   * of taking the key out of the project. They are recorded at create, so this takes effect only when
   * set then (one read of the project's keys, shared by the project's assignments). Default false.
   */
  restoreOnDelete?: pulumi.Input<boolean>;
  /**
   * The server the project is on: the name of a server in the stack config `opsmanager:servers`
   * (`pulumi config set --path 'opsmanager:servers.dc2.baseUrl' …`). Not given: the default server
   * (`opsmanager:baseUrl`). Only the name is stored; a change is a replacement.
   */
  server?: pulumi.Input<string>;
}

/**
 * One organization API key in one project, with its project roles. Create is one PATCH (it assigns
 * the key, or sets the roles of an assignment that exists); destroy is one DELETE (or, with
 * `restoreOnDelete`, puts back the roles recorded at create); refresh reads the project's keys, once
 * per project for every assignment in it, and drops an assignment that two listings lack. Each
 * assignment is its own resource, so a key made by one program can be assigned by another to its own
 * project. The resource's id is `{groupId}/{apiKeyId}`.
 *
 * @example
 * const key = new OrgApiKey("ci", { orgId, desc: "CI pipeline", roles: ["ORG_MEMBER"] });
 * new ApiKeyProjectAssignment("ci-in-app", { apiKeyId: key.apiKeyId, groupId, roles: ["GROUP_READ_ONLY"] });
 */
export class ApiKeyProjectAssignment extends pulumi.CustomResource {
  declare readonly apiKeyId: pulumi.Output<string>;
  declare readonly groupId: pulumi.Output<string>;
  /** The key's project roles on the server, sorted (as the last PATCH set them, or refresh read them). */
  declare readonly roles: pulumi.Output<GroupRole[]>;
  declare readonly restoreOnDelete: pulumi.Output<boolean>;
  /** The roles the key had in the project before, when recorded at create (`restoreOnDelete`). */
  declare readonly previous: pulumi.Output<PreviousAssignment>;
  /** The named server the project is on, as declared; undefined for the default server. */
  declare readonly server: pulumi.Output<string | undefined>;

  constructor(name: string, args: ApiKeyProjectAssignmentArgs, opts?: pulumi.CustomResourceOptions) {
    // The SDK's promise-debugging stacks are left unwritten while it registers (shared/promise-stacks.ts).
    const restoreStacks = unwrittenLeakTraces();
    try {
      super(
        dynamicType("ApiKeyProjectAssignment"),
        name,
        {
          restoreOnDelete: undefined,
          server: undefined,
          ...args,
          previous: undefined,
          // In a preview only: which key's id `apiKeyId` is (shared/preview-links.ts).
          ...apiKeyIdSource(args.apiKeyId),
          __provider: API_KEY_PROJECT_ASSIGNMENT_PROVIDER,
        },
        restoringFirst(args.restoreOnDelete, opts),
      );
    } finally {
      restoreStacks();
    }
  }

  /**
   * Look up an existing assignment's state by its id, `{groupId}/{apiKeyId}` (`pulumi refresh`
   * semantics). `pulumi import` does not work for dynamic resources (pulumi/pulumi#16175): use this, or
   * declare the assignment (its create sets the declared roles on an assignment that exists). An
   * assignment on a named server is looked up with `{ server }` after the options.
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
    state: { server?: pulumi.Input<string> } = {},
  ): ApiKeyProjectAssignment {
    const args = (state.server === undefined ? {} : { server: state.server }) as ApiKeyProjectAssignmentArgs;
    return new ApiKeyProjectAssignment(name, args, { ...opts, id });
  }
}

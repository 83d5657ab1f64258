import * as pulumi from "@pulumi/pulumi";
import type { OrgRole } from "../../api/types";
import { nameIdOutputs, previewToken, tokenInput } from "../shared/preview-tokens";
import { unwrittenLeakTraces } from "../shared/promise-stacks";
import { dynamicType, ORG_API_KEY_PROVIDER } from "../shared/providers";
import { restoringFirst } from "../shared/replace-order";
import type { AccessListEntryOutput, ProjectRole } from "./types";

/** Inputs of {@link OrgApiKey}. */
export interface OrgApiKeyArgs {
  /** The organization's id. A change is a replacement. */
  orgId: pulumi.Input<string>;
  /**
   * The id of an existing key to adopt. Give this or {@link publicKey}, or neither to create a key. A
   * change is a replacement.
   */
  apiKeyId?: pulumi.Input<string>;
  /** Find the key by its public key instead of its id. A change is a replacement. */
  publicKey?: pulumi.Input<string>;
  /**
   * The key's description, 1 to 250 characters. Managed when given; left as it is when not. Required
   * to create a key.
   */
  desc?: pulumi.Input<string>;
  /**
   * The key's organization roles, a set (order and repeats do not matter). Managed when given. Required
   * to create a key.
   */
  roles?: pulumi.Input<pulumi.Input<OrgRole>[]>;
  /**
   * On delete, put back the desc, roles and access list managed at that moment, as they were before
   * Pulumi managed them. Default false. Adopted keys only: a created key is deleted.
   */
  restoreOnDelete?: pulumi.Input<boolean>;
  /**
   * A key this resource creates is replaced (a new key made, then the old one deleted) whenever any of
   * these change: rotation on your schedule (`{ rotated: "2026-11" }`). Not for an adopted key.
   */
  keepers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * The addresses and CIDR blocks the key may call the API from, a set: `["203.0.113.7",
   * "10.0.0.0/24", "2001:db8::/32"]`. Managed when given; left as it is when not. `10.0.0.1` and
   * `10.0.0.1/32` are one entry; a block must be its network (`10.0.0.0/24`, not `10.0.0.5/24`). An
   * update adds new entries before it removes old ones.
   */
  accessList?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * The server the key is on: the name of a server in the stack config `opsmanager:servers`
   * (`pulumi config set --path 'opsmanager:servers.dc2.baseUrl' …`). Not given: the default server
   * (`opsmanager:baseUrl`). Only the name is stored; a change is a replacement.
   */
  server?: pulumi.Input<string>;
}

/** State of an {@link OrgApiKey}, for {@link OrgApiKey.get}. `orgId` is required to find the key. */
export interface OrgApiKeyState {
  orgId: pulumi.Input<string>;
  /** The named server the key is on; not given: the default server. */
  server?: pulumi.Input<string>;
}

/**
 * An organization API key of Ops Manager. Named by `apiKeyId` or `publicKey`, an existing key is
 * adopted: its `desc` and `roles` are managed when declared, changed with one PATCH when they differ,
 * and `pulumi destroy` releases it (optionally restoring). Named by neither, the key is created with its
 * `desc` and `roles`: its `privateKey` output (a secret) is the one copy of its private key, `keepers`
 * rotate it, and `pulumi destroy` deletes it.
 *
 * @example
 * new OrgApiKey("ci", { orgId, publicKey: "abcdefgh", desc: "CI pipeline", roles: ["ORG_READ_ONLY"] });
 * const deployer = new OrgApiKey("deployer", { orgId, desc: "deployer", roles: ["ORG_MEMBER"], keepers: { rotated: "2026-11" } });
 */
export class OrgApiKey extends pulumi.CustomResource {
  declare readonly orgId: pulumi.Output<string>;
  /** The key's id (also the resource's id). */
  declare readonly apiKeyId: pulumi.Output<string>;
  declare readonly publicKey: pulumi.Output<string>;
  /** The key's description on the server. */
  declare readonly desc: pulumi.Output<string>;
  /** The key's organization roles on the server, sorted. */
  declare readonly roles: pulumi.Output<OrgRole[]>;
  /**
   * A created key's whole private key, from the create's answer (the only one that shows it), kept in
   * state as a secret. An adopted key's as the server shows it: redacted, a trailing fragment visible.
   */
  declare readonly privateKey: pulumi.Output<string>;
  /** The key's project roles (read only). */
  declare readonly projectRoles: pulumi.Output<ProjectRole[]>;
  declare readonly restoreOnDelete: pulumi.Output<boolean>;
  /**
   * The desc, organization roles and managed access list the key had when adopted: what
   * `restoreOnDelete` puts back.
   */
  declare readonly adopted: pulumi.Output<{ desc: string; roles: OrgRole[]; accessList?: string[] }>;
  /** Which of `desc` and `roles` this resource manages, and how it names the key (`created`: made it). */
  declare readonly managed: pulumi.Output<{
    desc: boolean;
    roles: boolean;
    by: "apiKeyId" | "publicKey" | "created";
  }>;
  /** The `keepers` a created key was made with; `{}` for an adopted key. */
  declare readonly keepers: pulumi.Output<Record<string, string>>;

  /** The key's access list as the server has it, canonical and sorted; only when `accessList` is given. */
  declare readonly accessList: pulumi.Output<string[] | undefined>;
  /** Each access-list entry with its `created`, `lastUsed`, `lastUsedAddress` and `count`; with `accessList`. */
  declare readonly accessListEntries: pulumi.Output<AccessListEntryOutput[] | undefined>;
  /** The named server the key is on, as declared; undefined for the default server. */
  declare readonly server: pulumi.Output<string | undefined>;
  /** Only on a create whose answer was lost: the desc its POST sent, and when; the next `up` or `destroy` deletes that key. */
  declare readonly pendingCreate: pulumi.Output<{ desc: string; sentAt: string } | undefined>;

  constructor(name: string, args: OrgApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    // The SDK's promise-debugging stacks are left unwritten while it registers (shared/promise-stacks.ts).
    const restoreStacks = unwrittenLeakTraces();
    // The private key of a created key is a secret: Pulumi encrypts it in state and masks it in
    // every display (a dynamic provider cannot return a secret itself, pulumi/pulumi#3012).
    const options = {
      ...restoringFirst(args.restoreOnDelete, opts),
      additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "privateKey"],
    };
    // In a preview only: what lets a dependent know the key keeps its id (shared/preview-links.ts).
    const token = previewToken(options);
    try {
      super(
        dynamicType("OrgApiKey"),
        name,
        {
          apiKeyId: undefined,
          publicKey: undefined,
          desc: undefined,
          roles: undefined,
          restoreOnDelete: undefined,
          keepers: undefined,
          accessList: undefined,
          server: undefined,
          ...args,
          privateKey: undefined,
          projectRoles: undefined,
          adopted: undefined,
          managed: undefined,
          accessListEntries: undefined,
          pendingCreate: undefined,
          ...tokenInput(token),
          __provider: ORG_API_KEY_PROVIDER,
        },
        options,
      );
      nameIdOutputs(token, this.apiKeyId, this.id);
    } finally {
      restoreStacks();
    }
  }

  /**
   * Look up an existing key's state by its id (`pulumi refresh` semantics); `orgId` is needed to list
   * the organization's keys. `pulumi import` does not work for dynamic resources (pulumi/pulumi#16175):
   * use this, or declare an OrgApiKey (adoption is how this resource comes into a stack).
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state: OrgApiKeyState,
    opts?: pulumi.CustomResourceOptions,
  ): OrgApiKey {
    const args: OrgApiKeyArgs = { orgId: state.orgId };
    if (state.server !== undefined) args.server = state.server;
    return new OrgApiKey(name, args, { ...opts, id });
  }
}

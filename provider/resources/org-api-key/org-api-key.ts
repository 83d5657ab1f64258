import * as pulumi from "@pulumi/pulumi";
import type { OrgRole } from "../../api/types";
import { orgApiKeyProvider } from "../shared/providers";
import type { AccessListEntryOutput, ProjectRole } from "./types";

/** Inputs of {@link OrgApiKey}. */
export interface OrgApiKeyArgs {
  /** The organization's id. A change is a replacement. */
  orgId: pulumi.Input<string>;
  /** The id of the existing key to manage. Give this or {@link publicKey}. A change is a replacement. */
  apiKeyId?: pulumi.Input<string>;
  /** Find the key by its public key instead of its id. A change is a replacement. */
  publicKey?: pulumi.Input<string>;
  /** The key's description, 1 to 250 characters. Managed when given; left as it is when not. */
  desc?: pulumi.Input<string>;
  /** The key's organization roles, a set (order and repeats do not matter). Managed when given. */
  roles?: pulumi.Input<pulumi.Input<OrgRole>[]>;
  /**
   * On delete, put back the desc and roles managed at that moment, as they were before Pulumi managed
   * them. Default false.
   */
  restoreOnDelete?: pulumi.Input<boolean>;
  /**
   * The addresses and CIDR blocks the key may call the API from, a set: `["203.0.113.7",
   * "10.0.0.0/24", "2001:db8::/32"]`. Managed when given; left as it is when not. `10.0.0.1` and
   * `10.0.0.1/32` are one entry; a block must be its network (`10.0.0.0/24`, not `10.0.0.5/24`). An
   * update adds new entries before it removes old ones.
   */
  accessList?: pulumi.Input<pulumi.Input<string>[]>;
}

/** State of an {@link OrgApiKey}, for {@link OrgApiKey.get}. `orgId` is required to find the key. */
export interface OrgApiKeyState {
  orgId: pulumi.Input<string>;
}

/**
 * An existing organization API key of Ops Manager, adopted by id or public key. Its `desc` and `roles`
 * are managed when declared, and changed with one PATCH when they differ. The API has no create or
 * delete of keys: `pulumi up` adopts, `pulumi destroy` releases (optionally restoring).
 *
 * @example
 * new OrgApiKey("ci", { orgId, publicKey: "abcdefgh", desc: "CI pipeline", roles: ["ORG_READ_ONLY"] });
 */
export class OrgApiKey extends pulumi.dynamic.Resource {
  declare readonly orgId: pulumi.Output<string>;
  /** The key's id (also the resource's id). */
  declare readonly apiKeyId: pulumi.Output<string>;
  declare readonly publicKey: pulumi.Output<string>;
  /** The key's description on the server. */
  declare readonly desc: pulumi.Output<string>;
  /** The key's organization roles on the server, sorted. */
  declare readonly roles: pulumi.Output<OrgRole[]>;
  /** The private key as the server shows it: redacted, only a trailing fragment visible. */
  declare readonly privateKey: pulumi.Output<string>;
  /** The key's project roles (read only). */
  declare readonly projectRoles: pulumi.Output<ProjectRole[]>;
  declare readonly restoreOnDelete: pulumi.Output<boolean>;
  /** The desc and organization roles the key had when adopted: what `restoreOnDelete` puts back. */
  declare readonly adopted: pulumi.Output<{ desc: string; roles: OrgRole[]; accessList?: string[] }>;
  /** Which of `desc` and `roles` this resource manages, and whether it names the key by `apiKeyId` or `publicKey`. */
  declare readonly managed: pulumi.Output<{ desc: boolean; roles: boolean; by: "apiKeyId" | "publicKey" }>;

  /** The key's access list as the server has it, canonical and sorted; only when `accessList` is given. */
  declare readonly accessList: pulumi.Output<string[] | undefined>;
  /** Each access-list entry with its `created`, `lastUsed`, `lastUsedAddress` and `count`; with `accessList`. */
  declare readonly accessListEntries: pulumi.Output<AccessListEntryOutput[] | undefined>;

  constructor(name: string, args: OrgApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      orgApiKeyProvider,
      name,
      {
        apiKeyId: undefined,
        publicKey: undefined,
        desc: undefined,
        roles: undefined,
        restoreOnDelete: undefined,
        accessList: undefined,
        ...args,
        privateKey: undefined,
        projectRoles: undefined,
        adopted: undefined,
        managed: undefined,
        accessListEntries: undefined,
      },
      opts,
      "opsmanager",
      "OrgApiKey",
    );
  }

  /**
   * Look up an existing key's state by its id (`pulumi refresh` semantics); `orgId` is needed to list
   * the organization's keys. `pulumi import` does not work for dynamic resources: use this, or declare
   * an OrgApiKey (adoption is how this resource comes into a stack).
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state: OrgApiKeyState,
    opts?: pulumi.CustomResourceOptions,
  ): OrgApiKey {
    return new OrgApiKey(name, { orgId: state.orgId }, { ...opts, id });
  }
}

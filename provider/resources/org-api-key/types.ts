/**
 * OrgApiKey's inputs and outputs as its provider receives and returns them, as plain types: the public
 * declarations name these, never the zod schemas that check them (see `api/types.ts`).
 */
import type { OrgRole } from "../../api/types";

/** A project role of a key: read only, this resource does not change project roles. */
export interface ProjectRole {
  groupId: string;
  roleName: string;
}

/** OrgApiKey's inputs as the provider receives them (resolved, plain JSON). */
export interface OrgApiKeyProviderInputs {
  orgId: string;
  apiKeyId?: string;
  publicKey?: string;
  desc?: string;
  roles?: OrgRole[];
  restoreOnDelete?: boolean;
  /** Any change replaces a key this resource created (a created key only). */
  keepers?: Record<string, string>;
  /** The key's access list, canonical and sorted once `check` has run; managed when given. */
  accessList?: string[];
  /** The named server (`opsmanager:servers.<name>`) the key is on; absent: the default server. */
  server?: string;
}

/** An entry of a key's access list as the server has it (`""` or 0 where the server says nothing). */
export interface AccessListEntryOutput {
  /** The entry in canonical spelling: `10.0.0.1`, `10.0.0.0/24`, `::1`. */
  entry: string;
  /** When it was added (ISO 8601). */
  created: string;
  /** When the key last called from it (ISO 8601). */
  lastUsed: string;
  /** The address the key last called from within it. */
  lastUsedAddress: string;
  /** How many calls the key made from it. */
  count: number;
}

/** OrgApiKey's outputs as stored in state. */
export interface OrgApiKeyProviderOutputs {
  orgId: string;
  apiKeyId: string;
  publicKey: string;
  desc: string;
  roles: OrgRole[];
  privateKey: string;
  projectRoles: ProjectRole[];
  restoreOnDelete: boolean;
  /**
   * The key's desc and organization roles (and access list, when managed) when it was adopted: what
   * `restoreOnDelete` puts back.
   */
  adopted: { desc: string; roles: OrgRole[]; accessList?: string[] };
  /** Which inputs this resource manages, and how it named the key (`created`: it made the key). */
  managed: { desc: boolean; roles: boolean; by: "apiKeyId" | "publicKey" | "created" };
  /** The `keepers` a created key was made with (`{}` for an adopted key). */
  keepers: Record<string, string>;
  /**
   * The key's access list as the server has it, canonical and sorted; present only while the resource
   * manages it (state without it manages no access list).
   */
  accessList?: string[];
  /** Each entry of {@link accessList} with what the server says of it; present with it. */
  accessListEntries?: AccessListEntryOutput[];
  /** The named server the key is on, as declared; absent for the default server. */
  server?: string;
  /**
   * Present only on a create whose answer was lost and whose key may exist: the desc its POST sent
   * (the declared desc and that attempt's mark) and when. The next `pulumi up` or `pulumi destroy`
   * deletes the key with that desc.
   */
  pendingCreate?: { desc: string; sentAt: string };
}

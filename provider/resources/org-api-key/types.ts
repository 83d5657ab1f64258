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
  /** The key's desc and organization roles when it was adopted: what `restoreOnDelete` puts back. */
  adopted: { desc: string; roles: OrgRole[] };
  /** Which inputs this resource manages, and how it named the key (`created`: it made the key). */
  managed: { desc: boolean; roles: boolean; by: "apiKeyId" | "publicKey" | "created" };
  /** The `keepers` a created key was made with (`{}` for an adopted key). */
  keepers: Record<string, string>;
}

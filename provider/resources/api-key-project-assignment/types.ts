/**
 * ApiKeyProjectAssignment's inputs and outputs as its provider receives and returns them, as plain
 * types: the public declarations name these, never the zod schemas that check them (see `api/types.ts`).
 */
import type { GroupRole } from "../../api/types";

/** ApiKeyProjectAssignment's inputs as the provider receives them (resolved, plain JSON). */
export interface ApiKeyProjectAssignmentProviderInputs {
  /** The organization API key's id: 24 hexadecimal digits. */
  apiKeyId: string;
  /** The project (group) id: 24 hexadecimal digits. */
  groupId: string;
  /** The key's project roles, a set. */
  roles: GroupRole[];
  restoreOnDelete?: boolean;
  /** The named server (`opsmanager:servers.<name>`) the project is on; absent: the default server. */
  server?: string;
}

/** The roles the key had in the project before this resource assigned it, as recorded at create. */
export interface PreviousAssignment {
  /** Whether they were read (only with `restoreOnDelete` at create): nothing is put back otherwise. */
  recorded: boolean;
  /** The key's project roles then, sorted; empty when it had none there (it was not assigned). */
  roles: string[];
}

/** ApiKeyProjectAssignment's outputs as stored in state. */
export interface ApiKeyProjectAssignmentProviderOutputs {
  apiKeyId: string;
  groupId: string;
  /** The key's project roles, sorted: as set by the last PATCH, or as the last refresh read them. */
  roles: GroupRole[];
  restoreOnDelete: boolean;
  previous: PreviousAssignment;
  /** The named server the project is on, as declared; absent for the default server. */
  server?: string;
}

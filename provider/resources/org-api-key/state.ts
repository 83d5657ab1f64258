/**
 * OrgApiKey's state as every version wrote it, brought to today's shape in one place: each method that
 * reads state starts with {@link upgradeKeyState}, which applies {@link KEY_STATE}'s steps from the
 * version the state was written at (../shared/state-version.ts).
 */
import type { OrgRole } from "../../api/types";
import {
  type StateReader,
  type StateUpgrade,
  type StoredVersion,
  upgradeState,
} from "../shared/state-version";
import type { OrgApiKeyProviderInputs, OrgApiKeyProviderOutputs } from "./types";

/** Which inputs a resource manages, and how it named the key. */
export type Managed = OrgApiKeyProviderOutputs["managed"];

/**
 * The state in today's shape. `managed` alone may be absent: state written before it was recorded,
 * which only the program's next declaration can settle (see {@link upgradeKeyState}).
 */
export type KeyState = Omit<OrgApiKeyProviderOutputs, "managed"> & { managed?: Managed };

/** What a lookup by `OrgApiKey.get`, whose state holds the orgId alone, manages: nothing. */
const NOTHING_MANAGED: Managed = { desc: false, roles: false, by: "apiKeyId" };

const text = (value: unknown) => (typeof value === "string" ? value : "");
const texts = (value: unknown) => (Array.isArray(value) ? value.filter((v) => typeof v === "string") : []);
// Roles in state are the server's strings, typed as the roles a program declares (as orgRolesOf does).
const roleTexts = (value: unknown) => texts(value) as OrgRole[];

// Keepers came with created keys: state written before has none.
const keepersOf = (value: unknown): Record<string, string> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === "string"))
    : {};

/** State as any version stored it: every field may be missing, and roles are the server's strings. */
export type StoredKeyState = Partial<Omit<OrgApiKeyProviderOutputs, "roles" | "adopted">> & {
  roles?: string[];
  adopted?: { desc?: string; roles?: string[]; accessList?: string[] };
};

/**
 * Version 0 to 1: state written before versions, by any earlier version, read by which fields are
 * present. A missing text as `""`, a missing list as empty, a missing `restoreOnDelete` as false, a
 * missing `adopted` as `{ desc: "", roles: [] }` (nothing known to put back, which delete already reads
 * as nothing to restore).
 *
 * A missing `managed` is *not recorded*, never "nothing managed": it stays absent until an update
 * records what the program declares, and until then {@link managedFor} takes the program's declaration
 * as what is managed. Read as "nothing managed", a refresh would record that and the next diff update
 * every field; read as a guess, delete could put back a role removed by hand. State from
 * `OrgApiKey.get` holds the orgId alone (no key id): that lookup manages nothing.
 */
function fromVersion0(olds: StoredKeyState): KeyState {
  const adopted = olds.adopted;
  const state: KeyState = {
    orgId: text(olds.orgId),
    apiKeyId: text(olds.apiKeyId),
    publicKey: text(olds.publicKey),
    desc: text(olds.desc),
    roles: roleTexts(olds.roles),
    privateKey: text(olds.privateKey),
    projectRoles: Array.isArray(olds.projectRoles) ? olds.projectRoles : [],
    restoreOnDelete: olds.restoreOnDelete === true,
    adopted: { desc: text(adopted?.desc), roles: roleTexts(adopted?.roles) },
    keepers: keepersOf(olds.keepers),
  };
  // The access list is managed while the state holds it; state without it (all state written before
  // it could be managed) manages none, and it stays absent so that a refresh adds no field.
  if (Array.isArray(olds.accessList)) {
    state.accessList = texts(olds.accessList);
    if (Array.isArray(olds.accessListEntries)) state.accessListEntries = olds.accessListEntries;
  }
  if (Array.isArray(adopted?.accessList)) state.adopted.accessList = texts(adopted?.accessList);
  // Named servers came later: state without one is on the default server.
  if (typeof olds.server === "string") state.server = olds.server;
  if (olds.managed !== undefined) state.managed = olds.managed;
  else if (olds.apiKeyId === undefined) state.managed = NOTHING_MANAGED;
  return state;
}

/**
 * Version 1 to 2: `pendingCreate` came (a create whose answer was lost, recorded to be settled). Version
 * 1 never wrote it, so its state is unchanged; the bump makes a package that knows only version 1
 * refuse such a state rather than take its id for a key's.
 */
function fromVersion1(state: KeyState): KeyState {
  return state;
}

/**
 * OrgApiKey's state versions: `steps[v]` takes version v to v + 1, and version 2 is today's
 * {@link KeyState} (`managed` absent where no update has recorded it yet).
 */
export const KEY_STATE: StateUpgrade<KeyState> = {
  resource: "OrgApiKey",
  steps: [fromVersion0, fromVersion1],
};

/**
 * Any OrgApiKey state in today's shape, from the version it was written at; `method` (with the key's
 * id) is named in the error for a version newer than this code knows.
 */
export function upgradeKeyState(
  olds: StoredKeyState & StoredVersion,
  id: string,
  method: StateReader,
): KeyState {
  return upgradeState(KEY_STATE, olds, id, method);
}

/**
 * What the resource manages: as the state records it, else (state written before it was recorded) as
 * `program` declares now; with no program to ask (read, delete), nothing is taken as managed.
 */
export function managedFor(state: KeyState, program?: OrgApiKeyProviderInputs): Managed {
  if (state.managed !== undefined) return state.managed;
  if (program === undefined) return NOTHING_MANAGED;
  return {
    desc: program.desc !== undefined,
    roles: program.roles !== undefined,
    by: program.apiKeyId !== undefined ? "apiKeyId" : "publicKey",
  };
}

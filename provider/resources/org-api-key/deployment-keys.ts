/**
 * What this deployment remembers of the keys its resources manage: an adopted key's original values,
 * which a replacement of the same key in this process carries (../shared/replacement.ts).
 */
import { managedName, rememberOriginal } from "../shared/replacement";
import { isCreatedState } from "./created-mode";
import type { KeyState } from "./state";

/** The key as this deployment's memory names it on its server (../shared/replacement.ts). */
export const keyName = (server: string | undefined, id: string) => managedName(server, `key ${id}`);

/**
 * Note what an adopted key's state recorded as the key's before the program managed it (`adopted`):
 * a replacement adopting the same key in this process carries it.
 */
export function rememberAdopted(state: KeyState): void {
  if (isCreatedState(state) || state.apiKeyId === "") return;
  const { adopted } = state;
  // State that recorded nothing to put back (written before `adopted` was) carries nothing.
  if (adopted.desc === "" && adopted.roles.length === 0 && adopted.accessList === undefined) return;
  rememberOriginal(keyName(state.server, state.apiKeyId), adopted);
}

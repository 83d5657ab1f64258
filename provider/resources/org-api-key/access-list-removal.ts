/**
 * One entry taken off a key's access list, named as the server spells it. The provider writes entries
 * one way (RFC 5952 for IPv6); a server that keeps the spelling it was given (`2001:0DB8::1` added by
 * hand) finds the entry only by that spelling, and answers 404 to any other. So a 404 is the entry
 * removed only when the list, read again, no longer shows it.
 */
import {
  isAccessListEntryGone,
  type ListedSpelling,
  listAccessList,
  removeFromAccessList,
  spellingOf,
} from "../../api/access-list";
import type { Transport } from "../../api/transport";
import { inContext } from "../shared/in-context";
import { ResourceError } from "../shared/resource-error";

/** Where the removal stands, for the message of a failure: what was added first and stays. */
export interface RemovalContext {
  orgId: string;
  apiKeyId: string;
  /** Entries the same change added before removing: they stay when a removal fails. */
  added: readonly string[];
}

const listed = (entries: readonly string[]) => entries.join(", ");

/**
 * Removes `entry` (canonical), named as `spelled` when a listing of this change showed it, else
 * canonically. A 404 is success only when a read of the list no longer shows the entry; one the list
 * shows in another spelling is removed by that spelling, once. Fails, saying the entry is still there,
 * otherwise.
 */
export async function removeEntry(
  transport: Transport,
  entry: string,
  spelled: ListedSpelling | undefined,
  { orgId, apiKeyId, added }: RemovalContext,
): Promise<void> {
  const stays = added.length > 0 ? `; ${listed(added)} were added first and stay` : "";
  const failed = (error: unknown, name = entry) =>
    inContext(
      `removing ${name} from its access list`,
      error,
      `. The entry is still on the list${stays}; run \`pulumi up\` again to remove it`,
    );
  let tried = spelled === undefined ? entry : spellingOf(spelled);
  try {
    await removeFromAccessList(transport, orgId, apiKeyId, spelled ?? entry);
    return;
  } catch (error) {
    if (!isAccessListEntryGone(error)) throw failed(error);
  }
  let still: ListedSpelling | undefined;
  try {
    still = (await listAccessList(transport, orgId, apiKeyId)).find((e) => e.entry === entry);
  } catch (error) {
    throw inContext(
      `removing ${entry} from its access list (DELETE …/accessList/${tried} answered 404; reading the list to see whether the entry is gone failed)`,
      error,
      `. The entry may still be on the list${stays}; run \`pulumi refresh\`, then \`pulumi up\``,
    );
  }
  if (still === undefined) return;
  if (spellingOf(still) !== tried) {
    tried = spellingOf(still);
    try {
      await removeFromAccessList(transport, orgId, apiKeyId, still);
      return;
    } catch (error) {
      if (!isAccessListEntryGone(error)) throw failed(error, `${entry} (spelled ${tried} on the server)`);
    }
  }
  throw new ResourceError(
    `removing ${entry} from its access list: the server answered 404 to DELETE …/accessList/${tried}, yet its list still shows the entry (spelled ${spellingOf(still)}). The entry is still on the list${stays}. Remove it by hand (Ops Manager: Organization, Access Manager, API Keys, the key's access list), then run \`pulumi refresh\` and \`pulumi up\`.`,
  );
}

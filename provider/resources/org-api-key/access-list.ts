/**
 * OrgApiKey's access list: brought to what the program declares with adds before removes, read back
 * on refresh, put back on delete with `restoreOnDelete`; managed while the state holds `accessList`.
 */
import {
  type AccessListEntry,
  addToAccessList,
  type ListedSpelling,
  listAccessList,
} from "../../api/access-list";
import type { Transport } from "../../api/transport";
import { inContext } from "../shared/in-context";
import { removeEntry } from "./access-list-removal";
import type { AccessListEntryOutput } from "./types";

/** The access-list fields of OrgApiKey's outputs, both present while the resource manages the list. */
export interface AccessListOutputs {
  accessList: string[];
  accessListEntries: AccessListEntryOutput[];
}

function entryOutput(entry: AccessListEntry): AccessListEntryOutput {
  return {
    entry: entry.entry,
    created: entry.created ?? "",
    lastUsed: entry.lastUsed ?? "",
    lastUsedAddress: entry.lastUsedAddress ?? "",
    count: entry.count ?? 0,
  };
}

function outputsOf(entries: Iterable<AccessListEntryOutput>): AccessListOutputs {
  const sorted = [...entries].sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0));
  return { accessList: sorted.map((e) => e.entry), accessListEntries: sorted };
}

const listed = (entries: readonly string[]) => entries.join(", ");

/** The key's access list as the server has it now: one read of the list (all its pages). */
export async function readAccessList(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
): Promise<AccessListOutputs> {
  try {
    return outputsOf((await listAccessList(transport, orgId, apiKeyId)).map(entryOutput));
  } catch (error) {
    throw inContext("reading its access list", error);
  }
}

/**
 * Brings a key's access list from `current` to `declared` (canonical entries): one POST of every
 * declared entry `current` lacks, then one DELETE per entry not declared, so that the key never loses
 * an entry it keeps nor, during the change, the access the new entries give. The POST's answer is the
 * list as the server has it: entries added there by hand are removed too. An entry is removed by the
 * spelling the server listed it with (`listed`, or the POST's answer), else canonically; see
 * ./access-list-removal.ts for a 404.
 *
 * @returns the list after, with what the server says of each entry.
 */
export async function applyAccessList(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  declared: readonly string[],
  current: readonly AccessListEntryOutput[],
  read: readonly AccessListEntry[] = [],
): Promise<AccessListOutputs> {
  const wanted = new Set(declared);
  const after = new Map(current.map((e) => [e.entry, e]));
  const spelled = new Map<string, ListedSpelling>(read.map((e) => [e.entry, e]));
  const additions = declared.filter((entry) => !after.has(entry));
  if (additions.length > 0) {
    try {
      const answer = await addToAccessList(transport, orgId, apiKeyId, additions);
      // The answer is the whole list unless the server paged it: then the list is read once more.
      const entries = answer.complete ? answer.entries : await listAccessList(transport, orgId, apiKeyId);
      after.clear();
      for (const entry of entries) {
        after.set(entry.entry, entryOutput(entry));
        spelled.set(entry.entry, entry);
      }
    } catch (error) {
      throw inContext(
        `adding ${listed(additions)} to its access list`,
        error,
        ". Nothing was removed from the list; correct what the server refused, then run `pulumi up` again",
      );
    }
  }
  const removals = [...after.keys()].filter((entry) => !wanted.has(entry)).sort();
  for (const entry of removals) {
    await removeEntry(transport, entry, spelled.get(entry), { orgId, apiKeyId, added: additions });
    after.delete(entry);
  }
  return outputsOf(after.values());
}

/**
 * The list starts being managed (adoption, or an update that adds `accessList`): one read of the list
 * as it is, which `restoreOnDelete` puts back, then {@link applyAccessList}.
 */
export async function manageAccessList(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  declared: readonly string[],
): Promise<{ outputs: AccessListOutputs; before: string[] }> {
  let entries: AccessListEntry[];
  try {
    entries = await listAccessList(transport, orgId, apiKeyId);
  } catch (error) {
    throw inContext("reading its access list", error);
  }
  const before = outputsOf(entries.map(entryOutput));
  const outputs = await applyAccessList(
    transport,
    orgId,
    apiKeyId,
    declared,
    before.accessListEntries,
    entries,
  );
  return { outputs, before: before.accessList };
}

/** The access-list state of an OrgApiKey, as {@link accessListAfterUpdate} reads it. */
export interface AccessListState {
  accessList?: string[];
  accessListEntries?: AccessListEntryOutput[];
  adopted: { accessList?: string[] };
}

/** The list as the state has it; entries without their details when only `accessList` is there. */
function currentOf(state: AccessListState): AccessListEntryOutput[] {
  return (
    state.accessListEntries ??
    (state.accessList ?? []).map((entry) => ({
      entry,
      created: "",
      lastUsed: "",
      lastUsedAddress: "",
      count: 0,
    }))
  );
}

/**
 * An update's access list: nothing sent when the program stops declaring it (left as it is, no longer
 * managed), {@link manageAccessList} when it starts, else {@link applyAccessList} from the state's list.
 *
 * @returns the outputs (none: not managed) and the list `restoreOnDelete` puts back.
 */
export async function accessListAfterUpdate(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  state: AccessListState,
  declared: readonly string[] | undefined,
): Promise<{ outputs?: AccessListOutputs; adopted?: string[] }> {
  if (declared === undefined) return {};
  if (state.accessList === undefined) {
    const { outputs, before } = await manageAccessList(transport, orgId, apiKeyId, declared);
    return { outputs, adopted: before };
  }
  const outputs = await applyAccessList(transport, orgId, apiKeyId, declared, currentOf(state));
  return { outputs, adopted: state.adopted.accessList };
}

/**
 * `restoreOnDelete`: the list the key had before it was managed, put back (adds before removes), when
 * the state says the list is managed and recorded it; nothing otherwise.
 */
export async function restoreAccessList(
  transport: Transport,
  orgId: string,
  apiKeyId: string,
  state: AccessListState,
): Promise<void> {
  if (state.accessList === undefined || state.adopted.accessList === undefined) return;
  await applyAccessList(transport, orgId, apiKeyId, state.adopted.accessList, currentOf(state));
}

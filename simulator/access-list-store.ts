/**
 * The access lists of organization API keys: per key, its entries in the order they were added. An
 * entry is known by its `cidrBlock`; an address entry also by its `ipAddress`. Each entry records its
 * use: how many requests the key authenticated from an address inside it, and the last one's time and
 * address.
 */
import { BlockList, isIPv4 } from "node:net";
import type { SimAccessListEntry } from "./types";

/** An address as a socket reports it, with an IPv4 address mapped into IPv6 written as IPv4. */
export function plainAddress(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith("::ffff:") && isIPv4(lower.slice(7)) ? lower.slice(7) : lower;
}

/** Whether `address` lies inside the entry's block. */
function contains(entry: SimAccessListEntry, address: string): boolean {
  const [network = "", prefix = ""] = entry.cidrBlock.split("/");
  const family = isIPv4(network) ? "ipv4" : "ipv6";
  if ((family === "ipv4") !== isIPv4(address)) return false;
  const block = new BlockList();
  block.addSubnet(network, Number(prefix), family);
  return block.check(address, family);
}

function copyEntry(entry: SimAccessListEntry): SimAccessListEntry {
  return { ...entry };
}

/** Every key's access list, with lookups by key id. */
export class AccessListStore {
  private readonly lists = new Map<string, SimAccessListEntry[]>();

  /** @param changed Called after every change, for the state file. */
  constructor(private readonly changed: () => void) {}

  /** Copies of a key's entries, in the order they were added (empty for a key without any). */
  list(keyId: string): SimAccessListEntry[] {
    return (this.lists.get(keyId) ?? []).map(copyEntry);
  }

  /** A copy of the entry whose `cidrBlock` or `ipAddress` is `entry`, if the key has it. */
  entry(keyId: string, entry: string): SimAccessListEntry | undefined {
    const found = this.lists.get(keyId)?.find((e) => e.cidrBlock === entry || e.ipAddress === entry);
    return found ? copyEntry(found) : undefined;
  }

  /** Adds the entries the key does not have yet (by `cidrBlock`); those it has are kept as they are. */
  add(keyId: string, entries: readonly SimAccessListEntry[]): void {
    let list = this.lists.get(keyId);
    if (list === undefined) {
      list = [];
      this.lists.set(keyId, list);
    }
    let added = false;
    for (const entry of entries) {
      if (list.some((e) => e.cidrBlock === entry.cidrBlock)) continue;
      list.push(copyEntry(entry));
      added = true;
    }
    if (added) this.changed();
  }

  /**
   * Records a request the key authenticated from `address` on every entry of its list that holds the
   * address: one more in `count`, `lastUsed` now, `lastUsedAddress` the address.
   */
  recordUse(keyId: string, address: string, at: Date = new Date()): void {
    const list = this.lists.get(keyId);
    if (list === undefined) return;
    const from = plainAddress(address);
    const lastUsed = new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");
    let used = false;
    for (const entry of list) {
      if (!contains(entry, from)) continue;
      entry.count = (entry.count ?? 0) + 1;
      entry.lastUsed = lastUsed;
      entry.lastUsedAddress = from;
      used = true;
    }
    if (used) this.changed();
  }

  /** Removes the entry whose `cidrBlock` or `ipAddress` is `entry`; whether there was one. */
  remove(keyId: string, entry: string): boolean {
    const list = this.lists.get(keyId);
    const index = list?.findIndex((e) => e.cidrBlock === entry || e.ipAddress === entry) ?? -1;
    if (list === undefined || index < 0) return false;
    list.splice(index, 1);
    if (list.length === 0) this.lists.delete(keyId);
    this.changed();
    return true;
  }

  /** Removes a key's whole access list (the key is deleted). */
  removeKey(keyId: string): void {
    if (this.lists.delete(keyId)) this.changed();
  }

  /** Takes the lists a state file holds (see {@link records}), as they are, without a change to save. */
  load(records: Record<string, SimAccessListEntry[]>): void {
    for (const [keyId, list] of Object.entries(records)) {
      if (list.length > 0) this.lists.set(keyId, list.map(copyEntry));
    }
  }

  /** Every non-empty list, by key id, as the state file holds them. */
  records(): Record<string, SimAccessListEntry[]> {
    const out: Record<string, SimAccessListEntry[]> = {};
    for (const [keyId, list] of this.lists) {
      Object.defineProperty(out, keyId, {
        value: list.map(copyEntry),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
}

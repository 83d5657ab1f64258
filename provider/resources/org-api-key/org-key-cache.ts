/**
 * An organization's keys looked up in the org's shared listing (../shared/listing-cache.ts), by id or
 * by public key, and kept fresh with what a PATCH returns.
 */
import { type ApiKeySelector, type ListedApiKey, orgApiKeyListing } from "../../api/api-keys";
import type { ApiKey } from "../../api/schemas";
import type { Transport } from "../../api/transport";
import { findListed, type RecordIndex, sharedIndex } from "../shared/listing-cache";

/** A key as the index holds it: from a page (checked on first use) or from a response (checked). */
type Entry = Pick<ListedApiKey, "id" | "publicKey" | "key">;

/** An organization's keys by id and by public key: each lookup is one map read, not a scan. */
class KeyIndex implements RecordIndex<ListedApiKey, ApiKey, ApiKeySelector> {
  private readonly byId = new Map<string, Entry>();
  private readonly byPublicKey = new Map<string, Entry>();
  // Keys a PATCH returned after the listing started: a page read earlier must not undo them.
  private readonly patched = new Set<string>();

  listed(entries: readonly ListedApiKey[]): void {
    for (const entry of entries) if (!this.patched.has(entry.id)) this.put(entry);
  }

  /** A key as the server just returned it (a PATCH response): newer than any page. */
  returnedByPatch(key: ApiKey): void {
    this.patched.add(key.id);
    this.put({ id: key.id, publicKey: key.publicKey, key: () => key });
  }

  /** The ids of every key listed or returned so far. */
  ids(): Set<string> {
    return new Set(this.byId.keys());
  }

  find(selector: ApiKeySelector): ApiKey | undefined {
    const entry =
      selector.id !== undefined ? this.byId.get(selector.id) : this.byPublicKey.get(selector.publicKey);
    return entry?.key();
  }

  private put(entry: Entry): void {
    const before = this.byId.get(entry.id);
    if (before !== undefined && before.publicKey !== entry.publicKey) {
      this.byPublicKey.delete(before.publicKey);
    }
    this.byId.set(entry.id, entry);
    this.byPublicKey.set(entry.publicKey, entry);
  }
}

const keyIndex = () => new KeyIndex();

/**
 * Find a key of an organization in the shared listing, as soon as the page that holds it is in; it is
 * `undefined` (gone) only when two listings whose pages agreed both lack it (see `findListed`).
 */
export function findKey(
  transport: Transport,
  orgId: string,
  selector: ApiKeySelector,
): Promise<ApiKey | undefined> {
  return findListed(transport, orgApiKeyListing(orgId), selector, keyIndex);
}

/** The ids of the keys this deployment's shared listing of the org holds now (none without one). */
export function listedKeyIds(transport: Transport, orgId: string): Set<string> {
  return sharedIndex<KeyIndex>(transport, orgApiKeyListing(orgId).path)?.ids() ?? new Set();
}

/** Keep the shared listing fresh with a key the server just returned (a PATCH response). */
export function rememberKey(transport: Transport, orgId: string, key: ApiKey): void {
  sharedIndex<KeyIndex>(transport, orgApiKeyListing(orgId).path)?.returnedByPatch(key);
}

import { type ApiKeySelector, listAllOrgApiKeys } from "../api/api-keys";
import type { ApiKey } from "../api/schemas";
import type { Transport } from "../api/transport";

/** How long a listing serves later calls: bounds how stale a long deployment's view can get. */
export const LISTING_TTL_MS = 60_000;

interface Listing {
  /** Value of {@link callSeq} when the listing started: it saw every change made before then. */
  startSeq: number;
  startedAt: number;
  keys: Promise<KeyIndex>;
}

// One listing per organization and client, shared by every OrgApiKey of the deployment: N keys in one
// org cost one listing, not N. Keyed by client (clients are shared and live as long as the process),
// so different credentials never share what they see.
const listings = new Map<Transport, Map<string, Listing>>();

/** An organization's keys by id and by public key: each lookup is one map read, not a scan. */
class KeyIndex {
  private readonly byId = new Map<string, ApiKey>();
  private readonly byPublicKey = new Map<string, ApiKey>();

  constructor(keys: ApiKey[]) {
    for (const key of keys) this.put(key);
  }

  put(key: ApiKey): void {
    const before = this.byId.get(key.id);
    if (before !== undefined && before.publicKey !== key.publicKey) this.byPublicKey.delete(before.publicKey);
    this.byId.set(key.id, key);
    this.byPublicKey.set(key.publicKey, key);
  }

  find(selector: ApiKeySelector): ApiKey | undefined {
    return selector.id !== undefined ? this.byId.get(selector.id) : this.byPublicKey.get(selector.publicKey);
  }
}
let callSeq = 0;

function listingsOf(transport: Transport): Map<string, Listing> {
  let map = listings.get(transport);
  if (map === undefined) {
    map = new Map();
    listings.set(transport, map);
  }
  return map;
}

function listing(transport: Transport, orgId: string, freshFrom?: number): Promise<KeyIndex> {
  const map = listingsOf(transport);
  const existing = map.get(orgId);
  if (
    existing !== undefined &&
    (freshFrom === undefined || existing.startSeq >= freshFrom) &&
    Date.now() - existing.startedAt < LISTING_TTL_MS
  ) {
    return existing.keys;
  }
  const entry: Listing = {
    startSeq: callSeq,
    startedAt: Date.now(),
    keys: listAllOrgApiKeys(transport, orgId).then((keys) => new KeyIndex(keys)),
  };
  map.set(orgId, entry);
  // A failed listing is not kept: the next caller tries again.
  entry.keys.catch(() => {
    if (map.get(orgId) === entry) map.delete(orgId);
  });
  return entry.keys;
}

/**
 * Find a key of an organization in the shared listing. A key missing from a listing that started
 * before this call is looked for once more in a fresh listing (one shared by all such callers), so a
 * key made during the deployment is still found, and a vanished key is reported as gone.
 */
export async function findKey(
  transport: Transport,
  orgId: string,
  selector: ApiKeySelector,
): Promise<ApiKey | undefined> {
  const seq = ++callSeq;
  const found = (await listing(transport, orgId)).find(selector);
  if (found !== undefined) return found;
  return (await listing(transport, orgId, seq)).find(selector);
}

/** Keep the shared listing fresh with a key the server just returned (a PATCH response). */
export async function rememberKey(transport: Transport, orgId: string, key: ApiKey): Promise<void> {
  const entry = listingsOf(transport).get(orgId);
  if (entry === undefined) return;
  try {
    (await entry.keys).put(key);
  } catch {
    // The listing failed; the next caller lists again.
  }
}

/** For tests: forget every listing. */
export function resetKeyCacheForTests(): void {
  callSeq = 0;
  listings.clear();
}

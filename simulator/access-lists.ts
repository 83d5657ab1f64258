/**
 * An organization API key's access list (deployed profile), as the Ops Manager documentation
 * ("Organization Programmatic API Key Access Lists") and the error table describe it:
 * `GET`/`POST /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList` and
 * `GET`/`DELETE /orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList/{ENTRY}`, where a block's `/` is written
 * `%2F` in the path (`…/accessList/192.0.2.0%2F24`). The route decodes each path segment once, so a
 * double escape (`%252F`) names an entry that no list has.
 */
import { isIPv4, isIPv6 } from "node:net";
import {
  API_ROOT,
  type ApiRequest,
  type ApiResult,
  fail,
  isPlainObject,
  parseJsonBody,
  unauthorized,
} from "./answers";
import { apiKeyNotFound, orgNotFound } from "./api-keys";
import { listPage } from "./list-page";
import type { ProfileRules } from "./profiles";
import type { SimState } from "./state";
import type { SimAccessListEntry } from "./types";

/** The address no access list may hold (the error table's example of `CANNOT_ADD_IP_ADDRESS_TO_API_KEY_WHITELIST`). */
const FORBIDDEN_ADDRESS = "0.0.0.0";

function entryPath(orgId: string, keyId: string, entry?: string): string {
  const list = `/orgs/${encodeURIComponent(orgId)}/apiKeys/${encodeURIComponent(keyId)}/accessList`;
  return entry === undefined ? list : `${list}/${encodeURIComponent(entry)}`;
}

/**
 * An entry as the server shows it, with its self link: `count` the requests the key authenticated from
 * an address inside it, and `lastUsed` and `lastUsedAddress` only once there was one (the documentation:
 * they appear "only if at least one request has originated from this IP address").
 */
function entryView(origin: string, orgId: string, keyId: string, entry: SimAccessListEntry) {
  return {
    cidrBlock: entry.cidrBlock,
    count: entry.count ?? 0,
    created: entry.created,
    ...(entry.ipAddress === undefined ? {} : { ipAddress: entry.ipAddress }),
    ...(entry.lastUsed === undefined ? {} : { lastUsed: entry.lastUsed }),
    ...(entry.lastUsedAddress === undefined ? {} : { lastUsedAddress: entry.lastUsedAddress }),
    links: [
      {
        href: `${origin}${API_ROOT}${entryPath(orgId, keyId, entry.ipAddress ?? entry.cidrBlock)}`,
        rel: "self",
      },
    ],
  };
}

function ipv4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function ipv4Text(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");
}

function invalidEntry(name: string, value: string, why: string): ApiResult {
  return fail(400, "INVALID_ATTRIBUTE", `Invalid attribute ${name} specified: ${value} ${why}.`, [name]);
}

/** One element of a POST as an entry to store, or the refusal. */
function readEntry(item: unknown, created: string): SimAccessListEntry | ApiResult {
  if (!isPlainObject(item)) {
    return fail(
      400,
      "INVALID_JSON",
      "Received JSON does not match expected format: each entry is an object.",
    );
  }
  for (const name of Object.keys(item)) {
    if (name !== "ipAddress" && name !== "cidrBlock") {
      return fail(400, "INVALID_ATTRIBUTE", `Invalid attribute ${name} specified.`, [name]);
    }
  }
  const { ipAddress, cidrBlock } = item;
  if (ipAddress !== undefined && cidrBlock !== undefined) {
    // The error table's code (its name dates from the whitelist; the newer name is not documented).
    return fail(
      400,
      "BAD_WHITELIST_ADD_REQUEST",
      "Should not specify both the IP address and the CIDR block.",
    );
  }
  let address: string;
  let prefix: number | undefined;
  if (ipAddress !== undefined) {
    if (typeof ipAddress !== "string" || !(isIPv4(ipAddress) || isIPv6(ipAddress))) {
      return invalidEntry("ipAddress", String(ipAddress), "is not an IPv4 or IPv6 address");
    }
    address = ipAddress;
  } else if (cidrBlock !== undefined) {
    const match = typeof cidrBlock === "string" ? /^([^/]+)\/(\d{1,3})$/.exec(cidrBlock) : null;
    const bits = match && isIPv4(match[1] ?? "") ? 32 : match && isIPv6(match[1] ?? "") ? 128 : 0;
    prefix = Number(match?.[2]);
    if (!match || bits === 0 || !(prefix <= bits)) {
      return invalidEntry("cidrBlock", String(cidrBlock), "is not a block in CIDR notation (address/prefix)");
    }
    address = match[1] as string;
    if (prefix === bits) prefix = undefined;
    else if (bits === 32) {
      const size = 2 ** (32 - prefix);
      const network = ipv4Text(Math.floor(ipv4Number(address) / size) * size);
      if (network !== address) {
        return invalidEntry(
          "cidrBlock",
          cidrBlock as string,
          `has host bits set; the block is ${network}/${prefix}`,
        );
      }
    }
  } else {
    return fail(
      400,
      "MISSING_ONE_OF_ATTRIBUTES",
      "Either the ipAddress attribute or the cidrBlock attribute must be specified.",
      ["ipAddress", "cidrBlock"],
    );
  }
  address = address.toLowerCase();
  if (prefix !== undefined) return { cidrBlock: `${address}/${prefix}`, created };
  if (address === FORBIDDEN_ADDRESS) {
    return fail(
      400,
      "CANNOT_ADD_IP_ADDRESS_TO_API_KEY_WHITELIST",
      `The address ${address} cannot be added to whitelists.`,
      [address],
    );
  }
  // An address is the block of that one address: both are shown (NOTES.md, the Go client's bodies).
  return { ipAddress: address, cidrBlock: `${address}/${isIPv4(address) ? 32 : 128}`, created };
}

function addEntries(req: ApiRequest, state: SimState, keyId: string): ApiResult | undefined {
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  if (!Array.isArray(parsed.value)) {
    return fail(
      400,
      "INVALID_JSON",
      "Received JSON does not match expected format: send an array of entries.",
    );
  }
  const created = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const entries: SimAccessListEntry[] = [];
  for (const item of parsed.value as unknown[]) {
    const entry = readEntry(item, created);
    if ("status" in entry) return entry;
    if (entries.some((e) => e.cidrBlock === entry.cidrBlock)) {
      return fail(
        400,
        "DUPLICATE_ADDRESSES_IN_INPUT",
        "Two or more of the IP addresses being added to the whitelist are the same.",
      );
    }
    entries.push(entry);
  }
  // Only adds, and an entry the list already has is kept as it is, not refused: the documentation's
  // POST adds the values "not already present" and the user access list's POST says an address already
  // there "will be ignored"; the error table's 409 ADDRESS_ALREADY_IN_ACCESS_LIST names no endpoint.
  state.accessLists.add(keyId, entries);
  return undefined;
}

/**
 * Routes a request under `/orgs/{ORG-ID}/apiKeys/{API-KEY-ID}/accessList`; `entry` is the decoded
 * segment after it, if any.
 */
export function handleAccessListRequest(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  keyId: string,
  entry: string | undefined,
): ApiResult {
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "apiKeyAccessList", orgId, keyId });
  if (refused) return refused;
  const key = state.apiKey(keyId);
  if (!key || key.orgId !== orgId) return apiKeyNotFound(rules, keyId);
  const view = (e: SimAccessListEntry) => entryView(req.origin, orgId, keyId, e);
  if (entry === undefined) {
    if (req.method === "POST") {
      const refusal = addEntries(req, state, keyId);
      if (refusal) return refusal;
    }
    // The POST answers the whole list, paged as a GET.
    return listPage(req, entryPath(orgId, keyId), state.accessLists.list(keyId), view);
  }
  const found = state.accessLists.entry(keyId, entry);
  if (found === undefined) {
    return fail(
      404,
      "API_KEY_ACCESS_LIST_NOT_FOUND",
      "The specified IP address does not exist in the corresponding API key access list.",
      [entry],
    );
  }
  if (req.method === "DELETE") {
    state.accessLists.remove(keyId, entry);
    // "An empty document" (NOTES.md): a JSON object without members.
    return { status: 200, body: {} };
  }
  return { status: 200, body: view(found) };
}

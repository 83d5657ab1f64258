/**
 * An entry of an API key's access list as one canonical string. The server shows an address entry as
 * both `ipAddress: "10.0.0.1"` and `cidrBlock: "10.0.0.1/32"`, so an address and the block of that one
 * address are one entry, spelt as the address; IPv6 as RFC 5952 spells it (`::1`).
 */
import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

/** An entry in its canonical spelling, and whether it is one address or a block of them. */
export interface CanonicalEntry {
  /** `10.0.0.1`, `::1`, `10.0.0.0/24`, `2001:db8::/32`. */
  entry: string;
  kind: "address" | "block";
}

/** Why a string is not an entry, and the entry it was probably meant to be. */
export interface EntryProblem {
  rule: string;
  /** The canonical entry to write instead, when there is one (`10.0.0.0/24` for `10.0.0.5/24`). */
  suggestion?: string;
}

// The error table's CANNOT_ADD_IP_ADDRESS_TO_API_KEY_WHITELIST names this address: no list may hold it.
const ANY_ADDRESS = "0.0.0.0";

/** An address in its canonical spelling; `undefined` when it is not a plain IPv4 or IPv6 address. */
function canonicalAddress(text: string): { address: ipaddr.IPv4 | ipaddr.IPv6; bits: 32 | 128 } | undefined {
  // node:net is strict where ipaddr.js is lenient (`10.1`, `0x7f.0.0.1`, leading zeros); a zone
  // (`fe80::1%eth0`) names an interface of one machine, which a server's list cannot mean.
  if (isIPv4(text)) return { address: ipaddr.IPv4.parse(text), bits: 32 };
  if (isIPv6(text) && !text.includes("%")) return { address: ipaddr.IPv6.parse(text), bits: 128 };
  return undefined;
}

const spell = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
  address.kind() === "ipv6" ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();

/**
 * `text` as a canonical entry, or the rule it breaks. A block with bits set past its prefix
 * (`10.0.0.5/24`) is refused, its network suggested: the server would hold another block than written.
 *
 * @example
 * canonicalEntry("2001:DB8:0::1/128"); // { entry: "2001:db8::1", kind: "address" }
 */
export function canonicalEntry(text: string): CanonicalEntry | EntryProblem {
  const notAnEntry = { rule: "is not an IPv4 or IPv6 address or CIDR block (address/prefix)" };
  const slash = text.indexOf("/");
  const parsed = canonicalAddress(slash < 0 ? text : text.slice(0, slash));
  if (parsed === undefined) return notAnEntry;
  const { address, bits } = parsed;
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    const v4 = (address as ipaddr.IPv6).toIPv4Address().toString();
    return {
      rule: "is an IPv4 address written as IPv6; the server sees an IPv4 caller by its IPv4 address",
      suggestion: slash < 0 ? v4 : undefined,
    };
  }
  let prefix = bits as number;
  if (slash >= 0) {
    const digits = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(digits) || Number(digits) > bits) {
      return { rule: `is not a CIDR block: the prefix after "/" must be a whole number from 0 to ${bits}` };
    }
    prefix = Number(digits);
  }
  if (prefix === bits) {
    const entry = spell(address);
    if (entry === ANY_ADDRESS) return { rule: "is the unspecified address, which no access list may hold" };
    return { entry, kind: "address" };
  }
  const network = spell(
    bits === 32
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`),
  );
  const entry = `${network}/${prefix}`;
  if (network !== spell(address)) {
    return { rule: "is not a canonical CIDR block: it has bits set past its prefix", suggestion: entry };
  }
  return { entry, kind: "block" };
}

/** Whether {@link canonicalEntry} found an entry. */
export function isCanonicalEntry(value: CanonicalEntry | EntryProblem): value is CanonicalEntry {
  return "entry" in value;
}

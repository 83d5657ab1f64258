/**
 * OrgApiKey's `accessList` at `check`: one canonical spelling per entry (an address and its /32 or
 * /128 are one entry, IPv6 as RFC 5952 writes it), a set sorted so that the engine's own comparison
 * sees no change in order or spelling, and blocks that are not their network refused with it named.
 */
import { describe, expect, it } from "vitest";
import { canonicalEntry } from "../../provider/api/access-list-entry";
import { checkKeyInputs } from "../../provider/resources/org-api-key/org-api-key-inputs";

const KEY = { orgId: "5f0000000000000000000001", apiKeyId: "5f00000000000000000000aa" };

describe("an access-list entry's canonical spelling", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1", "address"],
    ["10.0.0.1/32", "10.0.0.1", "address"],
    ["::1", "::1", "address"],
    ["::1/128", "::1", "address"],
    ["0:0:0:0:0:0:0:1", "::1", "address"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1", "address"],
    ["10.0.0.0/24", "10.0.0.0/24", "block"],
    ["10.0.0.0/08", "10.0.0.0/8", "block"],
    ["2001:0db8::/32", "2001:db8::/32", "block"],
    ["0.0.0.0/0", "0.0.0.0/0", "block"],
  ])("%s is %s", (text, entry, kind) => {
    expect(canonicalEntry(text)).toEqual({ entry, kind });
  });

  it.each([
    ["10.0.0.5/24", "10.0.0.0/24"],
    ["192.168.1.77/16", "192.168.0.0/16"],
    ["2001:db8::1/32", "2001:db8::/32"],
  ])("%s is refused, %s suggested", (text, suggestion) => {
    expect(canonicalEntry(text)).toEqual({
      rule: expect.stringMatching(/bits set past its prefix/),
      suggestion,
    });
  });

  it.each([
    "",
    "10.1",
    "0x7f.0.0.1",
    "010.0.0.1",
    "10.0.0.256",
    "10.0.0.0/",
    "10.0.0.0/-1",
    "::1/129",
    "a/b",
    " 10.0.0.1",
  ])("%j is not an entry", (text) => {
    expect(canonicalEntry(text)).not.toHaveProperty("entry");
  });
});

describe("check of accessList", () => {
  it("returns the set canonical and sorted: order, /32 and IPv6 spelling are no change", () => {
    const { inputs, failures } = checkKeyInputs({
      ...KEY,
      accessList: ["2001:DB8::/32", "10.0.0.1/32", "10.0.0.0/24", "0:0::1"],
    });
    expect(failures).toEqual([]);
    expect(inputs.accessList).toEqual(["10.0.0.0/24", "10.0.0.1", "2001:db8::/32", "::1"]);
  });

  it("a list holding a value not known yet (preview) passes as it is", () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const { inputs, failures } = checkKeyInputs({ ...KEY, accessList: ["10.0.0.1/32", unknown] });
    expect(failures).toEqual([]);
    expect(inputs.accessList).toEqual(["10.0.0.1/32", unknown]);
  });

  it("an empty list is a list to manage, kept empty", () => {
    const { inputs, failures } = checkKeyInputs({ ...KEY, accessList: [] });
    expect(failures).toEqual([]);
    expect(inputs.accessList).toEqual([]);
  });

  it("reports every bad item in one failure, and leaves the list as given", () => {
    const given = ["10.0.0.5/24", "10.0.0.1", "::1", "x", "::1/128", "10.0.0.1/32"];
    const { inputs, failures } = checkKeyInputs({ ...KEY, accessList: given });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.property).toBe("accessList");
    const reason = failures[0]!.reason;
    for (const named of [
      'accessList[0] "10.0.0.5/24"',
      'write "10.0.0.0/24"',
      'accessList[3] "x"',
      'accessList[4] "::1/128" is the same entry as accessList[2] "::1"',
      'accessList[5] "10.0.0.1/32" is the same entry as accessList[1] "10.0.0.1"',
    ]) {
      expect(reason).toContain(named);
    }
    expect(inputs.accessList).toEqual(given);
  });
});

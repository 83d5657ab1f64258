/**
 * The mark a key's create carries as the key's desc: only that POST can have made a key with it, so a
 * create whose answer was lost finds its key by the desc alone, and no other key is ever taken for it.
 */
import { describe, expect, it } from "vitest";
import { DESC_MAX } from "../../provider/api/api-key-lifecycle";
import type { ApiKey } from "../../provider/api/types";
import {
  isMarked,
  keysAlike,
  markedDesc,
  markedKeys,
} from "../../provider/resources/org-api-key/create-mark";
import { pendingId } from "../../provider/resources/org-api-key/pending-create";

const ORG = "5f0000000000000000000001";
const key = (id: string, desc: string): ApiKey => ({
  id,
  publicKey: `pk${id.slice(-6)}`,
  desc,
  roles: [{ orgId: ORG, roleName: "ORG_MEMBER" }],
});

describe("markedDesc", () => {
  it("is the declared desc and a token of 16 hex digits drawn for each attempt", () => {
    const one = markedDesc("CI stacks");
    const two = markedDesc("CI stacks");
    expect(one).toMatch(/^CI stacks \[pulumi create [0-9a-f]{16}\]$/);
    expect(two).not.toBe(one);
    expect(isMarked(one)).toBe(true);
    expect(isMarked("CI stacks")).toBe(false);
  });

  it("never cuts inside a character: a surrogate pair at the cut goes whole or not at all", () => {
    const token = " [pulumi create 0123456789abcdef]";
    const room = DESC_MAX - token.length;
    const marked = markedDesc(`${"d".repeat(room - 1)}😀`, "0123456789abcdef");
    expect(marked).toBe(`${"d".repeat(room - 1)}${token}`);
    expect(marked).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("cuts a long declared desc so that the whole stays within the create's limit, the token whole", () => {
    const marked = markedDesc("d".repeat(DESC_MAX), "0123456789abcdef");
    expect(marked).toHaveLength(DESC_MAX);
    expect(marked.endsWith(" [pulumi create 0123456789abcdef]")).toBe(true);
  });
});

describe("markedKeys and keysAlike", () => {
  const marked = markedDesc("CI stacks", "0123456789abcdef");
  const ours = key("6b0000000000000000000001", marked);
  const prods = key("6b0000000000000000000002", "CI stacks");
  const anotherAttempt = key("6b0000000000000000000003", markedDesc("CI stacks", "fedcba9876543210"));
  const unrelated = key("6b0000000000000000000004", "deployer");
  const listed = [prods, ours, anotherAttempt, unrelated];

  it("finds only the key whose desc is exactly the attempt's", () => {
    expect(markedKeys(listed, marked)).toEqual([ours]);
    expect(markedKeys([prods, anotherAttempt, unrelated], marked)).toEqual([]);
  });

  it("finds the key by its token even when the server stored the declared part otherwise (trimmed, a character replaced)", () => {
    const stored = key(
      "6b0000000000000000000005",
      "CI stacks [pulumi create 0123456789abcdef]".replace("CI", "C\uFFFD"),
    );
    expect(markedKeys([prods, stored], marked)).toEqual([stored]);
    expect(keysAlike([prods, stored], marked)).toEqual([prods]);
  });

  it("names as alike the declared desc and other attempts' marks on it, never the attempt's own key", () => {
    expect(keysAlike(listed, marked)).toEqual([prods, anotherAttempt]);
  });
});

describe("pendingId", () => {
  it("names the attempt, and can never be a key's id (24 hex digits)", () => {
    const id = pendingId(markedDesc("CI", "0123456789abcdef"));
    expect(id).toBe("pending-create-0123456789abcdef");
    expect(id).not.toMatch(/^[0-9a-f]{24}$/);
  });
});

/**
 * Which listed keys a create whose answer was lost may have made: the desc and roles it sent, not
 * listed before, and an ObjectId made in the window between the POST and the failure, in the server's
 * clock as its Date header gives it.
 */
import { describe, expect, it } from "vitest";
import type { ApiKey } from "../../provider/api/types";
import {
  CLOCK_SLACK_MS,
  candidatesOf,
  objectIdTime,
  serverClock,
} from "../../provider/resources/org-api-key/uncertain-key";

const ORG = "5f0000000000000000000001";
const idAt = (ms: number, tail = "0000000000000001") =>
  `${Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, "0")}${tail}`;
const key = (id: string, desc = "deployer", roles = ["ORG_MEMBER"]): ApiKey => ({
  id,
  publicKey: `pk${id.slice(-6)}`,
  desc,
  roles: roles.map((roleName) => ({ orgId: ORG, roleName })),
});

const SENT = Date.parse("2026-11-25T11:00:00.200Z");
const FAILED = SENT + 1_500;
const attempt = { orgId: ORG, desc: "deployer", roles: ["ORG_MEMBER"], sentAt: SENT };

describe("serverClock", () => {
  it("reads the Date header's whole second as a range of offsets from the local arrival time", () => {
    const arrived = Date.parse("2026-11-25T12:00:05.400Z");
    expect(serverClock("Wed, 25 Nov 2026 13:00:05 GMT", arrived)).toEqual({
      low: 3_600_000 - 400,
      high: 3_600_000 + 600,
    });
    expect(serverClock(["Wed, 25 Nov 2026 12:00:05 GMT"], arrived)).toEqual({ low: -400, high: 600 });
  });

  it("is undefined without a usable header", () => {
    expect(serverClock(undefined, Date.now())).toBeUndefined();
    expect(serverClock("soon", Date.now())).toBeUndefined();
  });
});

describe("candidatesOf", () => {
  const inSync = { low: 0, high: 0 };

  it("takes the key made in the window, not one alike made before, nor another desc or role set", () => {
    const made = key(idAt(SENT + 700));
    const listed = [
      key(idAt(SENT - 60_000)),
      made,
      key(idAt(SENT + 700, "0000000000000002"), "other"),
      key(idAt(SENT + 700, "0000000000000003"), "deployer", ["ORG_MEMBER", "ORG_OWNER"]),
    ];
    expect(candidatesOf(listed, attempt, FAILED, new Set(), inSync).keys).toEqual([made]);
  });

  it("leaves out a key the deployment listed before the POST, though it is alike and in the window", () => {
    const seen = key(idAt(SENT));
    expect(candidatesOf([seen], attempt, FAILED, new Set([seen.id]), inSync).keys).toEqual([]);
  });

  it("compares in the server's clock: an hour ahead, its key is found, and a key made at this machine's time is not", () => {
    const ahead = { low: 3_600_000 - 500, high: 3_600_000 + 500 };
    const made = key(idAt(SENT + 3_600_000 + 700));
    const local = key(idAt(SENT + 700, "0000000000000009"));
    expect(candidatesOf([made, local], attempt, FAILED, new Set(), ahead).keys).toEqual([made]);
    expect(candidatesOf([made, local], attempt, FAILED, new Set(), inSync).keys).toEqual([local]);
  });

  it(`allows ${CLOCK_SLACK_MS} ms either side, and no more`, () => {
    const early = key(idAt(SENT - CLOCK_SLACK_MS));
    const tooEarly = key(idAt(SENT - CLOCK_SLACK_MS - 2_000, "0000000000000002"));
    const late = key(idAt(FAILED + CLOCK_SLACK_MS, "0000000000000003"));
    const tooLate = key(idAt(FAILED + CLOCK_SLACK_MS + 1_000, "0000000000000004"));
    const found = candidatesOf([early, tooEarly, late, tooLate], attempt, FAILED, new Set(), inSync);
    expect(found.keys).toEqual([early, late]);
    expect(found.window).toEqual({ from: SENT - CLOCK_SLACK_MS, to: FAILED + CLOCK_SLACK_MS });
    // Outside the window, still alike: named when nothing is in it, never passed over in silence.
    expect(found.outside).toEqual([tooEarly, tooLate]);
  });

  it("without a clock, names every alike key not seen before, and says there is no window", () => {
    const a = key(idAt(SENT - 60_000));
    const b = key("not-an-object-id");
    const found = candidatesOf([a, b], attempt, FAILED, new Set(), undefined);
    expect(found).toEqual({ keys: [a, b], outside: [] });
  });

  it("reads an ObjectId's seconds, and nothing from an id that is not one", () => {
    expect(objectIdTime("5f0000000000000000000001")).toBe(0x5f000000 * 1000);
    expect(objectIdTime("xyz")).toBeUndefined();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineListing } from "../../provider/api/define-listing";
import type { Transport } from "../../provider/api/transport";
import { ResponseShapeError } from "../../provider/client/errors";
import type { JsonResponse } from "../../provider/client/types";
import { jobMemoryOf } from "../../provider/resources/log-collection-job/job-memory";
import {
  byId,
  findListed,
  LISTING_TTL_MS,
  listingMemoryOf,
  sharedListing,
} from "../../provider/resources/shared/listing-cache";
import { resetServerMemoryForTests } from "../../provider/resources/shared/server-memory";

/**
 * A server of one listing, in memory: its records can change between two pages, each GET is counted,
 * and a GET can be held until the test lets it go, or made to fail.
 */
function fakeServer(initial: Array<{ id: string; name?: unknown }>) {
  const server = {
    records: [...initial],
    gets: 0,
    fail: 0,
    hold: undefined as Promise<void> | undefined,
    transport: { request: () => Promise.reject(new Error("not used")) } as Transport,
  };
  const listing = defineListing({
    path: "/things",
    noun: { item: "thing", items: "things", listing: "the things" },
    schema: z.object({ id: z.string(), name: z.string() }),
    get: async (_transport, query): Promise<JsonResponse> => {
      server.gets += 1;
      const snapshot = [...server.records];
      if (server.hold !== undefined) await server.hold;
      if (server.fail > 0) {
        server.fail -= 1;
        throw new Error("the server is down");
      }
      const from = (query.pageNum - 1) * query.itemsPerPage;
      return {
        status: 200,
        headers: {},
        url: `https://om.example/things?pageNum=${query.pageNum}`,
        body: { results: snapshot.slice(from, from + query.itemsPerPage), totalCount: snapshot.length },
      };
    },
  });
  return { server, listing };
}

type Thing = { id: string; name: string };
const find = (s: ReturnType<typeof fakeServer>, id: string, transport = s.server.transport) =>
  findListed(transport, s.listing, id, byId<Thing>);

beforeEach(() => resetServerMemoryForTests());
afterEach(() => vi.restoreAllMocks());

describe("the shared listing cache", () => {
  it("answers every lookup of one server and path from one listing", async () => {
    const s = fakeServer([
      { id: "a", name: "A" },
      { id: "b", name: "B" },
    ]);
    const [a, b] = await Promise.all([find(s, "a"), find(s, "b")]);
    expect([a, b]).toEqual([
      { id: "a", name: "A" },
      { id: "b", name: "B" },
    ]);
    expect(await find(s, "a")).toEqual({ id: "a", name: "A" });
    expect(s.server.gets).toBe(1);
  });

  it("takes a record to be gone only when a second listing, started after the call, lacks it too", async () => {
    const s = fakeServer([{ id: "a", name: "A" }]);
    const [x, y] = await Promise.all([find(s, "x"), find(s, "y")]);
    expect([x, y]).toEqual([undefined, undefined]);
    // One listing, then one more shared by both lookups that missed.
    expect(s.server.gets).toBe(2);
  });

  it("finds a record made after the listing it first looked in started", async () => {
    const s = fakeServer([{ id: "a", name: "A" }]);
    let release = () => {};
    s.server.hold = new Promise((resolve) => {
      release = resolve;
    });
    const first = find(s, "a");
    // Made while the first listing's page is on the wire, then looked for: the first listing's page
    // was taken before it, so only a listing that started after this call can show it.
    s.server.records.push({ id: "new", name: "New" });
    const late = find(s, "new");
    s.server.hold = undefined;
    release();
    expect(await first).toEqual({ id: "a", name: "A" });
    expect(await late).toEqual({ id: "new", name: "New" });
    expect(s.server.gets).toBe(2);
  });

  it("forgets a failed listing, so that the next lookup lists again", async () => {
    const s = fakeServer([{ id: "a", name: "A" }]);
    s.server.fail = 1;
    await expect(find(s, "a")).rejects.toThrow("the server is down");
    expect(listingMemoryOf(s.server.transport).listings.size).toBe(0);
    expect(await find(s, "a")).toEqual({ id: "a", name: "A" });
    expect(s.server.gets).toBe(2);
  });

  it("serves for LISTING_TTL_MS, then lists again", async () => {
    const s = fakeServer([{ id: "a", name: "A" }]);
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now);
    await find(s, "a");
    clock.mockReturnValue(now + LISTING_TTL_MS - 1);
    await find(s, "a");
    expect(s.server.gets).toBe(1);
    clock.mockReturnValue(now + LISTING_TTL_MS);
    await find(s, "a");
    expect(s.server.gets).toBe(2);
  });

  it("keeps each server's listings apart", async () => {
    const s = fakeServer([{ id: "a", name: "A" }]);
    const other = { request: s.server.transport.request } as Transport;
    await find(s, "a");
    await find(s, "a", other);
    expect(s.server.gets).toBe(2);
  });

  it("fails only the lookup of a record the server described wrongly", async () => {
    const s = fakeServer([
      { id: "a", name: "A" },
      { id: "b", name: 7 },
    ]);
    const [a, b] = await Promise.allSettled([find(s, "a"), find(s, "b")]);
    expect(a).toEqual({ status: "fulfilled", value: { id: "a", name: "A" } });
    expect(b.status).toBe("rejected");
    const error = (b as PromiseRejectedResult).reason as Error;
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toMatch(/results\[1\]\.name/);
  });

  it("with `after`, serves only from a listing that started after that tick", async () => {
    const s = fakeServer([{ id: "a", name: "A" }]);
    const first = sharedListing(s.server.transport, s.listing, byId<Thing>);
    expect(sharedListing(s.server.transport, s.listing, byId<Thing>)).toBe(first);
    expect(sharedListing(s.server.transport, s.listing, byId<Thing>, first.startSeq - 1)).toBe(first);
    const later = sharedListing(s.server.transport, s.listing, byId<Thing>, first.startSeq);
    expect(later).not.toBe(first);
    await Promise.all([first.done, later.done]);
    expect(s.server.gets).toBe(2);
  });

  it("forgets everything learned of every server on reset: listings, missing operations, warnings", async () => {
    const s = fakeServer([{ id: "a", name: "A" }]);
    await find(s, "a");
    const memory = jobMemoryOf(s.server.transport);
    memory.missing.set("listLogCollectionJobs", new Error("405") as never);
    memory.warned.add("untrackedJobs");
    resetServerMemoryForTests();
    const fresh = jobMemoryOf(s.server.transport);
    expect(fresh).not.toBe(memory);
    expect(fresh.missing.size).toBe(0);
    expect(fresh.warned.size).toBe(0);
    await find(s, "a");
    expect(s.server.gets).toBe(2);
  });
});

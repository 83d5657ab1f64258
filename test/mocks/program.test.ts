import { createRequire } from "node:module";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

// The built package and the SDK through Node's own require, so that the program, the resources and
// the mocks share one @pulumi/pulumi instance, as in a real program.
const req = createRequire(__filename);
const pulumi = req("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const om = req("../../dist/provider/index.js") as typeof import("../../provider");

const SECRET = "4a1ce-0f-the-0rchard-SECRET-9d2e";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}
const registered: Registered[] = [];

beforeAll(() => {
  process.env.OPSMANAGER_PRIVATE_KEY = SECRET;
  pulumi.runtime.setAllConfig(
    {
      "opsmanager:baseUrl": "http://127.0.0.1:9",
      "opsmanager:publicKey": "pub",
      "opsmanager:privateKey": SECRET,
    },
    ["opsmanager:privateKey"],
  );
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return {
          id: `${args.name}-id`,
          state: { ...args.inputs, jobId: `${args.name}-id`, apiKeyId: args.inputs.apiKeyId ?? "k" },
        };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    false,
  );
});
afterAll(() => {
  delete process.env.OPSMANAGER_PRIVATE_KEY;
});

function outputOf<T>(o: import("@pulumi/pulumi").Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

describe("getOrgApiKeys in a program", () => {
  /** The org's size: the admin key and 1,199 others, three pages of 500. */
  const ORG_SIZE = 1_200;
  let sim: import("../../simulator/types").Simulator;
  const orgKeys = () => sim.state.apiKeys(sim.orgId);
  /** Each listing page the server answered, as `pageNum/itemsPerPage`, in the order they came. */
  const pagesAsked = () =>
    sim.requests.filter((r) => r.status === 200).map((r) => `${r.query.pageNum}/${r.query.itemsPerPage}`);
  const threePages = ["1/500", "2/500", "3/500"];
  /** The pages of `reads` reads, one after the other: each read's page 1 first, its others in any order. */
  const expectReads = (reads: number) => {
    const asked = pagesAsked();
    expect(asked).toHaveLength(3 * reads);
    for (let read = 0; read < reads; read++) {
      const pages = asked.slice(3 * read, 3 * read + 3);
      expect(pages[0]).toBe("1/500");
      expect(pages.sort()).toEqual(threePages);
    }
  };

  beforeAll(async () => {
    const { startSimulator } = await import("../../simulator");
    sim = await startSimulator({ seed: { keys: ORG_SIZE - 1, privateKey: SECRET } });
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(() => {
    pulumi.runtime.setAllConfig(
      {
        "opsmanager:baseUrl": sim.url,
        "opsmanager:publicKey": sim.publicKey,
        "opsmanager:privateKey": SECRET,
      },
      ["opsmanager:privateKey"],
    );
    sim.faults.clear();
    // Every test starts from an org of exactly ORG_SIZE keys, whatever the one before removed or added.
    const keys = orgKeys();
    for (const extra of keys.slice(ORG_SIZE)) sim.state.removeApiKey(extra.id);
    if (keys.length < ORG_SIZE) sim.state.addApiKeys(ORG_SIZE - keys.length);
    sim.resetRequests();
  });

  it("lists every key of the org through all pages, with the program's stack config, reading the org twice", async () => {
    const keys = await om.getOrgApiKeys({ orgId: sim.orgId });
    expect(keys.map((k) => k.id)).toEqual(orgKeys().map((k) => k.id));
    expect(keys).toHaveLength(ORG_SIZE);
    expect(keys.every((k) => (k.privateKey ?? "").startsWith("********"))).toBe(true);
    expect(JSON.stringify(keys)).not.toContain(SECRET);
    // Two reads with the same keys: the listing is taken.
    expectReads(2);
  });

  it("lists every key once when a key of page 1 is deleted while the other pages are read", async () => {
    const victim = orgKeys()[10]!;
    sim.faults.add({ method: "GET", whenAnswered: () => sim.state.removeApiKey(victim.id) });
    const keys = await om.getOrgApiKeys({ orgId: sim.orgId });
    // Without the re-read, the key that slid from page 2 onto page 1 would be on no page.
    expect(keys.map((k) => k.id)).toEqual(orgKeys().map((k) => k.id));
    expect(keys).toHaveLength(ORG_SIZE - 1);
    // The read whose pages disagreed, then two that agree and list the same keys.
    expectReads(3);
  });

  it("lists every live key exactly once when a key of page 1 is rotated (one deleted, one added) while the other pages are read", async () => {
    const keys = orgKeys();
    const [victim, slid] = [keys[10]!, keys[500]!];
    sim.faults.add({
      method: "GET",
      pathPrefix: `/orgs/${sim.orgId}/apiKeys`,
      whenAnswered: () => {
        sim.state.removeApiKey(victim.id);
        sim.state.addApiKey({ desc: "rotated in" });
      },
    });
    const listed = await om.getOrgApiKeys({ orgId: sim.orgId });
    const ids = listed.map((k) => k.id);
    // The count did not change, so the first read's pages agreed: without the key that slid from
    // page 2 onto page 1, which was already read, and with the deleted one.
    expect(ids).toEqual(orgKeys().map((k) => k.id));
    expect(ids).toHaveLength(ORG_SIZE);
    expect(new Set(ids).size).toBe(ORG_SIZE);
    expect(ids).toContain(slid.id);
    expect(ids).not.toContain(victim.id);
    expect(listed.some((k) => k.desc === "rotated in")).toBe(true);
    // The first read, a second that listed other keys, and a third that listed the second's.
    expectReads(3);
  });

  it("fails with an InconsistentListingError when no two reads in a row list the same keys", async () => {
    // A key of page 1 rotated after every page 1 the server answers: each read's pages agree, and each
    // lists other keys than the read before it.
    sim.faults.add({
      method: "GET",
      pathPrefix: `/orgs/${sim.orgId}/apiKeys`,
      times: 1_000,
      whenAnswered: (request) => {
        if (request.query.pageNum !== "1") return;
        sim.state.removeApiKey(orgKeys()[10]!.id);
        sim.state.addApiKey({ desc: "rotated in" });
      },
    });
    const err = await om.getOrgApiKeys({ orgId: sim.orgId }).catch((e) => e);
    expect(err).toBeInstanceOf(om.InconsistentListingError);
    expect(err.message).toMatch(
      new RegExp(
        `^GET /orgs/${sim.orgId}/apiKeys: the organization's key listing kept changing while it was read \\(read 3 times, without two reads in a row whose pages agreed and listed the same keys; last: two reads in a row whose pages agreed listed different keys \\(key [0-9a-f]{24} was in the (first|second) only\\)\\)\\.`,
      ),
    );
    expect(err.message).toMatch(/Run the command again once those changes have stopped/);
    expectReads(3);
  });
});

describe("programs under setMocks", () => {
  it("register both resources with their type tokens and inputs", async () => {
    const key = new om.OrgApiKey("ci", {
      orgId: "5f0000000000000000000001",
      publicKey: "abcdefgh",
      desc: "CI",
      roles: ["ORG_READ_ONLY", "ORG_MEMBER"],
    });
    const job = new om.LogCollectionJob("logs", {
      groupId: "5f0000000000000000000002",
      resourceType: "REPLICASET",
      resourceName: "rs0",
      sizeRequestedPerFileBytes: 1_000_000,
      logTypes: ["DATABASE"],
      redacted: true,
    });
    expect(await outputOf(key.desc)).toBe("CI");
    expect(await outputOf(job.jobId)).toBe("logs-id");
    const byName = Object.fromEntries(registered.map((r) => [r.name, r]));
    expect(byName.ci!.type).toBe("pulumi-nodejs:dynamic/opsmanager:OrgApiKey");
    expect(byName.logs!.type).toBe("pulumi-nodejs:dynamic/opsmanager:LogCollectionJob");
    expect(byName.ci!.inputs).toMatchObject({
      orgId: "5f0000000000000000000001",
      publicKey: "abcdefgh",
      desc: "CI",
      roles: ["ORG_READ_ONLY", "ORG_MEMBER"],
    });
    expect(byName.logs!.inputs).toMatchObject({
      resourceType: "REPLICASET",
      sizeRequestedPerFileBytes: 1_000_000,
      logTypes: ["DATABASE"],
      redacted: true,
    });
  });

  it("registers OrgApiKey with privateKey as an additional secret output, the program's own kept", async () => {
    // The options of a registration are in the request the program sends to the monitor.
    const settings = req("@pulumi/pulumi/runtime/settings") as {
      getMonitor(): { registerResource: (...args: unknown[]) => unknown };
    };
    const monitor = settings.getMonitor();
    const secretOutputs = new Map<string, string[]>();
    const register = monitor.registerResource.bind(monitor);
    monitor.registerResource = (request: unknown, ...rest: unknown[]) => {
      const r = request as { getName(): string; getAdditionalsecretoutputsList(): string[] };
      secretOutputs.set(r.getName(), r.getAdditionalsecretoutputsList());
      return register(request, ...rest);
    };
    try {
      const made = new om.OrgApiKey("made", {
        orgId: "5f0000000000000000000001",
        desc: "CI",
        roles: ["ORG_MEMBER"],
      });
      const own = new om.OrgApiKey(
        "own",
        { orgId: "5f0000000000000000000001", apiKeyId: "5f00000000000000000000aa" },
        { additionalSecretOutputs: ["desc"] },
      );
      await Promise.all([outputOf(made.urn), outputOf(own.urn)]);
    } finally {
      monitor.registerResource = register;
    }
    expect(secretOutputs.get("made")).toEqual(["privateKey"]);
    expect(secretOutputs.get("own")).toEqual(["desc", "privateKey"]);
    expect(registered.find((r) => r.name === "made")!.inputs).toMatchObject({
      desc: "CI",
      roles: ["ORG_MEMBER"],
    });
  });

  it("registers a resource with restoreOnDelete to be deleted before it is replaced, the program's own choice kept", async () => {
    // `pulumi up --replace` is decided without the provider: deleting first lets the old resource's
    // restore put the original back before the replacement records what it finds (issue 26).
    const settings = req("@pulumi/pulumi/runtime/settings") as {
      getMonitor(): { registerResource: (...args: unknown[]) => unknown };
    };
    const monitor = settings.getMonitor();
    const order = new Map<string, boolean>();
    const register = monitor.registerResource.bind(monitor);
    monitor.registerResource = (request: unknown, ...rest: unknown[]) => {
      const r = request as { getName(): string; getDeletebeforereplace(): boolean };
      order.set(r.getName(), r.getDeletebeforereplace());
      return register(request, ...rest);
    };
    const orgId = "5f0000000000000000000001";
    const apiKeyId = "5f00000000000000000000aa";
    const groupId = "5f0000000000000000000002";
    try {
      const made = [
        new om.OrgApiKey("restoring", { orgId, apiKeyId, desc: "d", restoreOnDelete: true }),
        new om.OrgApiKey("plain", { orgId, apiKeyId, desc: "d" }),
        new om.OrgApiKey(
          "own-order",
          { orgId, apiKeyId, desc: "d", restoreOnDelete: true },
          { deleteBeforeReplace: false },
        ),
        new om.ApiKeyProjectAssignment("restoring-assignment", {
          apiKeyId,
          groupId,
          roles: ["GROUP_OWNER"],
          restoreOnDelete: true,
        }),
        new om.ApiKeyProjectAssignment("plain-assignment", { apiKeyId, groupId, roles: ["GROUP_OWNER"] }),
      ];
      await Promise.all(made.map((r) => outputOf(r.urn)));
    } finally {
      monitor.registerResource = register;
    }
    expect(Object.fromEntries(order)).toEqual({
      restoring: true,
      plain: false,
      "own-order": false,
      "restoring-assignment": true,
      "plain-assignment": false,
    });
  });

  it("the serialized provider requires the package by name and holds no credential", async () => {
    const texts = registered.map((r) => r.inputs.__provider as string);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const text of texts) {
      expect(typeof text).toBe("string");
      expect(text).toContain('require("pulumi-opsmanager/host")');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("/work/");
      expect(text).not.toMatch(/zod|undici/);
      // Small: the provider's code lives in the package, not in state. Every resource stores it twice
      // (inputs and outputs), and a file backend rewrites the whole state before and after each step:
      // the SDK's closure serializer wrote 3.3 KB for these seven one-line methods.
      expect(text.length).toBeLessThan(1_300);
    }
  });
});

describe("getOrgApiKeys on a named server", () => {
  const OTHER_SECRET = "4a1ce-0f-the-0rchard-SECRET-dc2x";
  let main: import("../../simulator/types").Simulator;
  let dc2: import("../../simulator/types").Simulator;

  beforeAll(async () => {
    const { startSimulator } = await import("../../simulator");
    main = await startSimulator({ seed: { keys: 3, privateKey: SECRET } });
    dc2 = await startSimulator({
      seed: {
        keys: 7,
        orgId: "5f00000000000000000000c2",
        publicKey: "admintwo",
        privateKey: OTHER_SECRET,
        randomSeed: 2,
      },
    });
    // As the language host hands a program structured config: the object's JSON text, a secret key.
    pulumi.runtime.setAllConfig(
      {
        "opsmanager:baseUrl": main.url,
        "opsmanager:publicKey": main.publicKey,
        "opsmanager:privateKey": SECRET,
        "opsmanager:servers": JSON.stringify({
          dc2: { baseUrl: dc2.url, publicKey: dc2.publicKey, privateKey: OTHER_SECRET },
        }),
      },
      ["opsmanager:privateKey", "opsmanager:servers"],
    );
  });
  afterAll(async () => {
    await Promise.all([main?.close(), dc2?.close()]);
  });

  it("lists that server's org with that server's credentials, and asks the default server nothing", async () => {
    main.resetRequests();
    const keys = await om.getOrgApiKeys({ orgId: dc2.orgId, server: "dc2" });
    expect(keys.map((k) => k.id)).toEqual(dc2.state.apiKeys(dc2.orgId).map((k) => k.id));
    expect(keys).toHaveLength(8);
    expect(main.requests).toEqual([]);
    expect(dc2.requests.filter((r) => r.authenticated).every((r) => r.path.includes(dc2.orgId))).toBe(true);
    expect(JSON.stringify(keys)).not.toContain(OTHER_SECRET);
    // The default server is still the top-level settings'.
    expect((await om.getOrgApiKeys({ orgId: main.orgId })).map((k) => k.id)).toEqual(
      main.state.apiKeys(main.orgId).map((k) => k.id),
    );
  });

  it("fails before any request for a server that is not configured, naming the ones that are", async () => {
    main.resetRequests();
    dc2.resetRequests();
    const error = await om.getOrgApiKeys({ orgId: dc2.orgId, server: "dc3" }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /names the server "dc3", which is not configured; opsmanager:servers has dc2/,
    );
    expect([...main.requests, ...dc2.requests]).toEqual([]);
  });
});

describe("a resource looked up on a named server", () => {
  it("OrgApiKey.get and ApiKeyProjectAssignment.get read it there: the server is among what they register", async () => {
    const key = om.OrgApiKey.get("looked-up-key", "5f0000000000000000000009", {
      orgId: "5f0000000000000000000001",
      server: "dc2",
    });
    const assignment = om.ApiKeyProjectAssignment.get(
      "looked-up-assignment",
      "5f0000000000000000000002/5f0000000000000000000009",
      undefined,
      { server: "dc2" },
    );
    await Promise.all([outputOf(key.urn), outputOf(assignment.urn)]);
    const read = (name: string) => registered.find((r) => r.name === name);
    expect(read("looked-up-key")?.inputs).toMatchObject({ orgId: "5f0000000000000000000001", server: "dc2" });
    expect(read("looked-up-assignment")?.inputs).toMatchObject({ server: "dc2" });
    // The read of a looked-up resource runs the provider text it carries, the package's own.
    const texts = req("../../dist/provider/resources/shared/providers.js") as Record<string, string>;
    expect(read("looked-up-key")?.inputs.__provider).toBe(texts.ORG_API_KEY_PROVIDER);
    expect(read("looked-up-assignment")?.inputs.__provider).toBe(texts.API_KEY_PROJECT_ASSIGNMENT_PROVIDER);
  });
});

import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";

// The built package and the SDK through Node's own require, so that the program, the resources and
// the mocks share one @pulumi/pulumi instance, as in a real program.
const req = createRequire(__filename);
const pulumi = req("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
const om = req("../../dist/provider/index.js") as typeof import("../../provider");

const registered = new Map<string, Record<string, unknown>>();

function mock(preview: boolean) {
  registered.clear();
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.set(args.name, args.inputs);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    preview,
  );
}

const ORG = "5f0000000000000000000001";
const GROUP = "5f0000000000000000000002";

/** The registrations of a program, once the SDK has sent one for each of `names`. */
async function registrationsOf(
  names: string[],
  program: () => void,
): Promise<Map<string, Record<string, unknown>>> {
  program();
  // A dependent registers once the key's outputs resolve: wait for each, however busy the machine.
  for (let waited = 0; !names.every((n) => registered.has(n)) && waited < 10_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return registered;
}

describe("the program's half of a dynamic preview's key links", () => {
  beforeAll(() => mock(true));

  it("in a preview, a key's token is the dependent's __apiKeyIdFrom when it takes the key's apiKeyId or id", async () => {
    const inputs = await registrationsOf(["k", "by-apiKeyId", "by-id", "derived", "plain"], () => {
      const key = new om.OrgApiKey("k", { orgId: ORG, desc: "CI", roles: ["ORG_MEMBER"] });
      new om.ApiKeyProjectAssignment("by-apiKeyId", {
        apiKeyId: key.apiKeyId,
        groupId: GROUP,
        roles: ["GROUP_OWNER"],
      });
      new om.ApiKeyProjectAssignment("by-id", { apiKeyId: key.id, groupId: GROUP, roles: ["GROUP_OWNER"] });
      new om.ApiKeyProjectAssignment("derived", {
        apiKeyId: key.apiKeyId.apply((id) => id),
        groupId: GROUP,
        roles: ["GROUP_OWNER"],
      });
      new om.ApiKeyProjectAssignment("plain", {
        apiKeyId: "6b0f3b03acf4a571a6c4ff63",
        groupId: GROUP,
        roles: ["GROUP_OWNER"],
      });
    });
    const token = inputs.get("k")?.__previewToken;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(inputs.get("by-apiKeyId")?.__apiKeyIdFrom).toBe(token);
    expect(inputs.get("by-id")?.__apiKeyIdFrom).toBe(token);
    // A value computed from the key's id could be anything: no link.
    expect(inputs.get("derived")?.__apiKeyIdFrom).toBe("none");
    expect(inputs.get("plain")?.__apiKeyIdFrom).toBe("none");
  });

  it("a key the engine may replace whatever its diff says draws no token: deleteBeforeReplace, as restoreOnDelete sets it", async () => {
    const inputs = await registrationsOf(["a", "b", "on-a", "on-b"], () => {
      const a = new om.OrgApiKey(
        "a",
        { orgId: ORG, desc: "CI", roles: ["ORG_MEMBER"] },
        { deleteBeforeReplace: true },
      );
      const b = new om.OrgApiKey("b", { orgId: ORG, publicKey: "abcdefgh", restoreOnDelete: true });
      new om.ApiKeyProjectAssignment("on-a", {
        apiKeyId: a.apiKeyId,
        groupId: GROUP,
        roles: ["GROUP_OWNER"],
      });
      new om.ApiKeyProjectAssignment("on-b", {
        apiKeyId: b.apiKeyId,
        groupId: GROUP,
        roles: ["GROUP_OWNER"],
      });
    });
    expect(inputs.get("a")).not.toHaveProperty("__previewToken");
    expect(inputs.get("b")).not.toHaveProperty("__previewToken");
    expect(inputs.get("on-a")?.__apiKeyIdFrom).toBe("none");
    expect(inputs.get("on-b")?.__apiKeyIdFrom).toBe("none");
  });

  it("outside a preview nothing is sent: no state ever holds a link", async () => {
    mock(false);
    const inputs = await registrationsOf(["k", "a"], () => {
      const key = new om.OrgApiKey("k", { orgId: ORG, desc: "CI", roles: ["ORG_MEMBER"] });
      new om.ApiKeyProjectAssignment("a", { apiKeyId: key.apiKeyId, groupId: GROUP, roles: ["GROUP_OWNER"] });
    });
    expect(inputs.get("k")).not.toHaveProperty("__previewToken");
    expect(inputs.get("a")).not.toHaveProperty("__apiKeyIdFrom");
  });
});

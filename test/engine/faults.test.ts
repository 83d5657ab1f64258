/**
 * A create that fails midway, under the real engine: `pulumi up` fails with the provider's message,
 * the stack keeps what was made, and the next `pulumi up` finishes it without a duplicate.
 */
import { expect, it } from "vitest";
import { describeEngine } from "./support/cli";
import { openWorld } from "./support/world";

const DESC = "CI pipeline (created by Pulumi)";

describeEngine("test/engine/faults: a create that fails midway, under the real pulumi", (bin) => {
  it("the key made, its project assignment refused: up fails saying so, the stack keeps the key, the next up assigns it", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: { example: "ci-key" } });
    sim.faults.add({
      method: "PATCH",
      pathPrefix: `/groups/${sim.groupId}/apiKeys/`,
      status: 500,
      errorCode: "UNEXPECTED_ERROR",
    });

    const failed = await stack.pulumi(["up", "--yes"], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    const keys = sim.state.apiKeys().filter((k) => k.desc === DESC);
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    // The provider's own message, with the request and the server's answer, reaches the user.
    expect(failed.stdout).toContain(
      `PATCH /groups/${sim.groupId}/apiKeys/${key.id} failed: 500 UNEXPECTED_ERROR`,
    );
    expect(failed.stdout).toMatch(/ApiKeyProjectAssignment ci-in-project \*\*creating failed\*\*/);
    expect(failed.stdout).not.toContain(key.privateKey);
    // The key is in the stack with its private key and access list; the assignment is not.
    const state = await stack.exportState();
    expect(state.deployment.resources?.find((r) => r.type.endsWith(":OrgApiKey"))?.id).toBe(key.id);
    expect(state.deployment.resources?.some((r) => r.type.endsWith(":ApiKeyProjectAssignment"))).toBe(false);
    expect(sim.state.accessList(key.id)).toHaveLength(2);

    const preview = await stack.pulumi(["preview"]);
    expect(preview.stdout).toMatch(
      /\+ +pulumi-nodejs:dynamic\/opsmanager:ApiKeyProjectAssignment ci-in-project create/,
    );
    expect(preview.stdout).toMatch(/1 to create\n\s+2 unchanged/);
    await stack.pulumi(["up", "--yes"]);
    // No second key: the one made first now has its project roles.
    expect(
      sim.state
        .apiKeys()
        .filter((k) => k.desc === DESC)
        .map((k) => k.id),
    ).toEqual([key.id]);
    expect(
      sim.state
        .apiKey(key.id)
        ?.roles.filter((r) => r.groupId === sim!.groupId)
        .map((r) => r.roleName)
        .sort(),
    ).toEqual(["GROUP_AUTOMATION_ADMIN", "GROUP_READ_ONLY"]);
    const shown = await stack.pulumi(["stack", "output", "privateKey", "--show-secrets"]);
    expect(shown.stdout.trim()).toBe(key.privateKey);
    await stack.pulumi(["preview", "--expect-no-changes"]);
    await stack.pulumi(["destroy", "--yes"]);
    expect(sim.state.apiKey(key.id)).toBeUndefined();
  });

  it("a key made, its access list refused: the key is deleted, up fails saying so, the next up makes one key", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: { example: "ci-key" } });
    sim.faults.add({
      method: "POST",
      pathPrefix: `/orgs/${sim.orgId}/apiKeys/`,
      status: 500,
      errorCode: "UNEXPECTED_ERROR",
    });

    const failed = await stack.pulumi(["up", "--yes"], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    // The key the POST made, then deleted (its DELETE names it).
    const madeId = sim.requests
      .find((r) => r.method === "DELETE")
      ?.path.split("/")
      .pop();
    expect(madeId).toMatch(/^[0-9a-f]{24}$/);
    expect(failed.stdout).toContain(
      `POST /orgs/${sim.orgId}/apiKeys/${madeId}/accessList failed: 500 UNEXPECTED_ERROR`,
    );
    expect(failed.stdout).toContain(`The key it made (id ${madeId}) was deleted, so none is left behind`);
    expect(sim.state.apiKeys().filter((k) => k.desc === DESC)).toEqual([]);
    expect((await stack.exportState()).deployment.resources?.some((r) => r.type.endsWith(":OrgApiKey"))).toBe(
      false,
    );

    await stack.pulumi(["up", "--yes"]);
    const keys = sim.state.apiKeys().filter((k) => k.desc === DESC);
    expect(keys).toHaveLength(1);
    expect(sim.state.accessList(keys[0]!.id)).toHaveLength(2);
    await stack.pulumi(["destroy", "--yes"]);
  });

  it("a job POST answered 500 after the server made it: up fails asking to check, and never sends it again", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: { example: "incident-logs" } });
    sim.faults.add({
      method: "POST",
      pathPrefix: `/groups/${sim.groupId}/logCollectionJobs`,
      status: 500,
      actThenFail: true,
    });

    const failed = await stack.pulumi(["up", "--yes"], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    expect(sim.state.jobs()).toHaveLength(1);
    expect(sim.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(failed.stdout).toContain(
      `POST /groups/${sim.groupId}/logCollectionJobs failed: 500 UNEXPECTED_ERROR — The server answered 500 Internal Server Error. (the server failed). The server may have created the log collection job: it was not sent again`,
    );
    // The advice is to check the project's jobs first, never to simply try again.
    expect(failed.stdout).not.toMatch(/try again/);
    expect(failed.stdout).toContain(
      "Before running `pulumi up` again, check the project's log collection jobs",
    );
    const state = await stack.exportState();
    expect(state.deployment.resources?.some((r) => r.type.endsWith(":LogCollectionJob"))).toBe(false);
  });
});

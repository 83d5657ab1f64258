/**
 * Secrets under the real engine: a created key's private key is encrypted in the stack's state, masked
 * in every display, shown only on request, and no credential reaches anything the CLI prints, even at
 * its most verbose (`--logtostderr -v=9`).
 */
import { request } from "urllib";
import { expect, it } from "vitest";
import { describeEngine } from "./support/cli";
import type { RunResult } from "./support/stack";
import { openWorld } from "./support/world";

const VERBOSE = ["--logtostderr", "-v=9"];

describeEngine("test/engine/secrets: what the real engine keeps and prints of a private key", (bin) => {
  it("ci-key's private key: ciphertext in state, [secret] in output, --show-secrets authenticates, never displayed", async ({
    onTestFinished,
  }) => {
    const { stack, sim } = await openWorld(onTestFinished, bin, { project: { example: "ci-key" } });
    const printed: RunResult[] = [];
    printed.push(await stack.pulumi(["up", "--yes", ...VERBOSE]));

    const created = sim.state.apiKeys().find((k) => k.desc === "CI pipeline (created by Pulumi)");
    expect(created).toBeDefined();
    const privateKey = created!.privateKey;
    expect(privateKey).toMatch(/^[0-9a-f-]{36}$/);

    // State: the private key only as ciphertext, in the resource and in the stack's output; the
    // configured credential only as ciphertext in the stack file, never in state.
    const exported = JSON.stringify(await stack.exportState());
    expect(exported).not.toContain(privateKey);
    expect(exported).not.toContain(sim.privateKey);
    const state = await stack.exportState();
    const key = state.deployment.resources?.find(
      (r) => r.type === "pulumi-nodejs:dynamic/opsmanager:OrgApiKey",
    );
    expect(key?.outputs?.privateKey).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    });
    expect(key?.additionalSecretOutputs).toContain("privateKey");

    const masked = await stack.pulumi(["stack", "output", "privateKey"]);
    expect(masked.stdout.trim()).toBe("[secret]");
    const shown = await stack.pulumi(["stack", "output", "privateKey", "--show-secrets"]);
    expect(shown.stdout.trim()).toBe(privateKey);

    // The key shown authenticates against the server.
    sim.resetRequests();
    const answer = await request(`${sim.apiRoot}/orgs/${sim.orgId}/apiKeys`, {
      digestAuth: `${created!.publicKey}:${shown.stdout.trim()}`,
      dataType: "json",
    });
    expect(answer.status).toBe(200);
    expect(sim.requests.filter((r) => r.authenticated).map((r) => r.digest?.username)).toEqual([
      created!.publicKey,
    ]);

    printed.push(await stack.pulumi(["preview", "--diff", ...VERBOSE]));
    printed.push(await stack.pulumi(["refresh", "--yes", ...VERBOSE]));
    printed.push(await stack.pulumi(["stack", "output"]));
    printed.push(await stack.pulumi(["destroy", "--yes", ...VERBOSE]));
    expect(sim.state.apiKey(created!.id)).toBeUndefined();

    // What a user reads (the display) never shows it, nor the configured credential.
    const display = printed.map((r) => r.stdout).join("\n");
    expect(display).toContain(created!.publicKey);
    expect(display).not.toContain(privateKey);
    expect(display).not.toContain(sim.privateKey);
    // The engine's verbose logs never show the configured credential. The private key shows in one
    // kind of line only: the Node.js SDK's own debug message of each registration's answer, which
    // carries every output in plain text (a known limit of Pulumi's, in the README).
    const logs = printed.map((r) => r.stderr).join("\n");
    expect(logs.length).toBeGreaterThan(50_000);
    expect(logs).not.toContain(sim.privateKey);
    const leaking = logs.split("\n").filter((line) => line.includes(privateKey));
    expect(leaking.length).toBeGreaterThan(0);
    for (const line of leaking) {
      expect(line).toMatch(
        /"msg":"(eventSink::Debug\(<\{%reset%\}>)?(RegisterResource|ReadResource) RPC finished: resource:ci\[pulumi-nodejs:dynamic\/opsmanager:OrgApiKey\]/,
      );
    }
  });
});

#!/usr/bin/env node
// `npm run example`: start the local simulator, keep Pulumi's state in a temporary directory (a local
// file backend), and run `pulumi up` on the quickstart (the root Pulumi.yaml), then a preview that
// should show no changes. With OPSMANAGER_BASE_URL set, the real server of the environment is used.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");

if (spawnSync("pulumi", ["version"], { stdio: "ignore" }).status !== 0) {
  console.error(
    [
      "npm run example needs the Pulumi CLI, and there is no `pulumi` on PATH.",
      "Install it (https://www.pulumi.com/docs/install/):",
      "  curl -fsSL https://get.pulumi.com | sh     # Linux and macOS",
      "  brew install pulumi/tap/pulumi             # Homebrew",
      "then run `npm run example` again. The tests (`npm test`) do not need it.",
    ].join("\n"),
  );
  process.exit(1);
}

async function main() {
  const { LocalWorkspace } = require("@pulumi/pulumi/automation");
  const { startSimulator } = require(path.join(root, "dist/simulator"));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-example-"));
  const useReal = Boolean(process.env.OPSMANAGER_BASE_URL);
  const sim = useReal ? undefined : await startSimulator({});
  if (sim) console.log(`simulator: ${sim.url} (org ${sim.orgId}, project ${sim.groupId})`);
  console.log(`state:     file://${stateDir}`);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "example", workDir: root },
    {
      envVars: {
        PULUMI_BACKEND_URL: `file://${stateDir}`,
        PULUMI_CONFIG_PASSPHRASE: "",
        PULUMI_SKIP_UPDATE_CHECK: "true",
      },
    },
  );
  try {
    // Against a server of your own, say which org, project and key the quickstart uses.
    for (const [variable, key] of [
      ["QUICKSTART_ORG_ID", "quickstart:orgId"],
      ["QUICKSTART_GROUP_ID", "quickstart:groupId"],
      ["QUICKSTART_PUBLIC_KEY", "quickstart:publicKey"],
    ]) {
      if (process.env[variable]) await stack.setConfig(key, { value: process.env[variable] });
    }
    if (sim) {
      await stack.setAllConfig({
        "opsmanager:baseUrl": { value: sim.url },
        "opsmanager:publicKey": { value: sim.publicKey },
        "opsmanager:privateKey": { value: sim.privateKey, secret: true },
      });
    }
    const write = (text) => process.stdout.write(text);
    await stack.up({ onOutput: write });
    console.log("\nA second preview, which should show no changes:\n");
    await stack.preview({ onOutput: write, diff: true });
    await stack.destroy({ onOutput: write });
  } finally {
    await stack.workspace.removeStack("example").catch(() => undefined);
    await sim?.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

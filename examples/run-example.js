#!/usr/bin/env node
// `npm run example`: run the quickstart project (examples/quickstart) as a user of a clone would, with
// `pulumi up`, a second preview that should show no changes, and `pulumi destroy`, keeping Pulumi's
// state in a temporary directory (a local file backend). It starts the local simulator unless
// OPSMANAGER_BASE_URL names a server of your own.
//
// Order: the Pulumi CLI first (nothing else is worth doing without it), then the build, then the
// quickstart's own `npm install`, then the simulator and the stack.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const quickstart = path.join(__dirname, "quickstart");
// Where a CLI installed by this script goes (ignored by git), so that nothing outside the clone changes;
// OPSMANAGER_EXAMPLE_CLI_ROOT names another folder (one shared by several clones, say).
const localCliRoot = process.env.OPSMANAGER_EXAMPLE_CLI_ROOT
  ? path.resolve(process.env.OPSMANAGER_EXAMPLE_CLI_ROOT)
  : path.join(root, ".pulumi");

const HOW_TO_INSTALL = [
  "Install the Pulumi CLI (https://www.pulumi.com/docs/install/), then run `npm run example` again:",
  "  curl -fsSL https://get.pulumi.com | sh     # Linux and macOS",
  "  brew install pulumi/tap/pulumi             # Homebrew",
  "The tests (`npm test`) do not need it.",
].join("\n");

function fail(message) {
  console.error(message);
  process.exit(1);
}

/**
 * The CLI on PATH; else, with Go installed, the one tools/pulumi-cli/build.sh builds from its Go modules
 * (the tests' CLI, reused once built); else one installed earlier into .pulumi/; else one the Automation
 * API installs there.
 */
async function pulumiCommand() {
  let automation;
  try {
    automation = require("@pulumi/pulumi/automation");
  } catch {
    fail("npm run example needs this repository's dependencies: run `npm install` first.");
  }
  const { PulumiCommand } = automation;
  let why;
  try {
    return await PulumiCommand.get();
  } catch (error) {
    why = spawnSync("pulumi", ["version"], { stdio: "ignore" }).error
      ? "There is no `pulumi` on PATH"
      : `The \`pulumi\` on PATH cannot be used (${firstLine(error)})`;
  }
  const built = buildFromGoModules(why);
  if (built) {
    const command = await PulumiCommand.get({ root: path.dirname(built) });
    console.log(`Using the Pulumi CLI ${command.version} built from its Go modules in ${built}.`);
    return command;
  }
  console.log(`${why}: installing the Pulumi CLI into ${localCliRoot} with the Automation API's installer.`);
  try {
    const earlier = await PulumiCommand.get({ root: localCliRoot });
    console.log(`Using the Pulumi CLI ${earlier.version} installed earlier in ${localCliRoot}.`);
    return earlier;
  } catch {
    // None there yet: install one.
  }
  // A folder the installer cannot write would fail only after its download: find out first.
  try {
    fs.mkdirSync(localCliRoot, { recursive: true });
    fs.accessSync(localCliRoot, fs.constants.W_OK);
  } catch (error) {
    fail(`The Pulumi CLI cannot be installed into ${localCliRoot}: ${firstLine(error)}\n${HOW_TO_INSTALL}`);
  }
  try {
    const command = await PulumiCommand.install({ root: localCliRoot });
    console.log(`Using the Pulumi CLI ${command.version} in ${localCliRoot}.`);
    return command;
  } catch (error) {
    fail(`The Pulumi CLI could not be installed: ${firstLine(error)}\n${HOW_TO_INSTALL}`);
  }
}

/** The bin folder of the CLI tools/pulumi-cli/build.sh builds (or built before), or undefined without Go. */
function buildFromGoModules(why) {
  const script = path.join(root, "tools", "pulumi-cli", "build.sh");
  if (!fs.existsSync(script) || spawnSync("go", ["version"], { stdio: "ignore" }).error) return undefined;
  console.log(
    `${why}: building the Pulumi CLI from its Go modules with Go (tools/pulumi-cli; reused once built).`,
  );
  const build = spawnSync("bash", [script], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const bin = build.stdout?.trim().split("\n").pop();
  if (build.status !== 0 || !bin || !fs.existsSync(path.join(bin, "pulumi"))) {
    console.log("The Pulumi CLI could not be built from its Go modules.");
    return undefined;
  }
  return bin;
}

function firstLine(error) {
  return String(error instanceof Error ? error.message : error)
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim();
}

function npm(args, cwd) {
  const result = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", args, { cwd, stdio: "inherit" });
  if (result.status !== 0) fail(`npm ${args.join(" ")} failed in ${cwd}`);
}

async function main() {
  const pulumi = await pulumiCommand();

  npm(["run", "build"], root);
  // The quickstart depends on this clone by path (`file:../..`); its own install links it.
  if (!fs.existsSync(path.join(quickstart, "node_modules", "pulumi-opsmanager"))) {
    npm(["install", "--no-audit", "--no-fund"], quickstart);
  }

  const { LocalWorkspace } = require("@pulumi/pulumi/automation");
  const { startSimulator } = require(path.join(root, "dist/simulator"));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsmanager-example-"));
  const useReal = Boolean(process.env.OPSMANAGER_BASE_URL);
  const sim = useReal ? undefined : await startSimulator({});
  if (sim) console.log(`simulator: ${sim.url} (org ${sim.orgId}, project ${sim.groupId})`);
  console.log(`state:     file://${stateDir}`);
  let stack;
  try {
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "example", workDir: quickstart },
      {
        pulumiCommand: pulumi,
        envVars: {
          PULUMI_BACKEND_URL: `file://${stateDir}`,
          PULUMI_CONFIG_PASSPHRASE: "",
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
      },
    );
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
    await stack?.workspace.removeStack("example").catch(() => undefined);
    await sim?.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

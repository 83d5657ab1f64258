#!/usr/bin/env node
// `npm run example`: run the quickstart project (examples/quickstart) as a user of a clone would, with
// `pulumi up`, a second preview that should show no changes, and `pulumi destroy`, keeping Pulumi's
// state in a temporary directory (a local file backend). It starts the local simulator unless
// OPSMANAGER_BASE_URL names a server of your own.
//
// `npm run example -- --language python` (or `yaml`) runs that language's quickstart
// (examples/quickstart-python, examples/quickstart-yaml) the same way, through the provider plugin of
// this clone: it needs the plugin built and, for Python, the generated SDK (sdk/python), and says so
// when they are missing.
//
// Order: the Pulumi CLI first (nothing else is worth doing without it), then the build, then the
// quickstart's own `npm install` (or its language's host and venv), then the simulator and the stack.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const LANGUAGES = ["typescript", "python", "yaml"];
const language = languageArgument(process.argv.slice(2));
const quickstart = path.join(__dirname, language === "typescript" ? "quickstart" : `quickstart-${language}`);
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

/** `--language <name>` or `--language=<name>`; typescript when not given. */
function languageArgument(args) {
  let name = "typescript";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--language") name = args[++i];
    else if (arg.startsWith("--language=")) name = arg.slice("--language=".length);
    else fail(`Unknown argument ${arg}: npm run example [-- --language ${LANGUAGES.join("|")}]`);
  }
  if (!LANGUAGES.includes(name)) fail(`Unknown language ${name}: one of ${LANGUAGES.join(", ")}`);
  return name;
}

/** Runs a script of tools/ that prints a folder on its last line; fails with `why` when it cannot. */
function toolFolder(script, why) {
  const result = spawnSync("bash", [path.join(root, script)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const folder = result.stdout?.trim().split("\n").pop();
  if (result.status !== 0 || !folder) fail(why);
  return folder;
}

/**
 * What a Python or YAML quickstart needs beside the CLI, as environment for the stack: the language host
 * (beside the CLI, as a release archive ships it, else built by tools/language-hosts with Go), and for
 * Python the venv with the SDK (tools/python/venv.sh). Fails saying what is missing: the provider plugin
 * or the SDK first, before anything is built.
 */
function languageEnv(pulumi) {
  const plugin = [
    "bin/pulumi-resource-opsmanager",
    "dist/provider/plugin/bundle.js",
    "provider/plugin/schema.json",
  ];
  const absent = plugin.filter((file) => !fs.existsSync(path.join(root, file)));
  if (absent.length > 0) {
    fail(
      `The ${language === "yaml" ? "YAML" : "Python"} quickstart runs through the provider plugin pulumi-resource-opsmanager, which this clone ` +
        `does not have built (${absent.join(", ")} missing): \`npm run build\` builds it where provider/plugin/ exists.`,
    );
  }
  if (language === "python" && !fs.existsSync(path.join(root, "sdk", "python"))) {
    fail(
      "The Python quickstart needs the Python SDK, sdk/python, generated from provider/plugin/schema.json: this clone has none.",
    );
  }
  const env = { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" };
  const host = `pulumi-language-${language}`;
  const beside = path.dirname(pulumi.command);
  const onPath = spawnSync("bash", ["-c", `command -v ${host}`], { encoding: "utf8" }).stdout.trim();
  if (fs.existsSync(path.join(beside, host))) {
    console.log(`Using ${host} beside the Pulumi CLI in ${beside}.`);
  } else if (onPath) {
    console.log(`Using ${host} from PATH (${onPath}).`);
  } else {
    if (spawnSync("go", ["version"], { stdio: "ignore" }).error) {
      fail(
        `There is no ${host} beside the Pulumi CLI or on PATH, and no Go to build one (tools/language-hosts).`,
      );
    }
    console.log(`Building ${host} from its Go modules (tools/language-hosts; reused once built).`);
    const hosts = toolFolder(
      "tools/language-hosts/build.sh",
      `${host} could not be built from its Go modules.`,
    );
    env.PATH = `${hosts}${path.delimiter}${process.env.PATH ?? ""}`;
  }
  if (language === "python") {
    console.log(
      "Making the Python venv with PyPI's pulumi and sdk/python (tools/python/venv.sh; reused once made).",
    );
    env.OPSMANAGER_PYTHON_VENV = toolFolder("tools/python/venv.sh", "The Python venv could not be made.");
  }
  return env;
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
  let languageVars = {};
  if (language !== "typescript") {
    languageVars = languageEnv(pulumi);
  } else if (!fs.existsSync(path.join(quickstart, "node_modules", "pulumi-opsmanager"))) {
    // The quickstart depends on this clone by path (`file:../..`); its own install links it.
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
          ...languageVars,
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

// The program's process, as the nodejs language host starts one: the SDK's own runner
// (`@pulumi/pulumi/cmd/run/run.js`, `run()`) loads the program from the working directory and entry point
// the parent passes, under `pulumi.runtime.setMocks`, with the environment the language host sets
// (PULUMI_CONFIG and the PULUMI_NODEJS_* variables, given by the parent). The parent stands in for the
// engine: each registration of a dynamic resource goes to it over IPC, and it answers with what the
// provider host created, or with the error that ends the deployment.
//
// Messages to the parent: { kind: "register", seq, type, name, inputs }, { kind: "error", message, stack },
// { kind: "done", entry, outputs }. From the parent: { seq, id, state } or { seq, error }.
"use strict";
const path = require("node:path");
const { createRequire } = require("node:module");

const { pwd, program, project, stack, root } = JSON.parse(process.argv[2]);

// The program's own SDK: one instance for the runner, the mocks and every resource.
const sdk = createRequire(path.join(pwd, "package.json"));
// cmd/run/index.js parses the process's argv when loaded (and needs an engine's address); run.js only needs
// its exit code for a program that cannot be found.
const runIndex = sdk.resolve("@pulumi/pulumi/cmd/run/index.js");
const standIn = new (require("node:module"))(runIndex);
standIn.filename = runIndex;
standIn.loaded = true;
standIn.exports = { nodeJSProcessExitedAfterLoggingUserActionableMessage: 32 };
require.cache[runIndex] = standIn;

const pulumi = sdk("@pulumi/pulumi");
const state = sdk("@pulumi/pulumi/runtime/state");
const settings = sdk("@pulumi/pulumi/runtime/settings");
const runJs = sdk.resolve("@pulumi/pulumi/cmd/run/run.js");
const { run } = sdk(runJs);

const pending = new Map();
let seq = 0;
process.on("message", (reply) => {
  const waiter = pending.get(reply.seq);
  if (!waiter) return;
  pending.delete(reply.seq);
  if (reply.error !== undefined) waiter.reject(new Error(reply.error));
  else waiter.resolve({ id: reply.id, state: reply.state });
});

/** @type {import("@pulumi/pulumi").runtime.Mocks} */
const mocks = {
  newResource(args) {
    if (!args.type.startsWith("pulumi-nodejs:dynamic")) return { id: undefined, state: args.inputs };
    seq += 1;
    const message = { kind: "register", seq, type: args.type, name: args.name, inputs: args.inputs };
    return new Promise((resolve, reject) => {
      pending.set(seq, { resolve, reject });
      process.send(message);
    });
  },
  call(args) {
    throw new Error(`the program invoked ${args.token}, which these tests do not serve`);
  },
};

// What cmd/run/index.js passes: each error is logged once. The parent hears of it first, so that an
// error ends the run even where logging it does not return.
const logged = new Set();
const report = (error) => {
  process.send({
    kind: "error",
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
};

/** The file run.js loaded as the program: the module it required that is not a package's. */
function entry() {
  const runner = require.cache[runJs];
  const loaded = (runner?.children ?? []).map((m) => m.filename);
  return loaded.find((file) => !file.split(path.sep).includes("node_modules"));
}

state
  .withLocalStorage(async () => {
    await pulumi.runtime.setMocks(mocks, project, stack, false);
    const argv = { _: [program], pwd, project, stack, "root-directory": root };
    const outputs = await run(
      argv,
      () => {},
      (error) => logged.add(error),
      (error) => {
        if (!logged.has(error)) report(error);
        return logged.has(error);
      },
    );
    await settings.waitForRPCs();
    return outputs;
  })
  .then(
    (outputs) => process.send({ kind: "done", entry: entry(), outputs }, () => process.exit(0)),
    (error) => {
      report(error);
      process.exitCode = 1;
    },
  );

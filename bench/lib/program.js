/**
 * The program directory every host-driven benchmark runs in: this package as `npm pack` ships it, the
 * trivial provider of the tests, the baseline provider with its npm digest client and the least possible
 * provider of bench/ideal, each in node_modules as a user's `npm install` would put them; plus the
 * serialized provider texts.
 */
const fsp = require("node:fs/promises");
const path = require("node:path");
const harness = require("./harness");

const TRIVIAL_DIR = path.join(harness.ROOT, "test", "fixtures", "trivial-provider");
const BASELINE_DIR = path.join(__dirname, "..", "baseline");
const IDEAL_DIR = path.join(__dirname, "..", "ideal");

const KEY_TYPE = "pulumi-nodejs:dynamic/opsmanager:OrgApiKey";
const JOB_TYPE = "pulumi-nodejs:dynamic/opsmanager:LogCollectionJob";

/** Every method defers to the `trivial-provider` package, required by name on the host at call time. */
const trivialProvider = {
  create: (inputs) => require("trivial-provider").create(inputs),
  check: (olds, news) => require("trivial-provider").check(olds, news),
  diff: (id, olds, news) => require("trivial-provider").diff(id, olds, news),
  read: (id, props) => require("trivial-provider").read(id, props),
  update: (id, olds, news) => require("trivial-provider").update(id, olds, news),
  delete: (id, props) => require("trivial-provider").delete(id, props),
};

let shared;

/** The program directory and provider texts, made once per run. */
function program() {
  shared ??= (async () => {
    const dir = await harness.makeProgramDir({ packages: [TRIVIAL_DIR, BASELINE_DIR, IDEAL_DIR] });
    // The baseline's dependency, where npm would have installed it.
    const urllib = await fsp.realpath(path.join(harness.ROOT, "node_modules", "urllib"));
    await fsp.symlink(urllib, path.join(dir.dir, "node_modules", "urllib"), "dir");
    const ours = require("../../dist/provider/resources/shared/providers.js");
    const baseline = require("../baseline");
    const ideal = require("../ideal");
    return {
      ...dir,
      text: {
        ourKey: ours.ORG_API_KEY_PROVIDER,
        ourJob: ours.LOG_COLLECTION_JOB_PROVIDER,
        baselineKey: await harness.serializeProvider(baseline.orgApiKeyProvider),
        baselineJob: await harness.serializeProvider(baseline.logCollectionJobProvider),
        trivial: await harness.serializeProvider(trivialProvider),
        idealUndiciKey: await harness.serializeProvider(ideal.serializable("undici", "apiKey")),
        idealUndiciJob: await harness.serializeProvider(ideal.serializable("undici", "logCollectionJob")),
        idealHttpKey: await harness.serializeProvider(ideal.serializable("http", "apiKey")),
        idealHttpJob: await harness.serializeProvider(ideal.serializable("http", "logCollectionJob")),
      },
    };
  })();
  return shared;
}

async function cleanupProgram() {
  if (shared) await (await shared.catch(() => undefined))?.cleanup();
  shared = undefined;
}

/** The stack config of a program pointed at `sim`. */
const stackConfig = (sim) => ({
  "opsmanager:baseUrl": sim.url,
  "opsmanager:publicKey": sim.publicKey,
  "opsmanager:privateKey": sim.privateKey,
});

/** Starts a host in the program directory, tracked in `hosts` so it is always closed. */
async function newHost(prog, hosts, config) {
  const host = await harness.startHost({ cwd: prog.dir, env: harness.NO_ENV });
  hosts.push(host);
  if (config) await host.configure(config);
  return host;
}

module.exports = { program, cleanupProgram, stackConfig, newHost, KEY_TYPE, JOB_TYPE, urn: harness.urn };

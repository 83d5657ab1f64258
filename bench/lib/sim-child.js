/**
 * The child process of ./sim-process.js: one simulator, driven over IPC. A real Ops Manager is a
 * separate process on another machine; here the simulator at least has its own event loop, so its
 * answers do not wait behind the bench process's gRPC client (the engine's side of the host).
 *
 * Messages in: `{ id, op, args }`; out: `{ id, ok: true, value }` or `{ id, ok: false, error }`, and once
 * `{ ready: { url, … } }` or `{ failed }` after start. The child exits when its parent goes away.
 */
const { startSimulator } = require("../../dist/simulator");
const { byKind, byResource, jobCreatePace } = require("./util");

// What the bench may ask of the simulator's state and faults; nothing else crosses the channel.
const STATE_OPS = [
  "apiKeys",
  "apiKey",
  "addApiKey",
  "addApiKeys",
  "updateApiKey",
  "removeApiKey",
  "jobs",
  "job",
  "addJob",
];
const FAULT_OPS = ["add", "clear"];

let sim;

function exit(code) {
  const done = () => process.exit(code);
  if (sim) sim.close().then(done, done);
  else done();
}

// No parent, no reason to live: the channel closes when the parent exits, however it exits.
process.on("disconnect", () => exit(0));

// Where the warm-up's jobs go: a group of their own, so the measured group holds only the bench's jobs.
const WARM_GROUP = "5f00000000000000000000ff";

/**
 * Serves what a server that has been up for a while has served: `clients` fresh digest sessions (each
 * one challenge), each listing the org at 500 and at 100 a page, PATCHing the admin key's desc to what
 * it is, and creating jobs in a group of their own; then forgets the log. A fresh Node process runs
 * the simulator's code cold, in the interpreter, for its first few hundred requests; a real Ops Manager
 * is a long-running server, so each measured phase starts with the simulator warm.
 */
async function warmUp(clients = 8) {
  const { HttpClient } = require("../../dist/provider/client");
  const { orgApiKeyListing, patchOrgApiKey } = require("../../dist/provider/api/api-keys");
  const { readListingPage, readWholeListing } = require("../../dist/provider/api/listing-pages");
  const { createLogCollectionJob } = require("../../dist/provider/api/log-collection-jobs");
  sim.state.addGroup(WARM_GROUP);
  const admin = sim.state.apiKeys().find((k) => k.publicKey === sim.publicKey);
  for (let c = 0; c < clients; c++) {
    const client = new HttpClient({
      baseUrl: sim.apiRoot,
      username: sim.publicKey,
      password: sim.privateKey,
    });
    try {
      await readWholeListing(client, orgApiKeyListing(sim.orgId), {}, { sameTwice: true });
      await Promise.all(
        [1, 2, 3, 4, 5].map((pageNum) =>
          readListingPage(client, orgApiKeyListing(sim.orgId), { pageNum, itemsPerPage: 100 }),
        ),
      );
      for (let round = 0; round < 2; round++) {
        await Promise.all(
          Array.from({ length: 8 }, () => patchOrgApiKey(client, sim.orgId, admin.id, { desc: admin.desc })),
        );
      }
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          createLogCollectionJob(client, WARM_GROUP, {
            resourceType: "REPLICASET",
            resourceName: `warm${c}-${i}`,
            sizeRequestedPerFileBytes: 1000,
            logTypes: ["DATABASE"],
            redacted: true,
          }),
        ),
      );
    } finally {
      await client.close();
    }
  }
  sim.resetRequests();
}

const ops = {
  resetRequests: () => sim.resetRequests(),
  warmUp,
  /** Counts, not the log: `{ total, kinds: { "GET 200": n, … }, resources: { keys: n, jobs: n, challenges: n } }`. */
  requestSummary: () => ({
    total: sim.requests.length,
    kinds: byKind(sim.requests),
    resources: byResource(sim.requests),
    jobCreates: jobCreatePace(sim.requests),
  }),
  updateApiKeys: (changes) => {
    for (const { id, change } of changes) sim.state.updateApiKey(id, change);
  },
  /** Jobs as another simulator holds them (ids, dates, status kept), in one message. */
  addJobs: (jobs) => {
    for (const job of jobs) sim.state.addJob(job);
  },
  close: async () => {
    await sim.close();
    setImmediate(() => process.exit(0));
  },
};
for (const name of STATE_OPS) ops[`state.${name}`] = (...args) => sim.state[name](...args);
for (const name of FAULT_OPS) ops[`faults.${name}`] = (...args) => sim.faults[name](...args);

process.on("message", async (message) => {
  if (message.start) {
    try {
      const { delayMs, ...options } = message.start;
      sim = await startSimulator(options);
      // Every authenticated request waits `delayMs`, as a server off loopback would (not the challenges).
      if (delayMs > 0) sim.faults.add({ delayMs, times: Number.MAX_SAFE_INTEGER });
      const { url, apiRoot, port, orgId, groupId, publicKey, privateKey } = sim;
      process.send({ ready: { url, apiRoot, port, orgId, groupId, publicKey, privateKey } });
    } catch (error) {
      process.send({ failed: String(error?.stack ?? error) });
    }
    return;
  }
  const { id, op, args } = message;
  try {
    const fn = ops[op];
    if (!fn) throw new Error(`unknown simulator operation ${op}`);
    if (!sim) throw new Error("the simulator has not started");
    const value = await fn(...(args ?? []));
    process.send({ id, ok: true, value });
  } catch (error) {
    process.send({ id, ok: false, error: String(error?.stack ?? error) });
  }
});

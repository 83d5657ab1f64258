/**
 * The child process of ./sim-process.js: one simulator, driven over IPC. A real Ops Manager is a
 * separate process on another machine; here the simulator at least has its own event loop, so its
 * answers do not wait behind the bench process's gRPC client (the engine's side of the host).
 *
 * Messages in: `{ id, op, args }`; out: `{ id, ok: true, value }` or `{ id, ok: false, error }`, and once
 * `{ ready: { url, … } }` or `{ failed }` after start. The child exits when its parent goes away.
 */
const { startSimulator } = require("../../dist/simulator");
const { byKind } = require("./util");

// What the bench may ask of the simulator's state and faults; nothing else crosses the channel.
const STATE_OPS = ["apiKeys", "apiKey", "addApiKey", "addApiKeys", "updateApiKey", "removeApiKey", "jobs"];
const FAULT_OPS = ["add", "clear"];

let sim;

function exit(code) {
  const done = () => process.exit(code);
  if (sim) sim.close().then(done, done);
  else done();
}

// No parent, no reason to live: the channel closes when the parent exits, however it exits.
process.on("disconnect", () => exit(0));

const ops = {
  resetRequests: () => sim.resetRequests(),
  /** Counts, not the log: `{ total, kinds: { "GET 200": n, … } }`. */
  requestSummary: () => ({ total: sim.requests.length, kinds: byKind(sim.requests) }),
  updateApiKeys: (changes) => {
    for (const { id, change } of changes) sim.state.updateApiKey(id, change);
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

/**
 * A simulator in its own process (./sim-child.js), for the benchmarks whose wall time it would otherwise
 * distort. In the bench process the simulator shares an event loop with the gRPC client that plays the
 * Pulumi engine: with 16 calls in flight, each HTTP request can wait there behind the engine's work, where
 * a real Ops Manager answers from another machine. (Measured on 2 cores, 250 adopting creates at 16 in
 * flight: create p50 about 22 ms in process, 20 ms apart; most of a create's time is in the host.)
 *
 * `startSimulatorProcess(options)` takes the options of `startSimulator`, plus `delayMs` (server time
 * added to every authenticated request), and resolves to the part of the simulator the bench uses, every
 * call asynchronous: url, apiRoot, orgId, groupId, publicKey, privateKey; `state.apiKeys()` and the other
 * state calls; `faults.add()`; `resetRequests()`; `requestSummary()` (`{ total, kinds, resources }`,
 * counts by method and status, and by what they were about: the log itself stays in the child); `close()`. Children are killed when the bench
 * process exits, and exit by themselves when it dies.
 */
const { fork } = require("node:child_process");
const path = require("node:path");

const CHILD = path.join(__dirname, "sim-child.js");
const START_TIMEOUT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 10_000;

const live = new Set();
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

async function startSimulatorProcess(options = {}) {
  const child = fork(CHILD, [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "advanced",
    // The bench's own flags (an --inspect, say) are not the simulator's.
    execArgv: [],
  });
  live.add(child);
  const pending = new Map();
  let nextId = 0;
  let gone;
  const exited = new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      live.delete(child);
      const why = failure ? `: ${failure.message}` : "";
      gone = new Error(`the simulator process exited (${signal ?? `code ${code}`})${why}`);
      for (const { reject } of pending.values()) reject(gone);
      pending.clear();
      resolve();
    });
  });
  // A failed send or kill reports here; the exit that follows rejects whatever waits.
  let failure;
  child.on("error", (error) => {
    failure ??= error;
  });
  const kill = async () => {
    if (live.has(child)) child.kill("SIGKILL");
    await exited;
  };

  let info;
  try {
    info = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the simulator process did not start in ${START_TIMEOUT_MS / 1000} s`)),
        START_TIMEOUT_MS,
      );
      child.once("error", reject);
      exited.then(() => reject(gone));
      child.once("message", (message) => {
        clearTimeout(timer);
        if (message.ready) resolve(message.ready);
        else reject(new Error(`the simulator process failed to start: ${message.failed}`));
      });
      child.send({ start: options });
    });
  } catch (error) {
    await kill();
    throw error;
  }

  child.on("message", (message) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(new Error(`simulator process: ${message.error}`));
  });
  const call = (op, ...args) => {
    if (gone) return Promise.reject(gone);
    return new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      child.send({ id, op, args }, (error) => {
        if (error && pending.delete(id)) reject(error);
      });
    });
  };

  let closing;
  return {
    ...info,
    pid: child.pid,
    state: {
      apiKeys: (orgId) => call("state.apiKeys", orgId),
      apiKey: (id) => call("state.apiKey", id),
      addApiKey: (key) => call("state.addApiKey", key),
      addApiKeys: (count, orgId) => call("state.addApiKeys", count, orgId),
      updateApiKey: (id, change) => call("state.updateApiKey", id, change),
      /** Many `updateApiKey`s in one message: `[{ id, change }]`. */
      updateApiKeys: (changes) => call("updateApiKeys", changes),
      removeApiKey: (id) => call("state.removeApiKey", id),
      jobs: (groupId) => call("state.jobs", groupId),
      job: (id) => call("state.job", id),
      addJob: (job) => call("state.addJob", job),
      /** Many `addJob`s in one message: jobs as another simulator holds them. */
      addJobs: (jobs) => call("addJobs", jobs),
    },
    faults: {
      add: (...faults) => call("faults.add", ...faults),
      clear: () => call("faults.clear"),
    },
    resetRequests: () => call("resetRequests"),
    /** Serves a long-running server's worth of traffic to itself (see sim-child.js), then forgets its log. */
    warmUp: (clients) => call("warmUp", clients),
    requestSummary: () => call("requestSummary"),
    /** Closes the server and waits for the process to exit; kills it if it does not. */
    close() {
      closing ??= (async () => {
        if (gone) return;
        const timer = setTimeout(() => child.kill("SIGKILL"), CLOSE_TIMEOUT_MS);
        try {
          await call("close").catch(() => child.kill("SIGKILL"));
          await exited;
        } finally {
          clearTimeout(timer);
        }
      })();
      return closing;
    },
  };
}

module.exports = { startSimulatorProcess };

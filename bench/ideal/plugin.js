/**
 * A provider plugin that does nothing, of the same package and types as ours (`opsmanager`,
 * `opsmanager:index:OrgApiKey`, `opsmanager:index:LogCollectionJob`): every call is answered at once,
 * with no request to any server; a created resource's outputs are its inputs. It is to our plugin what
 * the engine bench's dynamic provider that does nothing is to our dynamic types: the engine's, the SDK's
 * gRPC server's and the program's own cost of the same deployment, so that our plugin's share of an
 * `up` is a ratio of two figures of one run. Built on `@pulumi/pulumi/provider`'s `main`, which serves
 * the gRPC interface and prints the port; run as `node plugin.js` (bench/engine.js writes the launcher).
 */
const { main } = require("@pulumi/pulumi/provider");

// OPSMANAGER_BENCH_IDEAL_PAD=<n> adds n bytes of outputs to each resource: the state the engine writes
// then grows as ours does, which tells the engine's share of a difference from the plugin's. With
// OPSMANAGER_BENCH_IDEAL_PAD_FIELDS=<k> they are k outputs of n/k bytes each, not one: the engine's
// work on a state grows with its values, not only its bytes, and ours has many small ones.
const pad = Number(process.env.OPSMANAGER_BENCH_IDEAL_PAD ?? 0);
const padFields = Math.max(1, Number(process.env.OPSMANAGER_BENCH_IDEAL_PAD_FIELDS ?? 1));
const padding =
  padFields === 1
    ? { pad: "x".repeat(pad) }
    : Object.fromEntries(
        Array.from({ length: padFields }, (_, i) => [`pad${i}`, "x".repeat(Math.ceil(pad / padFields))]),
      );
const outputs = (inputs) => (pad > 0 ? { ...inputs, ...padding } : inputs);

const nothing = {
  version: "1.0.0",
  check: async (_urn, _olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (urn, inputs) => ({ id: urn.split("::").pop(), outs: outputs(inputs) }),
  read: async (id, _urn, props) => ({ id, props }),
  update: async (_id, _urn, _olds, news) => ({ outs: news }),
  delete: async () => {},
};

main(nothing, process.argv.slice(2)).catch((error) => {
  process.stderr.write(`bench do-nothing plugin: ${error.stack ?? error}\n`);
  process.exit(1);
});

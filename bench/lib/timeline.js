/**
 * Loaded by ./host-usage.js into each provider host and plugin the engine bench's CLI starts, when
 * `OPSMANAGER_BENCH_TIMELINE` names a folder (../engine.js passes it on): records when the process
 * started, when it printed its port, each gRPC call it served (from the stream's arrival to its close,
 * with the resource name of the URN it carries), and each HTTP request it made (undici's diagnostics
 * channels, which the plugin's bundled undici publishes too), in epoch milliseconds, and writes them to
 * `$OPSMANAGER_BENCH_TIMELINE_DIR/process-<pid>.json` when it ends. ./host-usage.js, which loads it,
 * turns the engine's SIGINT into an exit, so the file is written then. The times are the process's own
 * view: a call that arrives while its event loop is busy is seen late.
 */
const diagnostics = require("node:diagnostics_channel");
const fs = require("node:fs");
const http2 = require("node:http2");
const path = require("node:path");
const { performance } = require("node:perf_hooks");

const dir = process.env.OPSMANAGER_BENCH_TIMELINE_DIR;
if (dir) {
  const now = () => performance.timeOrigin + performance.now();
  const events = [{ what: "process start", start: performance.timeOrigin, end: performance.timeOrigin }];
  const mark = (what) => {
    const t = now();
    events.push({ what, start: t, end: t });
  };

  // The engine reads the port from the first line of standard output.
  const write = process.stdout.write;
  let printed = false;
  process.stdout.write = function (...args) {
    if (!printed) {
      printed = true;
      mark("port printed");
    }
    return write.apply(this, args);
  };

  // The name at the end of the first URN in a request's bytes (a protobuf string: its length, a varint,
  // just before it), or "" while the bytes hold none whole.
  const resourceName = (bytes) => {
    const at = bytes.indexOf("urn:pulumi:");
    if (at < 1) return "";
    const short = bytes[at - 1];
    const length = at >= 2 && bytes[at - 2] & 0x80 ? (bytes[at - 2] & 0x7f) | (short << 7) : short;
    if (at + length > bytes.length) return "";
    const urn = bytes.toString("utf8", at, at + length);
    return urn.slice(urn.lastIndexOf("::") + 2);
  };

  // Both gRPC servers (grpc-js, bundled or not) serve over node:http2's createServer.
  const createServer = http2.createServer;
  http2.createServer = function (...args) {
    const server = createServer.apply(this, args);
    server.on("stream", (stream, headers) => {
      const start = now();
      const method = String(headers[":path"] ?? "")
        .split("/")
        .pop();
      let name = "";
      let head = Buffer.alloc(0);
      stream.on("data", (chunk) => {
        if (name !== "" || head.length > 4096) return;
        head = Buffer.concat([head, chunk]);
        name = resourceName(head);
      });
      stream.on("close", () => events.push({ what: `grpc ${method}`, start, end: now(), name }));
    });
    return server;
  };

  // A request's path below the API root, its ids as {id}: one kind of request, however many keys.
  const route = (requestPath) =>
    requestPath
      .split("?")[0]
      .replace(/^.*\/api\/public\/v1\.0/, "")
      .replace(/\/accessList\/[^/]+$/, "/accessList/{entry}")
      .replace(/\/[0-9a-f]{24}(?=\/|$)/gi, "/{id}");
  const requests = new Map();
  // undici may report one request twice (an error after its trailers): the first report counts.
  const settle = (request, suffix) => {
    if (!requests.has(request)) return;
    events.push({
      what: `http ${request.method} ${route(request.path)}${suffix}`,
      start: requests.get(request),
      end: now(),
    });
    requests.delete(request);
  };
  diagnostics.subscribe("undici:request:create", ({ request }) => requests.set(request, now()));
  diagnostics.subscribe("undici:request:trailers", ({ request }) => settle(request, ""));
  diagnostics.subscribe("undici:request:error", ({ request, error }) => {
    // A code such as ECONNRESET names the kind; an abort's DOMException has a numeric code, so its name.
    const kind = typeof error?.code === "string" ? error.code : (error?.name ?? String(error));
    settle(request, ` failed: ${kind}`);
  });

  process.on("exit", () => {
    mark("exit");
    try {
      fs.writeFileSync(path.join(dir, `process-${process.pid}.json`), JSON.stringify(events));
    } catch {
      // The bench removed its folder: nobody reads the timeline any more.
    }
  });
}

/**
 * A plain node:http JSON server with no authentication, for the undici ceiling: the simulator has no
 * unauthenticated mode. It answers every GET and PATCH with the bodies the simulator gave for the same
 * requests, so only authentication and the simulator's own work differ.
 */
const http = require("node:http");

async function startPlainServer({ getBody, patchBody }) {
  let requests = 0;
  const server = http.createServer(async (req, res) => {
    requests++;
    for await (const _ of req);
    const text = req.method === "PATCH" ? patchBody : getBody;
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    get requests() {
      return requests;
    },
    reset() {
      requests = 0;
    },
    close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      return closed;
    },
  };
}

module.exports = { startPlainServer };

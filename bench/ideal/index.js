/**
 * The least a provider can do for the benchmark's deployment: the limit for wall time, as the request
 * counts are the limit for requests. It makes exactly our requests (one challenge, one listing of the org
 * read 500 keys a page with pages 2 onward 8 at a time, a PATCH per key that differs, a POST per job, one
 * listing of a project's jobs for their refresh) and returns our outputs, but checks nothing: no input rules, no schema at the wire, no timeouts, retries,
 * size caps or error messages, digest signing with one nonce and no stale handling. Not a provider anyone
 * should run; bench/deployment.js measures it beside ours to show what is left of our wall time once the
 * host, the transport and the server have taken theirs.
 *
 * Two transports, each a serialized provider of its own: undici's `request`, which this package must
 * use, and node:http, which shows what the transport's own cost is.
 */
const { createHash, randomBytes } = require("node:crypto");
const http = require("node:http");

const API = "/api/public/v1.0";
const PAGE = 500;
const PAGES_AT_ONCE = 8;

let settings;

function configure(req) {
  const get = (key) => req.config.get(`opsmanager:${key}`);
  settings = { baseUrl: get("baseUrl"), username: get("publicKey"), password: get("privateKey") };
}

const md5 = (text) => createHash("md5").update(text).digest("hex");

/** `send(method, url, headers, body) → { status, headers, text() }` over undici's `request`. */
function undiciTransport() {
  let undici;
  let agent;
  return async (method, url, headers, body) => {
    undici ??= require("undici");
    agent ??= new undici.Agent();
    const res = await undici.request(url, { method, headers, body, dispatcher: agent });
    return { status: res.statusCode, headers: res.headers, text: () => res.body.text() };
  };
}

/** The same over node:http with a keep-alive agent. */
function httpTransport() {
  const agent = new http.Agent({ keepAlive: true });
  return (method, url, headers, body) =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers, agent }, (res) => {
        const chunks = [];
        const text = new Promise((ok, fail) => {
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () => ok(Buffer.concat(chunks).toString("utf8")));
          res.on("error", fail);
        });
        resolve({ status: res.statusCode, headers: res.headers, text: () => text });
      });
      req.on("error", reject);
      req.end(body);
    });
}

/** The Digest `Authorization` value for one request (RFC 7616, MD5, qop=auth). */
function authorization(challenge, nc, method, uri) {
  const count = nc.toString(16).padStart(8, "0");
  const cnonce = randomBytes(8).toString("hex");
  const ha1 = md5(`${settings.username}:${challenge.realm}:${settings.password}`);
  const response = md5(`${ha1}:${challenge.nonce}:${count}:${cnonce}:auth:${md5(`${method}:${uri}`)}`);
  return (
    `Digest username="${settings.username}", realm="${challenge.realm}", nonce="${challenge.nonce}", ` +
    `uri="${uri}", algorithm=MD5, qop=auth, nc=${count}, cnonce="${cnonce}", response="${response}"`
  );
}

/** `call(method, path, body) → parsed JSON`: the first request fetches the one challenge all then sign with. */
function client(send) {
  let challenge;
  let nc = 0;
  return async (method, path, body) => {
    const uri = `${API}${path}`;
    const url = `${settings.baseUrl}${uri}`;
    challenge ??= (async () => {
      const res = await send("GET", url, { accept: "application/json" });
      await res.text();
      const header = String(res.headers["www-authenticate"]);
      return Object.fromEntries([...header.matchAll(/(\w+)="?([^",]*)"?/g)].map((m) => [m[1], m[2]]));
    })();
    const headers = {
      accept: "application/json",
      authorization: authorization(await challenge, ++nc, method, uri),
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await send(method, url, headers, body === undefined ? undefined : JSON.stringify(body));
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
}

/** The org's keys by public key and by id, a lookup answered as soon as its page is in. */
function listing(call, orgId) {
  const byPublicKey = new Map();
  const byId = new Map();
  let waiting = [];
  let done = false;
  const add = (keys) => {
    for (const key of keys) {
      byPublicKey.set(key.publicKey, key);
      byId.set(key.id, key);
    }
    waiting = waiting.filter((w) => !w.answer());
  };
  const lookup = (selector) =>
    selector.apiKeyId !== undefined ? byId.get(selector.apiKeyId) : byPublicKey.get(selector.publicKey);
  const read = (pageNum) => call("GET", `/orgs/${orgId}/apiKeys?itemsPerPage=${PAGE}&pageNum=${pageNum}`);
  const all = (async () => {
    const first = await read(1);
    add(first.results);
    const pages = Math.ceil(first.totalCount / PAGE);
    let next = 2;
    const worker = async () => {
      while (next <= pages) add((await read(next++)).results);
    };
    await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, Math.max(0, pages - 1)) }, worker));
    done = true;
    add([]);
  })();
  all.catch(() => {});
  return {
    find: (selector) =>
      new Promise((resolve, reject) => {
        const w = {
          answer: () => {
            const key = lookup(selector);
            if (key === undefined && !done) return false;
            resolve(key);
            return true;
          },
        };
        if (!w.answer()) waiting.push(w);
        all.catch(reject);
      }),
    remember: (key) => add([key]),
  };
}

const roleSet = (roles) => [...new Set(roles)].sort();
const orgRoles = (key) => roleSet(key.roles.filter((r) => r.orgId !== undefined).map((r) => r.roleName));

/** Our outputs, so that the host and the engine carry the same data as for ours. */
function outputs(inputs, key, adopted) {
  return {
    orgId: inputs.orgId,
    apiKeyId: key.id,
    publicKey: key.publicKey,
    desc: key.desc ?? "",
    roles: orgRoles(key),
    privateKey: key.privateKey ?? "",
    projectRoles: key.roles
      .filter((r) => r.groupId !== undefined)
      .map((r) => ({ groupId: r.groupId, roleName: r.roleName })),
    restoreOnDelete: inputs.restoreOnDelete ?? false,
    keepers: { ...(inputs.keepers ?? {}) },
    adopted,
    // The version of the state's shape ours writes (provider/resources/org-api-key/state.ts).
    stateVersion: 2,
    managed: {
      desc: inputs.desc !== undefined,
      roles: inputs.roles !== undefined,
      by: inputs.apiKeyId !== undefined ? "apiKeyId" : "publicKey",
    },
  };
}

/** What a job's outputs hold of the server's record, as ours: "" or 0 where it says nothing. */
function jobFields(record) {
  return {
    status: record?.status ?? "",
    creationDate: record?.creationDate ?? "",
    expirationDate: record?.expirationDate ?? "",
    downloadUrl: record?.downloadUrl ?? "",
    userId: record?.userId ?? "",
    rootResourceName: record?.rootResourceName ?? "",
    rootResourceType: record?.rootResourceType ?? "",
    uncompressedSizeTotalBytes: record?.uncompressedSizeTotalBytes ?? 0,
  };
}

/** A project's jobs by id, read once (every page, 500 a page). */
async function projectJobs(call, groupId) {
  const byId = new Map();
  for (let pageNum = 1; ; pageNum++) {
    const page = await call(
      "GET",
      `/groups/${groupId}/logCollectionJobs?itemsPerPage=${PAGE}&pageNum=${pageNum}`,
    );
    for (const job of page.results) byId.set(job.id, job);
    if (pageNum * PAGE >= page.totalCount) return byId;
  }
}

function provider(send) {
  const call = client(send);
  const listings = new Map();
  const org = (orgId) => {
    if (!listings.has(orgId)) listings.set(orgId, listing(call, orgId));
    return listings.get(orgId);
  };
  const projects = new Map();
  const project = (groupId) => {
    if (!projects.has(groupId)) projects.set(groupId, projectJobs(call, groupId));
    return projects.get(groupId);
  };
  const withoutProvider = (news) => {
    const { __provider, ...inputs } = news;
    return inputs;
  };
  const apiKey = {
    check: async (_olds, news) => {
      const inputs = withoutProvider(news);
      if (Array.isArray(inputs.roles)) inputs.roles = roleSet(inputs.roles);
      return { inputs, failures: [] };
    },
    diff: async () => ({ changes: false }),
    async create(inputs) {
      let key = await org(inputs.orgId).find(inputs);
      if (key === undefined) throw new Error(`no such key in ${inputs.orgId}`);
      const adopted = { desc: key.desc ?? "", roles: orgRoles(key) };
      const change = {};
      if (inputs.desc !== undefined && inputs.desc !== adopted.desc) change.desc = inputs.desc;
      if (inputs.roles !== undefined && roleSet(inputs.roles).join() !== adopted.roles.join()) {
        change.roles = roleSet(inputs.roles);
      }
      if (Object.keys(change).length > 0) {
        const before = key;
        key = await call("PATCH", `/orgs/${inputs.orgId}/apiKeys/${key.id}`, change);
        if (!key.roles.some((r) => r.groupId !== undefined)) {
          key.roles.push(...before.roles.filter((r) => r.groupId !== undefined));
        }
        org(inputs.orgId).remember(key);
      }
      return { id: key.id, outs: outputs(inputs, key, adopted) };
    },
    async read(id, props) {
      const key = await org(props.orgId).find({ apiKeyId: id });
      if (key === undefined) return { id: "" };
      const inputs = {
        orgId: props.orgId,
        publicKey: key.publicKey,
        desc: key.desc ?? "",
        roles: orgRoles(key),
      };
      return { id, props: outputs(inputs, key, props.adopted), inputs };
    },
    update: async (_id, _olds, news) => ({ outs: news }),
    delete: async () => {},
  };
  const logCollectionJob = {
    check: async (_olds, news) => ({ inputs: withoutProvider(news), failures: [] }),
    diff: async () => ({ changes: false }),
    async create(inputs) {
      const { groupId, __provider, ...job } = inputs;
      const created = await call("POST", `/groups/${groupId}/logCollectionJobs`, job);
      const outs = { ...withoutProvider(inputs), jobId: created.id, ...jobFields(undefined) };
      return { id: created.id, outs: { ...outs, managed: { expirationDate: false }, stateVersion: 1 } };
    },
    async read(id, props) {
      const record = (await project(props.groupId)).get(id);
      if (record === undefined) return { id: "" };
      const { __provider, ...state } = props;
      return { id, props: { ...state, ...jobFields(record) } };
    },
    update: async (_id, _olds, news) => ({ outs: news }),
    delete: async () => {},
  };
  return { apiKey, logCollectionJob };
}

let built;
const transports = { undici: undiciTransport, http: httpTransport };

/** The provider over one transport, made once per host. */
function over(name) {
  built ??= {};
  built[name] ??= provider(transports[name]());
  return built[name];
}

/**
 * What `pulumi.dynamic.Resource` would serialize for `resource` ("apiKey" or "logCollectionJob") over
 * `transport` ("undici" or "http"): each method requires this package by name on the host.
 */
function serializable(transport, resource) {
  const methods = () => require("opsmanager-ideal").over(transport)[resource];
  return {
    configure: (req) => require("opsmanager-ideal").configure(req),
    check: (olds, news) => methods().check(olds, news),
    diff: (id, olds, news) => methods().diff(id, olds, news),
    create: (inputs) => methods().create(inputs),
    read: (id, props) => methods().read(id, props),
    update: (id, olds, news) => methods().update(id, olds, news),
    delete: (id, props) => methods().delete(id, props),
  };
}

module.exports = { configure, over, serializable };

/**
 * The provider a user would write without pulumi-opsmanager, as the benchmark's baseline: urllib's
 * `digestAuth` (a 401 then the real request, for every request), the whole organization listed page by
 * page at the server's default page size for every create and read, one PATCH carrying desc and roles,
 * a job read with its own GET (as MongoDB's Go client and mongocli read one).
 */
let settings;

function configure(req) {
  const get = (key, env) => req.config.get(`opsmanager:${key}`) ?? process.env[env];
  settings = {
    apiRoot: `${get("baseUrl", "OPSMANAGER_BASE_URL")}/api/public/v1.0`,
    digestAuth: `${get("publicKey", "OPSMANAGER_PUBLIC_KEY")}:${get("privateKey", "OPSMANAGER_PRIVATE_KEY")}`,
  };
}

async function call(method, path, body) {
  const { request } = require("urllib");
  const res = await request(`${settings.apiRoot}${path}`, {
    method,
    digestAuth: settings.digestAuth,
    ...(body === undefined ? {} : { content: JSON.stringify(body), contentType: "application/json" }),
    dataType: "json",
    timeout: 30_000,
  });
  if (res.status >= 300)
    throw new Error(`${method} ${path} failed: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

async function listKeys(orgId) {
  const keys = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = await call("GET", `/orgs/${orgId}/apiKeys?pageNum=${pageNum}`);
    keys.push(...page.results);
    if (!page.links.some((link) => link.rel === "next")) return keys;
  }
}

const orgRoles = (key) =>
  key.roles
    .filter((r) => r.orgId !== undefined)
    .map((r) => r.roleName)
    .sort();

function keyOutputs(inputs, key) {
  return { ...inputs, apiKeyId: key.id, publicKey: key.publicKey, desc: key.desc, roles: orgRoles(key) };
}

function differs(inputs, key) {
  return (
    (inputs.desc !== undefined && inputs.desc !== key.desc) ||
    (inputs.roles !== undefined && [...inputs.roles].sort().join() !== orgRoles(key).join())
  );
}

const apiKey = {
  check: async (_olds, news) => ({ inputs: news }),
  diff: async (_id, olds, news) => ({
    changes: olds.desc !== news.desc || olds.roles?.join() !== news.roles?.join(),
  }),
  async create(inputs) {
    const keys = await listKeys(inputs.orgId);
    const key = keys.find((k) => k.id === inputs.apiKeyId || k.publicKey === inputs.publicKey);
    if (key === undefined) throw new Error(`no such key in ${inputs.orgId}`);
    if (!differs(inputs, key)) return { id: key.id, outs: keyOutputs(inputs, key) };
    const patched = await call("PATCH", `/orgs/${inputs.orgId}/apiKeys/${key.id}`, {
      desc: inputs.desc,
      roles: inputs.roles,
    });
    return { id: key.id, outs: keyOutputs(inputs, patched) };
  },
  async read(id, props) {
    const key = (await listKeys(props.orgId)).find((k) => k.id === id);
    return key === undefined ? { id: "" } : { id, props: keyOutputs(props, key) };
  },
  async update(id, _olds, news) {
    const patched = await call("PATCH", `/orgs/${news.orgId}/apiKeys/${id}`, {
      desc: news.desc,
      roles: news.roles,
    });
    return { outs: keyOutputs(news, patched) };
  },
  delete: async () => {},
};

const logCollectionJob = {
  check: async (_olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  async create(inputs) {
    // The host passes the serialized provider among the inputs; the API refuses unknown attributes.
    const { groupId, __provider, ...job } = inputs;
    const created = await call("POST", `/groups/${groupId}/logCollectionJobs`, job);
    return { id: created.id, outs: { ...inputs, jobId: created.id } };
  },
  async read(id, props) {
    const job = await call("GET", `/groups/${props.groupId}/logCollectionJobs/${id}`);
    const { status, creationDate, expirationDate, downloadUrl, userId, rootResourceName, rootResourceType } =
      job;
    return {
      id,
      props: {
        ...props,
        status,
        creationDate,
        expirationDate,
        downloadUrl: downloadUrl ?? "",
        userId,
        rootResourceName,
        rootResourceType,
        uncompressedSizeTotalBytes: job.uncompressedSizeTotalBytes,
      },
    };
  },
  update: async (_id, _olds, news) => ({ outs: news }),
  delete: async () => {},
};

// What `pulumi.dynamic.Resource` serializes: each method requires this package by name on the host.
const orgApiKeyProvider = {
  configure: (req) => require("opsmanager-baseline").configure(req),
  check: (olds, news) => require("opsmanager-baseline").apiKey.check(olds, news),
  diff: (id, olds, news) => require("opsmanager-baseline").apiKey.diff(id, olds, news),
  create: (inputs) => require("opsmanager-baseline").apiKey.create(inputs),
  read: (id, props) => require("opsmanager-baseline").apiKey.read(id, props),
  update: (id, olds, news) => require("opsmanager-baseline").apiKey.update(id, olds, news),
  delete: (id, props) => require("opsmanager-baseline").apiKey.delete(id, props),
};

const logCollectionJobProvider = {
  configure: (req) => require("opsmanager-baseline").configure(req),
  check: (olds, news) => require("opsmanager-baseline").logCollectionJob.check(olds, news),
  diff: (id, olds, news) => require("opsmanager-baseline").logCollectionJob.diff(id, olds, news),
  create: (inputs) => require("opsmanager-baseline").logCollectionJob.create(inputs),
  read: (id, props) => require("opsmanager-baseline").logCollectionJob.read(id, props),
  update: (id, olds, news) => require("opsmanager-baseline").logCollectionJob.update(id, olds, news),
  delete: (id, props) => require("opsmanager-baseline").logCollectionJob.delete(id, props),
};

module.exports = { configure, apiKey, logCollectionJob, orgApiKeyProvider, logCollectionJobProvider };

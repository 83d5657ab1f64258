/**
 * The provider objects that `pulumi.dynamic.Resource` serializes into state as `__provider`. Each
 * method `require`s the package's host entry by name at call time and captures nothing else: no
 * credential, schema, agent or module state ends up in the serialized text (NOTES.md;
 * pulumi/pulumi#8265, #5294), and the text resolves on any machine that has the package installed.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The serialized provider of {@link OrgApiKey}. */
export const orgApiKeyProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => require("pulumi-opsmanager/host").configure(req),
  check: (olds, news) => require("pulumi-opsmanager/host").orgApiKeyMethods.check(olds, news),
  diff: (id, olds, news) => require("pulumi-opsmanager/host").orgApiKeyMethods.diff(id, olds, news),
  create: (inputs) => require("pulumi-opsmanager/host").orgApiKeyMethods.create(inputs),
  read: (id, props) => require("pulumi-opsmanager/host").orgApiKeyMethods.read(id, props),
  update: (id, olds, news) => require("pulumi-opsmanager/host").orgApiKeyMethods.update(id, olds, news),
  delete: (id, props) => require("pulumi-opsmanager/host").orgApiKeyMethods.delete(id, props),
};

/** The serialized provider of {@link LogCollectionJob}. */
export const logCollectionJobProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => require("pulumi-opsmanager/host").configure(req),
  check: (olds, news) => require("pulumi-opsmanager/host").logCollectionJobMethods.check(olds, news),
  diff: (id, olds, news) => require("pulumi-opsmanager/host").logCollectionJobMethods.diff(id, olds, news),
  create: (inputs) => require("pulumi-opsmanager/host").logCollectionJobMethods.create(inputs),
  read: (id, props) => require("pulumi-opsmanager/host").logCollectionJobMethods.read(id, props),
  update: (id, olds, news) =>
    require("pulumi-opsmanager/host").logCollectionJobMethods.update(id, olds, news),
  delete: (id, props) => require("pulumi-opsmanager/host").logCollectionJobMethods.delete(id, props),
};

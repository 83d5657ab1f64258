/**
 * The provider objects that `pulumi.dynamic.Resource` serializes into state as `__provider`. Each
 * method `require`s the package's host entry by name at call time and captures nothing else: a captured
 * value is written into state in plain text (pulumi/pulumi#8265), and captured schemas and agents fail
 * to serialize (pulumi/pulumi#5294). The text resolves on any machine that has the package installed.
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * This package's host entry, as the dynamic-provider host can reach it. The host loads a serialized
 * provider's text with no file name, so its `require` resolves from the program's directory, where npm
 * and yarn put every package a program uses and pnpm only the program's own dependencies: a package
 * installed for another package is reachable only from inside pnpm's store, as from the SDK's copy
 * there that runs the host (`require.main`, absent when the host was started from an ES module), hence
 * the second try. Only the entry itself not being found leads to it and to the advice, a plain `Error`
 * since none of the package's classes could be loaded; any other failure is thrown as it is. No
 * comments in the body: it is serialized into every resource's state.
 */
function host() {
  const notFound = (error: unknown) =>
    (error as { code?: unknown } | undefined)?.code === "MODULE_NOT_FOUND" &&
    String((error as Error).message).startsWith("Cannot find module 'pulumi-opsmanager/host'");
  try {
    return require("pulumi-opsmanager/host");
  } catch (error) {
    if (!notFound(error)) throw error;
    if (require.main !== undefined) {
      try {
        return require.main.require("pulumi-opsmanager/host");
      } catch (again) {
        if (!notFound(again)) throw again;
      }
    }
    throw new Error(
      `pulumi-opsmanager could not be loaded where Pulumi runs this stack's providers, the program's directory ${process.cwd()} (${String((error as Error).message).split("\n")[0]}). Add it to the dependencies of the program's own package.json (npm install pulumi-opsmanager, or pnpm add pulumi-opsmanager): with pnpm, a package installed only for another package may not be reachable there.`,
    );
  }
}

/** The serialized provider of {@link OrgApiKey}. */
export const orgApiKeyProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => host().configure(req),
  check: (olds, news) => host().orgApiKeyMethods.check(olds, news),
  diff: (id, olds, news) => host().orgApiKeyMethods.diff(id, olds, news),
  create: (inputs) => host().orgApiKeyMethods.create(inputs),
  read: (id, props) => host().orgApiKeyMethods.read(id, props),
  update: (id, olds, news) => host().orgApiKeyMethods.update(id, olds, news),
  delete: (id, props) => host().orgApiKeyMethods.delete(id, props),
};

/** The serialized provider of {@link LogCollectionJob}. */
export const logCollectionJobProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => host().configure(req),
  check: (olds, news) => host().logCollectionJobMethods.check(olds, news),
  diff: (id, olds, news) => host().logCollectionJobMethods.diff(id, olds, news),
  create: (inputs) => host().logCollectionJobMethods.create(inputs),
  read: (id, props) => host().logCollectionJobMethods.read(id, props),
  update: (id, olds, news) => host().logCollectionJobMethods.update(id, olds, news),
  delete: (id, props) => host().logCollectionJobMethods.delete(id, props),
};

/** The serialized provider of {@link ApiKeyProjectAssignment}. */
export const apiKeyProjectAssignmentProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => host().configure(req),
  check: (olds, news) => host().apiKeyProjectAssignmentMethods.check(olds, news),
  diff: (id, olds, news) => host().apiKeyProjectAssignmentMethods.diff(id, olds, news),
  create: (inputs) => host().apiKeyProjectAssignmentMethods.create(inputs),
  read: (id, props) => host().apiKeyProjectAssignmentMethods.read(id, props),
  update: (id, olds, news) => host().apiKeyProjectAssignmentMethods.update(id, olds, news),
  delete: (id, props) => host().apiKeyProjectAssignmentMethods.delete(id, props),
};

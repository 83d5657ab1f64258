/**
 * The `__provider` text each resource stores in state: the CommonJS module that Pulumi's
 * dynamic-provider host loads (`requireFromString(text).handler()`) to run the resource's methods.
 * It is written here, not produced by the SDK's closure serializer as `pulumi.dynamic.Resource` would:
 * the serializer's text for the same seven one-line methods was 3.3 KB, stored twice (inputs and
 * outputs) in every resource's state, which a file backend rewrites whole before and after each step.
 * This one is a third of that. It `require`s the package's host entry by name at call time and holds
 * nothing else: no setting and no credential (a value captured in the text would be in state in plain
 * text, pulumi/pulumi#8265). It names only the host entry's exports that every version has had, so it
 * resolves on any machine that has the package installed.
 *
 * The host loads the text with no file name, so its `require` resolves from the program's directory,
 * where npm and yarn put every package a program uses and pnpm only the program's own dependencies: a
 * package installed for another package is reachable only from inside pnpm's store, as from the SDK's
 * copy there that runs the host (`require.main`, absent when the host was started from an ES module),
 * hence the second try. Only the entry itself not being found leads to it and to the advice, a plain
 * `Error` since none of the package's classes could be loaded; any other failure is thrown as it is.
 */

/** The host entry's export that holds one resource's methods (provider/host.ts). */
export type MethodsExport = "orgApiKeyMethods" | "logCollectionJobMethods" | "apiKeyProjectAssignmentMethods";

/** The provider text of the resource whose methods are the host entry's `exportName` export. */
export function providerText(exportName: MethodsExport): string {
  return `"use strict";
const notFound = (error) => error?.code === "MODULE_NOT_FOUND" && String(error.message).startsWith("Cannot find module 'pulumi-opsmanager/host'");
function host() {
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
    throw new Error(\`pulumi-opsmanager could not be loaded where Pulumi runs this stack's providers, the program's directory \${process.cwd()} (\${String(error.message).split("\\n")[0]}). Add it to the dependencies of the program's own package.json (npm install pulumi-opsmanager, or pnpm add pulumi-opsmanager): with pnpm, a package installed only for another package may not be reachable there.\`);
  }
}
const methods = ["check", "diff", "create", "read", "update", "delete"];
exports.handler = () => ({
  configure: (req) => host().configure(req),
  ...Object.fromEntries(methods.map((name) => [name, (...args) => host().${exportName}[name](...args)])),
});
`;
}

/** The provider text of {@link OrgApiKey}. */
export const ORG_API_KEY_PROVIDER = providerText("orgApiKeyMethods");
/** The provider text of {@link LogCollectionJob}. */
export const LOG_COLLECTION_JOB_PROVIDER = providerText("logCollectionJobMethods");
/** The provider text of {@link ApiKeyProjectAssignment}. */
export const API_KEY_PROJECT_ASSIGNMENT_PROVIDER = providerText("apiKeyProjectAssignmentMethods");

/**
 * The type token `pulumi.dynamic.Resource` gives a resource of module `opsmanager` and type `type`:
 * the engine sends it to Pulumi's dynamic-provider host, and a stack's resources keep their URNs.
 */
export const dynamicType = (type: string): string => `pulumi-nodejs:dynamic/opsmanager:${type}`;

/**
 * The plugin's version, package.json's: the one version of the schema, every SDK, the release's archives
 * and GetPluginInfo. `npm run gen:schema` (tools/gen-schema.js) writes this file from package.json; the
 * plugin never reads package.json at run time, so that a bundled binary, which has none beside it,
 * answers with the same version.
 */
export const VERSION = "0.1.0";

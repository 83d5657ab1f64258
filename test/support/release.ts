/**
 * The release folder for the tests of what it holds: tools/release/release-dir.js's, shared with the
 * benchmarks (OPSMANAGER_RELEASE_DIR, else a `dist-release/` built from this state of the checkout).
 */
import { repoRoot } from "./program-dir";

// The lookup is plain CommonJS, shared with bench/lib/release.js.
const shared = require("../../tools/release/release-dir.js") as {
  RELEASE_BUILD_TIMEOUT_MS: number;
  releaseDir(root: string): Promise<string>;
};

/** How long a build of the release may take here: rcodesign's first build is most of it. */
export const RELEASE_BUILD_TIMEOUT_MS = shared.RELEASE_BUILD_TIMEOUT_MS;

/** The release folder, built first when neither OPSMANAGER_RELEASE_DIR nor dist-release/ holds one. */
export function releaseDir(): Promise<string> {
  return shared.releaseDir(repoRoot());
}

/**
 * The release's checksums and what a user sees when a download goes wrong, under the real CLI with no
 * node on the machine: `pulumi plugin install … --checksum <checksums.txt's SHA-256>` installs from the
 * release server (the command the README gives teams that pin one, since pulumi-plugin.json cannot
 * carry a checksum), a wrong checksum fails with the CLI's own message, and a release without this
 * platform's archive fails `pulumi up` with the CLI's message naming the URL, before any request reaches
 * the Ops Manager server.
 */
import * as fs from "node:fs";
import { beforeAll, describe, it } from "vitest";
import { languageTools } from "../engine/support/languages";
import { noNodeMissing } from "../support/no-node";
import { describeNeeding } from "../support/prerequisite";
import { releasedExample } from "./support/programs";
import {
  archiveName,
  checksums,
  DOWNLOAD_URL,
  HOST_PLATFORM,
  installedPlugin,
  RELEASE_LIMIT_MS,
  releaseDir,
  releaseMissing,
  VERSION,
} from "./support/release";
import { initStack, openReleaseWorld, pluginInstalled } from "./support/user";

const { tools, missing: noTools } = languageTools();
const missing = releaseMissing() ?? noNodeMissing() ?? noTools;

const ARCHIVE = archiveName(HOST_PLATFORM);

describeNeeding(
  "test/release/checksums: the release's checksums, and a download that fails, under the real CLI",
  missing,
  () => {
    let release: string;
    let sum: string;
    beforeAll(async () => {
      release = await releaseDir();
      sum = checksums(release).get(ARCHIVE) ?? "";
    }, RELEASE_LIMIT_MS);

    const install = (checksum: string) => [
      "plugin",
      "install",
      "resource",
      "opsmanager",
      VERSION,
      "--server",
      DOWNLOAD_URL,
      "--checksum",
      checksum,
    ];

    describe.concurrent("pulumi plugin install --checksum", () => {
      it("checksums.txt has one SHA-256 per archive of the release, sorted by name, and each is the archive's", async ({
        expect,
      }) => {
        const { createHash } = await import("node:crypto");
        const archives = fs.readdirSync(release).filter((name) => name.endsWith(".tar.gz"));
        const names = [...checksums(release).keys()];
        expect(names).toEqual([...archives].sort());
        expect(names).toContain(ARCHIVE);
        for (const name of names) {
          const actual = createHash("sha256")
            .update(fs.readFileSync(`${release}/${name}`))
            .digest("hex");
          expect(checksums(release).get(name), name).toBe(actual);
        }
      });

      it("the checksum from checksums.txt installs the plugin from the release server", async ({
        expect,
        onTestFinished,
      }) => {
        const { user, server } = await openReleaseWorld(onTestFinished, release, { bin: tools!.bin });
        expect(sum).toMatch(/^[0-9a-f]{64}$/);
        await user.pulumi(install(sum));
        expect(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
          `GET /${ARCHIVE} 200`,
        ]);
        expect(pluginInstalled(installedPlugin(user.home))).toBe(true);
      });

      it("a mirror's versioned folder in the override (the CLI's VERSION placeholder, as docs/installation-configuration.md shows it) serves the download", async ({
        expect,
        onTestFinished,
      }) => {
        const { user, server } = await openReleaseWorld(
          onTestFinished,
          release,
          { bin: tools!.bin },
          { serve: { prefix: `/pulumi-opsmanager/v${VERSION}` } },
        );
        // The CLI puts the version in for ${VERSION}, then asks for the archive's name under it.
        user.env.PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES = `^${DOWNLOAD_URL}=${server.url}/pulumi-opsmanager/v\${VERSION}`;
        await user.pulumi(install(sum));
        expect(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
          `GET /pulumi-opsmanager/v${VERSION}/${ARCHIVE} 200`,
        ]);
        expect(pluginInstalled(installedPlugin(user.home))).toBe(true);
      });

      it("a wrong checksum fails with the CLI's message, and installs nothing", async ({
        expect,
        onTestFinished,
      }) => {
        const { user, server } = await openReleaseWorld(onTestFinished, release, { bin: tools!.bin });
        const wrong = `${sum.slice(0, 63)}${sum.endsWith("0") ? "1" : "0"}`;
        const result = await user.pulumi(install(wrong), { allowFailure: true });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`invalid checksum, expected ${wrong}, actual ${sum}`);
        // Not retried: one download, then the refusal.
        expect(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
          `GET /${ARCHIVE} 200`,
        ]);
        expect(pluginInstalled(installedPlugin(user.home))).toBe(false);
      });
    });

    it("a release without this platform's archive fails `pulumi up` with the CLI's message naming the URL, before any request reaches Ops Manager", async ({
      expect,
      onTestFinished,
    }) => {
      const { user, server, sim } = await openReleaseWorld(
        onTestFinished,
        release,
        { bin: tools!.bin, path: [tools!.hosts] },
        { files: releasedExample("ci-key-yaml"), serve: { without: [ARCHIVE] } },
      );
      await initStack(user, sim, { orgId: sim.orgId, groupId: sim.groupId });
      sim.resetRequests();
      const up = await user.pulumi(["up", "--yes", "--skip-preview"], { allowFailure: true });
      expect(up.code).not.toBe(0);
      expect(`${up.stdout}${up.stderr}`).toContain(
        `404 HTTP error fetching plugin from ${server.url}/${ARCHIVE}`,
      );
      // Only the archive was asked for (the CLI asks again at each step that needs the plugin; a 404 is
      // not retried within one).
      expect(server.requests.length).toBeGreaterThan(0);
      expect(new Set(server.requests.map((r) => `${r.method} ${r.path} ${r.status}`))).toEqual(
        new Set([`GET /${ARCHIVE} 404`]),
      );
      expect(sim.requests).toEqual([]);
      expect(pluginInstalled(installedPlugin(user.home))).toBe(false);
    });
  },
  { timeout: RELEASE_LIMIT_MS },
);

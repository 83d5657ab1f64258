/**
 * The release's other platforms, checked here where only linux-amd64 runs natively:
 *
 * - linux-arm64: an AArch64 ELF that answers GetPluginInfo and GetSchema over gRPC under qemu-user
 *   (Debian's qemu-user-static, with Debian's arm64 C and C++ runtime as its sysroot);
 * - windows-amd64: its PE headers (AMD64, PE32+, a console program), and the same two calls under wine
 *   (Debian's wine64, in a prefix that says Windows 10, which Node requires);
 * - darwin-amd64 and darwin-arm64: thin Mach-O executables of their CPU, carrying Node's single
 *   executable blob (the NODE_SEA segment) and an ad-hoc code signature whose every page hash and
 *   special-slot hash is recomputed here from Apple's published layout (test/release/support/macho.ts),
 *   not by the tool that signed it, and which a changed byte breaks.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeNeeding, itNeeding } from "../support/prerequisite";
import { repoRoot } from "../support/program-dir";
import { startForeignPlugin } from "./support/foreign";
import {
  CPU_TYPE_ARM64,
  CPU_TYPE_X86_64,
  CS_ADHOC,
  CS_LINKER_SIGNED,
  elfMachine,
  MH_EXECUTE,
  PE,
  parseMachO,
  parsePE,
  verifyCodeSignature,
} from "./support/macho";
import {
  DOWNLOAD_URL,
  extractBinary,
  PLATFORMS,
  type Platform,
  RELEASE_LIMIT_MS,
  releaseDir,
  releaseMissing,
  VERSION,
} from "./support/release";

const execFileAsync = promisify(execFile);
const SCHEMA = JSON.parse(
  fs.readFileSync(path.join(repoRoot(), "provider", "plugin", "schema.json"), "utf8"),
);

const RCODESIGN_SCRIPT = path.join(repoRoot(), "tools", "rcodesign", "build.sh");
const EMULATED_LIMIT_MS = 300_000;

const QEMU = "/usr/bin/qemu-aarch64-static";
const ARM64_SYSROOT = "/usr/aarch64-linux-gnu";
const WINE = ["/usr/lib/wine/wine64", "/usr/bin/wine64"].find((file) => fs.existsSync(file));

const qemuMissing = () =>
  fs.existsSync(QEMU) && fs.existsSync(path.join(ARM64_SYSROOT, "lib", "ld-linux-aarch64.so.1"))
    ? undefined
    : `qemu-user-static and an arm64 sysroot (${QEMU}, ${ARM64_SYSROOT}: apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross)`;
const wineMissing = () => (WINE ? undefined : "wine64 (apt-get install wine64)");

/** A wine prefix that says Windows 10 (Node refuses older), made once and reused: making one takes ~30 s. */
async function winePrefix(): Promise<string> {
  const prefix = path.join(os.tmpdir(), `opsm-wine-prefix-${process.getuid?.() ?? 0}`);
  if (fs.existsSync(path.join(prefix, ".opsm-win10"))) return prefix;
  await execFileAsync(WINE!, ["winecfg", "/v", "win10"], {
    env: { ...process.env, WINEPREFIX: prefix, WINEDEBUG: "-all" },
    timeout: EMULATED_LIMIT_MS,
  });
  await fsp.writeFile(path.join(prefix, ".opsm-win10"), "win10\n");
  return prefix;
}

describeNeeding(
  "test/release/platforms: the other platforms' binaries, emulated or read",
  releaseMissing(),
  () => {
    let release: string;
    let work: string;
    const binaries = new Map<Platform, string>();
    beforeAll(async () => {
      release = await releaseDir();
      work = await fsp.mkdtemp(path.join(os.tmpdir(), "opsm-platforms-"));
      for (const platform of PLATFORMS) {
        binaries.set(platform, await extractBinary(release, platform, path.join(work, platform)));
      }
    }, RELEASE_LIMIT_MS);
    afterAll(async () => {
      if (work) await fsp.rm(work, { recursive: true, force: true });
    });

    it("linux-amd64 and linux-arm64 are ELF executables of their CPU", ({ expect }) => {
      expect(elfMachine(fs.readFileSync(binaries.get("linux-amd64")!))).toBe(62);
      expect(elfMachine(fs.readFileSync(binaries.get("linux-arm64")!))).toBe(183);
    });

    itNeeding(
      "linux-arm64 answers GetPluginInfo and GetSchema under qemu-user",
      qemuMissing(),
      async () => {
        const plugin = await startForeignPlugin(QEMU, ["-L", ARM64_SYSROOT, binaries.get("linux-arm64")!]);
        try {
          expect(await plugin.pluginInfo()).toBe(VERSION);
          const schema = await plugin.schema();
          expect(schema).toEqual(SCHEMA);
          expect(schema.version).toBe(VERSION);
          expect(schema.pluginDownloadURL).toBe(DOWNLOAD_URL);
        } finally {
          await plugin.close();
        }
      },
      EMULATED_LIMIT_MS,
    );

    it("windows-amd64 is a PE32+ console executable for AMD64", ({ expect }) => {
      const pe = parsePE(fs.readFileSync(binaries.get("windows-amd64")!));
      expect(pe.machine).toBe(PE.AMD64);
      expect(pe.magic).toBe(PE.PE32_PLUS);
      expect(pe.subsystem).toBe(PE.CONSOLE);
      expect(pe.characteristics & PE.EXECUTABLE_IMAGE).toBe(PE.EXECUTABLE_IMAGE);
      // Node's Authenticode signature is taken off before the injection, which would leave it invalid.
      expect(pe.certificateTableBytes, "an Authenticode signature left in the executable").toBe(0);
    });

    itNeeding(
      "windows-amd64 answers GetPluginInfo and GetSchema under wine",
      wineMissing(),
      async () => {
        const prefix = await winePrefix();
        const plugin = await startForeignPlugin(WINE!, [binaries.get("windows-amd64")!], {
          env: { WINEPREFIX: prefix, WINEDEBUG: "-all" },
          outputDir: work,
        });
        try {
          expect(await plugin.pluginInfo()).toBe(VERSION);
          expect(await plugin.schema()).toEqual(SCHEMA);
        } finally {
          await plugin.close();
        }
      },
      EMULATED_LIMIT_MS,
    );

    describe("darwin: Mach-O executables with a valid ad-hoc signature", () => {
      for (const [platform, cputype] of [
        ["darwin-amd64", CPU_TYPE_X86_64],
        ["darwin-arm64", CPU_TYPE_ARM64],
      ] as const) {
        it(`${platform}: a thin ${cputype === CPU_TYPE_ARM64 ? "arm64" : "x86_64"} executable carrying the single executable blob, every page hash of its signature right`, async ({
          expect,
        }) => {
          const file = fs.readFileSync(binaries.get(platform)!);
          const macho = parseMachO(file);
          expect(macho.cputype).toBe(cputype);
          expect(macho.filetype).toBe(MH_EXECUTE);
          // Node reads the application from this segment (postject's --macho-segment-name NODE_SEA).
          expect(macho.segments.map((s) => s.name)).toContain("NODE_SEA");
          const signature = macho.signature!;
          expect(signature, "LC_CODE_SIGNATURE").toBeDefined();
          // The signature is the file's last bytes, inside __LINKEDIT, the last segment.
          const linkedit = macho.segments.at(-1)!;
          expect(linkedit.name).toBe("__LINKEDIT");
          expect(signature.dataoff + signature.datasize).toBeLessThanOrEqual(
            linkedit.fileoff + linkedit.filesize,
          );
          expect(file.length).toBeLessThanOrEqual(linkedit.fileoff + linkedit.filesize);

          const check = verifyCodeSignature(file, macho);
          expect(check.mismatches).toEqual([]);
          const sha256 = check.codeDirectories.find((cd) => cd.hashType === 2);
          expect(sha256, "a SHA-256 CodeDirectory").toBeDefined();
          for (const cd of check.codeDirectories) {
            expect(cd.flags & CS_ADHOC, "ad hoc").toBe(CS_ADHOC);
            expect(cd.flags & CS_LINKER_SIGNED, "not the linker's signature").toBe(0);
            expect(cd.codeLimit, "the hashes cover everything before the signature").toBe(signature.dataoff);
            expect(cd.nCodeSlots).toBe(Math.ceil(cd.codeLimit / cd.pageSize));
            expect(cd.identifier).not.toBe("");
          }
          expect(check.checked).toBeGreaterThan(sha256!.nCodeSlots);

          // The check can fail: one byte changed in the blob's segment breaks exactly its page.
          const blob = macho.segments.find((s) => s.name === "NODE_SEA")!;
          const tampered = Buffer.from(file);
          const at = blob.fileoff + Math.floor(blob.filesize / 2);
          tampered[at] = (tampered[at]! + 1) % 256;
          const broken = verifyCodeSignature(tampered, macho).mismatches;
          expect(broken).toEqual(
            check.codeDirectories.map(
              (cd) => `page ${Math.floor(at / cd.pageSize)} of the CodeDirectory in slot ${cd.slot}`,
            ),
          );
        });
      }
    });

    // rcodesign (the signer, tools/rcodesign) reads the same signature, where it is built (.ci/run builds
    // it for the release and names it in OPSMANAGER_RCODESIGN). Its `verify` cannot serve: it reports the
    // empty CMS blob every ad-hoc signature carries as an error ("CMS error: missing further values"), a
    // known fault of that command, so the comparison is of what it reads.
    const rcodesign = rcodesignBinary();
    if (rcodesign) {
      it(
        "rcodesign print-signature-info reads the same ad-hoc CodeDirectory from both darwin binaries",
        async () => {
          for (const platform of ["darwin-amd64", "darwin-arm64"] as const) {
            const file = fs.readFileSync(binaries.get(platform)!);
            const cd = verifyCodeSignature(file, parseMachO(file)).codeDirectories.find((c) => c.slot === 0)!;
            const { stdout } = await execFileAsync(
              rcodesign,
              ["print-signature-info", binaries.get(platform)!],
              {
                maxBuffer: 16 * 1024 * 1024,
              },
            );
            expect(stdout).toMatch(
              new RegExp(
                `- slot: CodeDirectory \\(0\\)\\n +magic: fade0c02\\n +length: \\d+\\n +sha1: [0-9a-f]+\\n +sha256: ${cd.sha256}\\n`,
              ),
            );
            expect(stdout).toContain("flags: CodeSignatureFlags(ADHOC)");
            expect(stdout).toContain(`identifier: ${cd.identifier}`);
            expect(stdout).toContain(`signed_entity_size: ${cd.codeLimit}\n`);
          }
        },
        EMULATED_LIMIT_MS,
      );
    }
  },
  { timeout: RELEASE_LIMIT_MS },
);

/** The rcodesign that tools/rcodesign builds (or OPSMANAGER_RCODESIGN names), if it is there. */
function rcodesignBinary(): string | undefined {
  // The release's own override of the signer's bin folder (tools/release/sea.js).
  const named = process.env.OPSMANAGER_RCODESIGN;
  if (named) return fs.existsSync(path.join(named, "rcodesign")) ? path.join(named, "rcodesign") : undefined;
  try {
    const where = execFileSync("bash", [RCODESIGN_SCRIPT, "--where"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .trim()
      .split("\n")
      .pop();
    // The script prints its bin folder.
    const binary = where ? path.join(where, "rcodesign") : undefined;
    return binary && fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

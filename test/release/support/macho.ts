/**
 * A reader of a thin 64-bit Mach-O executable and its embedded code signature, written from Apple's
 * published layout (`<mach-o/loader.h>`, and `cs_blobs.h` of xnu's `osfmk/kern/`), to check a darwin
 * binary here without macOS and without the tool that signed it:
 *
 * - the header: magic `MH_MAGIC_64`, the CPU type, `MH_EXECUTE`, and its segments;
 * - `LC_CODE_SIGNATURE` points at a SuperBlob (`CSMAGIC_EMBEDDED_SIGNATURE`, big-endian) whose
 *   CodeDirectories (`CSMAGIC_CODEDIRECTORY`) hash every page of the file up to the signature
 *   (`codeLimit`) and, in their special slots, the other blobs (requirements, entitlements);
 * - {@link verifyCodeSignature} hashes those pages and blobs itself and compares each with the
 *   CodeDirectory's slot, which is what the kernel does page by page when it maps the binary.
 */
import { createHash } from "node:crypto";

export const CPU_TYPE_X86_64 = 0x01000007;
export const CPU_TYPE_ARM64 = 0x0100000c;
const MH_MAGIC_64 = 0xfeedfacf;
export const MH_EXECUTE = 2;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_ALTERNATE_CODEDIRECTORIES = 0x1000;
/** `CS_ADHOC`: signed without an identity (no certificate), as `codesign -s -` and rcodesign sign. */
export const CS_ADHOC = 0x2;
/** `CS_LINKER_SIGNED`: the linker's own signature, which any change to the file invalidates. */
export const CS_LINKER_SIGNED = 0x20000;
const HASHES: Record<number, { algorithm: string; size: number }> = {
  1: { algorithm: "sha1", size: 20 },
  2: { algorithm: "sha256", size: 32 },
  3: { algorithm: "sha256", size: 20 }, // CS_HASHTYPE_SHA256_TRUNCATED
  4: { algorithm: "sha384", size: 48 },
};

export interface Segment {
  name: string;
  fileoff: number;
  filesize: number;
}

export interface MachO {
  cputype: number;
  filetype: number;
  segments: Segment[];
  /** LC_CODE_SIGNATURE's blob, if any. */
  signature?: { dataoff: number; datasize: number };
}

/** The header, segments and signature location of a thin 64-bit little-endian Mach-O file. */
export function parseMachO(file: Buffer): MachO {
  if (file.readUInt32LE(0) !== MH_MAGIC_64) {
    throw new Error(`not a thin 64-bit Mach-O file (magic 0x${file.readUInt32LE(0).toString(16)})`);
  }
  const cputype = file.readUInt32LE(4);
  const filetype = file.readUInt32LE(12);
  const ncmds = file.readUInt32LE(16);
  const segments: Segment[] = [];
  let signature: MachO["signature"];
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = file.readUInt32LE(at);
    const size = file.readUInt32LE(at + 4);
    if (cmd === LC_SEGMENT_64) {
      segments.push({
        name: file
          .subarray(at + 8, at + 24)
          .toString("latin1")
          .replace(/\0+$/, ""),
        fileoff: Number(file.readBigUInt64LE(at + 40)),
        filesize: Number(file.readBigUInt64LE(at + 48)),
      });
    } else if (cmd === LC_CODE_SIGNATURE) {
      signature = { dataoff: file.readUInt32LE(at + 8), datasize: file.readUInt32LE(at + 12) };
    }
    at += size;
  }
  return { cputype, filetype, segments, signature };
}

export interface CodeDirectory {
  /** The SuperBlob slot it was found in (0, or 0x1000 + n for an alternate). */
  slot: number;
  version: number;
  flags: number;
  identifier: string;
  hashType: number;
  pageSize: number;
  codeLimit: number;
  nCodeSlots: number;
  nSpecialSlots: number;
  /** SHA-256 of the CodeDirectory blob (its cdhash, untruncated). */
  sha256: string;
}

export interface SignatureCheck {
  codeDirectories: CodeDirectory[];
  /** The SuperBlob's blob types, in its order. */
  blobTypes: number[];
  /** Every slot whose hash did not match: `<slot> of the CodeDirectory in slot <n>`. */
  mismatches: string[];
  /** How many page and special-slot hashes were checked. */
  checked: number;
}

/** Hashes every page and blob the signature covers and compares each with its CodeDirectory slot. */
export function verifyCodeSignature(file: Buffer, macho: MachO): SignatureCheck {
  if (!macho.signature) throw new Error("no LC_CODE_SIGNATURE");
  const { dataoff, datasize } = macho.signature;
  const superBlob = file.subarray(dataoff, dataoff + datasize);
  if (superBlob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) {
    throw new Error(
      `no embedded signature SuperBlob at ${dataoff} (magic 0x${superBlob.readUInt32BE(0).toString(16)})`,
    );
  }
  const count = superBlob.readUInt32BE(8);
  const blobs = new Map<number, Buffer>();
  const blobTypes: number[] = [];
  for (let i = 0; i < count; i++) {
    const type = superBlob.readUInt32BE(12 + i * 8);
    const offset = superBlob.readUInt32BE(16 + i * 8);
    const length = superBlob.readUInt32BE(offset + 4);
    blobs.set(type, superBlob.subarray(offset, offset + length));
    blobTypes.push(type);
  }
  const codeDirectories: CodeDirectory[] = [];
  const mismatches: string[] = [];
  let checked = 0;
  for (const [slot, blob] of blobs) {
    if (slot !== CSSLOT_CODEDIRECTORY && (slot < CSSLOT_ALTERNATE_CODEDIRECTORIES || slot >= 0x1005))
      continue;
    if (blob.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY)
      throw new Error(`slot ${slot} holds no CodeDirectory`);
    const hashOffset = blob.readUInt32BE(16);
    const identOffset = blob.readUInt32BE(20);
    const cd: CodeDirectory = {
      slot,
      version: blob.readUInt32BE(8),
      flags: blob.readUInt32BE(12),
      nSpecialSlots: blob.readUInt32BE(24),
      nCodeSlots: blob.readUInt32BE(28),
      codeLimit: blob.readUInt32BE(32),
      hashType: blob.readUInt8(37),
      pageSize: 2 ** blob.readUInt8(39),
      identifier: blob.subarray(identOffset, blob.indexOf(0, identOffset)).toString("utf8"),
      sha256: createHash("sha256").update(blob).digest("hex"),
    };
    codeDirectories.push(cd);
    const hash = HASHES[cd.hashType];
    if (!hash) throw new Error(`CodeDirectory in slot ${slot}: unknown hash type ${cd.hashType}`);
    if (blob.readUInt8(36) !== hash.size)
      throw new Error(`CodeDirectory in slot ${slot}: hash size ${blob.readUInt8(36)}`);
    const digest = (data: Buffer) => createHash(hash.algorithm).update(data).digest().subarray(0, hash.size);
    const slotHash = (index: number) =>
      blob.subarray(hashOffset + index * hash.size, hashOffset + (index + 1) * hash.size);
    for (let page = 0; page < cd.nCodeSlots; page++) {
      const start = page * cd.pageSize;
      const data = file.subarray(start, Math.min(start + cd.pageSize, cd.codeLimit));
      if (!digest(data).equals(slotHash(page)))
        mismatches.push(`page ${page} of the CodeDirectory in slot ${slot}`);
      checked++;
    }
    // Special slot n (hashed blob of SuperBlob type n) sits n hashes before hashOffset; an absent blob is zeros.
    for (let special = 1; special <= cd.nSpecialSlots; special++) {
      const expected = slotHash(-special);
      const of = blobs.get(special);
      if (of === undefined) {
        if (special !== 1 && special !== 3 && !expected.equals(Buffer.alloc(hash.size))) {
          mismatches.push(`special slot ${special} (no such blob) of the CodeDirectory in slot ${slot}`);
        }
        continue;
      }
      if (!digest(of).equals(expected))
        mismatches.push(`special slot ${special} of the CodeDirectory in slot ${slot}`);
      checked++;
    }
  }
  return { codeDirectories, blobTypes, mismatches, checked };
}

/**
 * The PE headers of a Windows executable: machine, optional header magic, subsystem, and the size of
 * its certificate table (the Authenticode signature; data directory 4, at offset 144 of a PE32+
 * optional header).
 */
export function parsePE(file: Buffer): {
  machine: number;
  magic: number;
  subsystem: number;
  characteristics: number;
  certificateTableBytes: number;
} {
  if (file.toString("latin1", 0, 2) !== "MZ") throw new Error("no MZ header");
  const pe = file.readUInt32LE(0x3c);
  if (file.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error(`no PE signature at ${pe}`);
  const machine = file.readUInt16LE(pe + 4);
  const characteristics = file.readUInt16LE(pe + 22);
  const optional = pe + 24;
  const magic = file.readUInt16LE(optional);
  if (magic !== 0x20b) throw new Error(`not a PE32+ image (optional header magic 0x${magic.toString(16)})`);
  return {
    machine,
    characteristics,
    magic,
    subsystem: file.readUInt16LE(optional + 68),
    certificateTableBytes: file.readUInt32LE(optional + 144 + 4),
  };
}

/** `IMAGE_FILE_MACHINE_AMD64`, PE32+ and `IMAGE_SUBSYSTEM_WINDOWS_CUI` (a console program). */
export const PE = { AMD64: 0x8664, PE32_PLUS: 0x20b, CONSOLE: 3, EXECUTABLE_IMAGE: 0x2 } as const;

/** The ELF machine of a 64-bit little-endian ELF file (62 x86-64, 183 AArch64). */
export function elfMachine(file: Buffer): number {
  if (file.toString("latin1", 0, 4) !== "\x7fELF") throw new Error("not an ELF file");
  return file.readUInt16LE(18);
}

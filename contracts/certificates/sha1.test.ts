import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha1 } from "./sha1";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("SHA-1 (FIPS 180-4)", () => {
  it("gives FIPS 180's examples", () => {
    expect(hex(sha1(new TextEncoder().encode("abc")))).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
    expect(hex(sha1(new TextEncoder().encode("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe("84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    expect(hex(sha1(new Uint8Array(0)))).toBe("da39a3ee5e6b4b0d3255bfef95601890afd80709");
  });

  it("agrees with OpenSSL's at every length across three blocks, around each padding boundary", () => {
    for (let length = 0; length <= 200; length++) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 131 + length * 7) & 0xff);
      expect(hex(sha1(message)), `length ${length}`).toBe(createHash("sha1").update(message).digest("hex"));
    }
  });

  it("chains as PBKDF1 does: 2048 hashes of the last digest", () => {
    let ours: Uint8Array = new TextEncoder().encode("password and salt");
    let theirs: Buffer = Buffer.from(ours);
    for (let i = 0; i < 2048; i++) {
      ours = sha1(ours);
      theirs = createHash("sha1").update(theirs).digest();
    }
    expect(hex(ours)).toBe(theirs.toString("hex"));
  });
});

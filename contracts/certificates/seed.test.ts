import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { seedCbcDecrypt, seedCbcEncrypt, seedDecryptBlock, seedEncryptBlock } from "./seed";

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, "hex"));
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("SEED (RFC 4269)", () => {
  // RFC 4269, appendix B: key, plaintext, ciphertext.
  const vectors = [
    ["00000000000000000000000000000000", "000102030405060708090a0b0c0d0e0f", "5ebac6e0054e166819aff1cc6d346cdb"],
    ["000102030405060708090a0b0c0d0e0f", "00000000000000000000000000000000", "c11f22f20140505084483597e4370f43"],
    ["4706480851e61be85d74bfb3fd956185", "83a2f8a288641fb9a4e9a5cc2f131c7d", "ee54d13ebcae706d226bc3142cd40d4a"],
    ["28dbc3bc49ffd87dcfa509b11d422be7", "b41e6be2eba84a148e2eed84593c5ec7", "9b9b7bfcd1813cb95d0b3618f40f5122"],
  ];

  it.each(vectors)("encrypts the RFC's vector under key %s", (key, plain, cipher) => {
    expect(hex(seedEncryptBlock(bytes(key), bytes(plain)))).toBe(cipher);
    expect(hex(seedDecryptBlock(bytes(key), bytes(cipher)))).toBe(plain);
  });

  it("agrees with OpenSSL's SEED-CBC with PKCS#7 padding, both ways, at every length across two blocks", () => {
    const key = bytes("0123456789abcdeffedcba9876543210");
    const iv = bytes("00112233445566778899aabbccddeeff");
    for (let length = 0; length <= 33; length++) {
      const plain = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      const openssl = execFileSync("openssl", ["enc", "-seed-cbc", "-K", hex(key), "-iv", hex(iv), "-provider", "legacy", "-provider", "default"], { input: plain });
      expect(hex(seedCbcEncrypt(key, iv, plain))).toBe(openssl.toString("hex"));
      expect(hex(seedCbcDecrypt(key, iv, new Uint8Array(openssl))!)).toBe(hex(plain));
    }
  });

  it("answers null, not garbage, when the padding does not check out (a wrong key)", () => {
    const iv = new Uint8Array(16);
    const sealed = seedCbcEncrypt(bytes("0123456789abcdeffedcba9876543210"), iv, new TextEncoder().encode("a private key, say"));
    // With a wrong key the last block decrypts to noise, which these fixed keys do not end in valid padding.
    const opened = Array.from({ length: 8 }, (_, i) => seedCbcDecrypt(new Uint8Array(16).fill(i + 1), iv, sealed));
    expect(opened).toEqual(Array(8).fill(null));
    expect(seedCbcDecrypt(new Uint8Array(16), iv, sealed.subarray(1))).toBeNull();
  });
});

/**
 * SEED (RFC 4269), the 128-bit block cipher Korean joint certificates
 * encrypt their private keys with, and CBC mode with PKCS#7 padding over it.
 * Neither WebCrypto nor the Workers runtime has SEED, so it is here, in
 * plain TypeScript that runs in workerd, Node and browsers alike.
 */

// The S-boxes S1 and S2 of RFC 4269 (section 2.4, appendix A), as hex.
const S1 = hexBytes(
  "a985d6d3541dac255d43181e51fcca632844209de0e2c817a58f037bbb13d2ee708c3fa832ddf674ec950b575c5bbd01241c739810ccf2d92ce772839bd186c9" +
    "6050a3eb0db69e4fb75ac678a612afd561c3b441527d8d081f9900190453f7e1fd762f27b08b0eaba26e934d697c090abfeff3c58714fe64de2e4b1a06216b66" +
    "02f5928a0cb37ed07a4796e52680addfa13037ae36152238f4a7454c81e9849735cbce3c7111c78975fbdaf8945982c4ff493967c0cfd7b80f8e4223916cdba4" +
    "34f148c26f3d2d40be3ebcc1aaba4e553bdc687f9cd84a5677a0ed46b52b65fae3b9b19f5ef9e6b231ea6d5fe4f0cd88163a58d462290733e81b0579906a2a9a",
);
const S2 = hexBytes(
  "38e82da6cfdeb3b8af6055c7446f6b5bc36233b529a0e2a7d39111061cbc364bef886ca817c416f4c245e1d63f3d8e98284ef63ea5f90ddfd82b667a272ff172" +
    "42d441c07367ac8bf7ad801fca2caa34d20beee95d9418f857ae08c513cd86b9ff7dc131f58a6ab1d120d7022204687107db9d9961bee659dd5190dc9aa3abd0" +
    "810f471ae3ec8dbf967b5ca2a163234dc89e9c3a0c2eba6e9f5af292f34978cc15fb70757f351003646dc674d5b4ea097619fe4012e0bd05fa01f02a5ea95643" +
    "8514899bb0e5487997fc1e82218c1b5f7754b21d254f0046ed5852eb7edac9fd3095653cb6e4bb7c0e5039263284699337e724a4cb530a87d94c838fce3b4ab7",
);

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g)!, (h) => parseInt(h, 16));
}

// The G function's tables: each S-box output spread over the four bytes under the masks m0..m3 (RFC 4269, section 2.3).
const M = [0xfc, 0xf3, 0xcf, 0x3f] as const;
const word = (b3: number, b2: number, b1: number, b0: number) => ((b3 << 24) | (b2 << 16) | (b1 << 8) | b0) >>> 0;
const SS0 = Uint32Array.from(S1, (s) => word(s & M[3], s & M[2], s & M[1], s & M[0]));
const SS1 = Uint32Array.from(S2, (s) => word(s & M[0], s & M[3], s & M[2], s & M[1]));
const SS2 = Uint32Array.from(S1, (s) => word(s & M[1], s & M[0], s & M[3], s & M[2]));
const SS3 = Uint32Array.from(S2, (s) => word(s & M[2], s & M[1], s & M[0], s & M[3]));

function g(x: number): number {
  return (SS0[x & 0xff]! ^ SS1[(x >>> 8) & 0xff]! ^ SS2[(x >>> 16) & 0xff]! ^ SS3[x >>> 24]!) >>> 0;
}

// Round constants: KC0 is the golden ratio's bits, each next one the last rotated left by one.
const KC = new Uint32Array(16);
KC[0] = 0x9e3779b9;
for (let i = 1; i < 16; i++) KC[i] = (KC[i - 1]! << 1) | (KC[i - 1]! >>> 31);

/** The 32 round-key words of a 16-byte key. */
function roundKeys(key: Uint8Array): Uint32Array {
  if (key.byteLength !== 16) throw new RangeError("SEED keys are 16 bytes");
  const view = new DataView(key.buffer, key.byteOffset, 16);
  let [k0, k1, k2, k3] = [0, 4, 8, 12].map((o) => view.getUint32(o));
  const out = new Uint32Array(32);
  for (let i = 0; i < 16; i++) {
    out[2 * i] = g((k0! + k2! - KC[i]!) >>> 0);
    out[2 * i + 1] = g((k1! - k3! + KC[i]!) >>> 0);
    if (i % 2 === 0) {
      // (K0 || K1) rotated right by 8 bits
      [k0, k1] = [((k0! >>> 8) | (k1! << 24)) >>> 0, ((k1! >>> 8) | (k0! << 24)) >>> 0];
    } else {
      // (K2 || K3) rotated left by 8 bits
      [k2, k3] = [((k2! << 8) | (k3! >>> 24)) >>> 0, ((k3! << 8) | (k2! >>> 24)) >>> 0];
    }
  }
  return out;
}

/** The round function F on the right half (r0 || r1) with round key (k0 || k1). */
function f(r0: number, r1: number, k0: number, k1: number): [number, number] {
  const a = (r0 ^ k0) >>> 0;
  const b = (r1 ^ k1) >>> 0;
  const t = g((a ^ b) >>> 0);
  const u = g((t + a) >>> 0);
  const d = g((u + t) >>> 0);
  return [(d + u) >>> 0, d];
}

function cryptBlock(keys: Uint32Array, block: Uint8Array, decrypt: boolean): Uint8Array {
  const view = new DataView(block.buffer, block.byteOffset, 16);
  let [l0, l1, r0, r1] = [0, 4, 8, 12].map((o) => view.getUint32(o)) as [number, number, number, number];
  for (let round = 0; round < 16; round++) {
    const i = decrypt ? 15 - round : round;
    const [f0, f1] = f(r0, r1, keys[2 * i]!, keys[2 * i + 1]!);
    [l0, l1, r0, r1] = [r0, r1, (l0 ^ f0) >>> 0, (l1 ^ f1) >>> 0];
  }
  const out = new Uint8Array(16);
  const outView = new DataView(out.buffer);
  [r0, r1, l0, l1].forEach((w, n) => outView.setUint32(n * 4, w));
  return out;
}

/** One 16-byte block, for the RFC's test vectors; files use {@link seedCbcEncrypt} / {@link seedCbcDecrypt}. */
export function seedEncryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  return cryptBlock(roundKeys(key), block, false);
}

export function seedDecryptBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  return cryptBlock(roundKeys(key), block, true);
}

function xor16(a: Uint8Array, b: Uint8Array): Uint8Array {
  return Uint8Array.from({ length: 16 }, (_, i) => a[i]! ^ b[i]!);
}

/** SEED-CBC with PKCS#7 padding. */
export function seedCbcEncrypt(key: Uint8Array, iv: Uint8Array, plain: Uint8Array): Uint8Array {
  const keys = roundKeys(key);
  const pad = 16 - (plain.byteLength % 16);
  const padded = new Uint8Array(plain.byteLength + pad).fill(pad);
  padded.set(plain);
  const out = new Uint8Array(padded.byteLength);
  let previous = iv;
  for (let offset = 0; offset < padded.byteLength; offset += 16) {
    previous = cryptBlock(keys, xor16(padded.subarray(offset, offset + 16), previous), false);
    out.set(previous, offset);
  }
  return out;
}

/**
 * SEED-CBC decryption; null when the padding is not PKCS#7. CBC does not
 * authenticate, so a wrong key shows only as bad padding (or, one time in
 * about 256, as good padding over garbage: callers check what they decoded).
 */
export function seedCbcDecrypt(key: Uint8Array, iv: Uint8Array, cipher: Uint8Array): Uint8Array | null {
  if (iv.byteLength !== 16 || cipher.byteLength === 0 || cipher.byteLength % 16 !== 0) return null;
  const keys = roundKeys(key);
  const out = new Uint8Array(cipher.byteLength);
  let previous = iv;
  for (let offset = 0; offset < cipher.byteLength; offset += 16) {
    const block = cipher.subarray(offset, offset + 16);
    out.set(xor16(cryptBlock(keys, block, true), previous), offset);
    previous = block;
  }
  const pad = out[out.byteLength - 1]!;
  if (pad < 1 || pad > 16 || out.subarray(out.byteLength - pad).some((b) => b !== pad)) return null;
  return out.slice(0, out.byteLength - pad);
}

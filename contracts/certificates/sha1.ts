/**
 * SHA-1 (FIPS 180-4, section 6.1), synchronous, for PBKDF1's chain of 1024-2048 hashes of 20 bytes each
 * (key-file.ts). WebCrypto's digest is asynchronous: every link of the chain was a job handed to another thread and
 * back, about 78 ms of CPU for one 2048-link key in Node (paid again in workerd and in Chromium's renderer, where
 * the sandbox's security module opens keys); this takes about 3 ms. Nothing here is secret-dependent in its timing
 * beyond the input's length, which PBKDF1 fixes.
 */
const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));
// The message schedule, reused: the function is synchronous, so no two calls share it at once.
const w = new Int32Array(80);

export function sha1(message: Uint8Array): Uint8Array<ArrayBuffer> {
  // The message, a 1 bit, zeros to 56 bytes mod 64, and the bit length as a 64-bit big-endian integer.
  const blocks = Math.ceil((message.byteLength + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.byteLength] = 0x80;
  const bits = message.byteLength * 8;
  const end = padded.byteLength;
  const high = Math.floor(bits / 2 ** 32);
  for (let i = 0; i < 4; i++) {
    padded[end - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    padded[end - 4 + i] = (bits >>> (24 - 8 * i)) & 0xff;
  }

  // Signed 32-bit from the start, as every sum below is: V8 keeps them small integers (a few tenths of a ms a chain).
  let h0 = 0x67452301, h1 = 0xefcdab89 | 0, h2 = 0x98badcfe | 0, h3 = 0x10325476, h4 = 0xc3d2e1f0 | 0;
  for (let offset = 0; offset < end; offset += 64) {
    for (let t = 0; t < 16; t++) {
      const i = offset + t * 4;
      w[t] = (padded[i]! << 24) | (padded[i + 1]! << 16) | (padded[i + 2]! << 8) | padded[i + 3]!;
    }
    for (let t = 16; t < 80; t++) w[t] = rotl(w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!, 1);
    let a = h0, b = h1, c = h2, d = h3, e = h4;
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? (b & c) | (~b & d) : t < 40 || t >= 60 ? b ^ c ^ d : (b & c) | (b & d) | (c & d);
      const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const temp = (rotl(a, 5) + f + e + k + w[t]!) | 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = temp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const digest = new Uint8Array(20);
  const words = [h0, h1, h2, h3, h4];
  for (let i = 0; i < 20; i++) digest[i] = (words[i >> 2]! >>> (24 - 8 * (i & 3))) & 0xff;
  return digest;
}

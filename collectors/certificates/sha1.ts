/**
 * SHA-1 (FIPS 180-4, section 6.1), synchronous, for PBKDF1's chain of 1024-2048 hashes of 20 bytes each
 * (key-file.ts). WebCrypto's digest is asynchronous: every link of the chain was a job handed to another thread and
 * back, about 78 ms of CPU for one 2048-link key in Node, and as much again in workerd and in Chromium's
 * renderer; this takes well under a millisecond. Nothing here is secret-dependent in its timing beyond the input's
 * length, which PBKDF1 fixes.
 */
const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6] as const;
const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));

export function sha1(message: Uint8Array): Uint8Array<ArrayBuffer> {
  // The message, a 1 bit, zeros to 56 bytes mod 64, and the bit length as a 64-bit big-endian integer.
  const blocks = Math.ceil((message.byteLength + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.byteLength] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = message.byteLength * 8;
  view.setUint32(padded.byteLength - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.byteLength - 4, bits >>> 0);

  let [h0, h1, h2, h3, h4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const w = new Int32Array(80);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getInt32(block * 64 + t * 4);
    for (let t = 16; t < 80; t++) w[t] = rotl(w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!, 1);
    let [a, b, c, d, e] = [h0, h1, h2, h3, h4];
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? (b & c) | (~b & d) : t < 40 || t >= 60 ? b ^ c ^ d : (b & c) | (b & d) | (c & d);
      const temp = (rotl(a, 5) + f + e + K[Math.floor(t / 20)]! + w[t]!) | 0;
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
  const out = new DataView(digest.buffer);
  [h0, h1, h2, h3, h4].forEach((h, i) => out.setInt32(i * 4, h));
  return digest;
}

/** base64url without padding, as used in tokens, cursors and sealed secrets. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes base64url; returns null for anything that is not. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Standard base64 with padding, as PEM-like files carry it. */
export function base64Encode(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Decodes standard or url-safe base64, padded or not; null for anything that is not. */
export function base64Decode(text: string): Uint8Array<ArrayBuffer> | null {
  return base64UrlDecode(text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"));
}

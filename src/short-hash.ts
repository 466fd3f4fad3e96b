// Owns naming a cache entry by a short hash of what it is for (a workspace's
// path, a provider's address). Not a digest: nothing depends on it but the
// name, two texts that shared one would only share a cache entry (64 bits
// make that too unlikely to matter for the few names a cache holds), and it
// loads nothing, where node:crypto costs a start 2.5 ms.

/** 16 hex digits: FNV-1a of the text's UTF-16 code units in two 32-bit lanes, the second from another offset and mixing its high bits in. */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193) ^ (b >>> 15);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return hex(a) + hex(b);
}

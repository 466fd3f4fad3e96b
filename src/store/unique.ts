// Owns names that must differ between processes and between calls (temp
// files, lock tokens). They are not secrets: uniqueness is all they need, so
// they come from the pid, the clock and Math.random rather than from
// node:crypto, whose modules would cost every command that writes some 3 ms
// to load.
let counter = 0;

/** A token no other process or call makes at the same time: hex, 24 characters or so. */
export function uniqueToken(): string {
  counter = (counter + 1) % 0x10000;
  const random = Math.floor(Math.random() * 0x1000000000000);
  return `${process.pid.toString(16)}${Date.now().toString(16).slice(-6)}${counter.toString(16).padStart(4, "0")}${random.toString(16).padStart(12, "0")}`;
}

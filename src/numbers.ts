// Owns how jp writes a number for people: thousands grouped as en-US writes
// them (12,345). Number.prototype.toLocaleString gives the same text, but its
// first call in a process loads ICU's locale data, some 10 ms of a command
// that prints a single count.

/** Beyond this, String() writes an exponent; toLocaleString writes these few. */
const PLAIN_DIGITS_BELOW = 1e21;

/** `n` as `n.toLocaleString("en-US")` writes it: grouped by commas, at most three decimals. */
export function grouped(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) >= PLAIN_DIGITS_BELOW) return n.toLocaleString("en-US");
  const plain = Number.isInteger(n)
    ? String(Math.abs(n))
    : Math.abs(n)
        .toFixed(3)
        // eslint-disable-next-line regexp/no-super-linear-move -- three decimals at most
        .replace(/\.?0+$/, "");
  const [whole = "0", fraction] = plain.split(".");
  // eslint-disable-next-line regexp/no-super-linear-move -- below PLAIN_DIGITS_BELOW: a few digits
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${n < 0 || Object.is(n, -0) ? "-" : ""}${digits}${fraction === undefined ? "" : `.${fraction}`}`;
}

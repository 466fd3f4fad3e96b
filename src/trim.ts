// Owns cutting characters off the end of a text in one pass. `/[…]+$/` reads
// a run of the characters again from each of them (quadratic in the run: a
// line of a hundred thousand dots took seconds), so jp trims with a loop.

/** `text` without the characters of `chars` that end it. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

// Owns the one cheap token estimate, four characters a token: for where no
// tokenizer is loaded (the window check before a request, the `chars`
// estimate of compaction, the library's compactor). Real counts come from
// tokens/count.ts.

/** Tokens of a text of `chars` characters, rounded up. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / 4);
}

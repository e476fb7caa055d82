// One word for sh: as is when it holds only characters sh reads literally, else in single quotes.
const SAFE_WORD = /^[A-Za-z0-9_/.,:=@%+-]+$/;

export function shellQuote(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

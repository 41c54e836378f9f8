// punycode.js ships no types; the two functions the app uses.
declare module 'punycode.js' {
  /** A domain name in its Unicode form: `xn--` labels decoded, others as they are. */
  export function toUnicode(domain: string): string;
  /** A domain name in its ASCII form: non-ASCII labels encoded as `xn--` labels. */
  export function toASCII(domain: string): string;
  const punycode: { toUnicode: typeof toUnicode; toASCII: typeof toASCII };
  export default punycode;
}

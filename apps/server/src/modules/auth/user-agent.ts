/** Browser and device of a user agent, in words a person recognizes; no dependency needed. */
export function describeUserAgent(userAgent: string | null): { browser: string; device: string } {
  const ua = userAgent ?? '';
  const browser =
    (
      [
        [/Edg(e|A|iOS)?\//, 'Edge'],
        [/OPR\/|Opera/, 'Opera'],
        [/SamsungBrowser\//, 'Samsung Internet'],
        [/Firefox\/|FxiOS\//, 'Firefox'],
        [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
        [/Safari\//, 'Safari'],
        [/curl\//, 'curl'],
        [/node|undici|axios|python-requests|Go-http-client/i, 'Script'],
      ] as const
    ).find(([pattern]) => pattern.test(ua))?.[1] ?? 'Unknown browser';
  const device =
    (
      [
        [/iPhone/, 'iPhone'],
        [/iPad/, 'iPad'],
        [/Android/, 'Android'],
        [/CrOS/, 'ChromeOS'],
        [/Windows/, 'Windows'],
        [/Mac OS X|Macintosh/, 'macOS'],
        [/Linux/, 'Linux'],
      ] as const
    ).find(([pattern]) => pattern.test(ua))?.[1] ?? 'Unknown device';
  return { browser, device };
}

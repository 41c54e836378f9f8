// The guarded fetcher's address check (decision 0067), for any address: whatever way an IPv4
// address of a special-purpose block is written, the fetcher refuses it; and the check refuses
// exactly the blocks of the IANA IPv4 special-purpose registry, multicast and 240/4, compared
// here with a list of our own rather than with ipaddr.js's.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createFetcher, refusal } from './fetcher.ts';

// [first address, prefix length]
const SPECIAL: [number, number][] = (
  [
    ['0.0.0.0', 8], // "this network"
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local, cloud metadata
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation
    ['192.31.196.0', 24], // AS112
    ['192.52.193.0', 24], // AMT
    ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
    ['192.168.0.0', 16], // private
    ['192.175.48.0', 24], // AS112 direct delegation
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // documentation
    ['203.0.113.0', 24], // documentation
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, and the broadcast address
  ] as const
).map(([address, bits]) => [toNumber(address), bits]);

function toNumber(dotted: string): number {
  return dotted.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function dotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function special(n: number): boolean {
  return SPECIAL.some(
    ([first, bits]) => Math.floor(n / 2 ** (32 - bits)) === first / 2 ** (32 - bits),
  );
}

const uint32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
// An address inside a special block, or just outside one of its ends.
const nearSpecial = fc
  .tuple(
    fc.constantFrom(...SPECIAL),
    fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    fc.integer({ min: -2, max: 2 }),
  )
  .map(([[first, bits], offset, edge]) => {
    const size = 2 ** (32 - bits);
    const n =
      edge === 0 ? first + (offset % size) : edge < 0 ? first + edge : first + size - 1 + edge;
    return Math.min(Math.max(n, 0), 2 ** 32 - 1);
  });
const inSpecial = fc
  .tuple(fc.constantFrom(...SPECIAL), fc.integer({ min: 0, max: 2 ** 32 - 1 }))
  .map(([[first, bits], offset]) => first + (offset % 2 ** (32 - bits)));

/** One part in decimal, hex (either case) or octal, as WHATWG URL reads them. */
const part = (value: number) =>
  fc.constantFrom(
    String(value),
    `0x${value.toString(16)}`,
    `0X${value.toString(16).toUpperCase()}`,
    `0${value.toString(8)}`,
  );

/** Ways of writing n as a host: one number, or two, three or four dotted parts. */
const written = (n: number) =>
  fc
    .oneof(
      part(n),
      fc.tuple(part(n >>> 24), part(n & 0xffffff)).map((parts) => parts.join('.')),
      fc
        .tuple(part(n >>> 24), part((n >>> 16) & 255), part(n & 0xffff))
        .map((parts) => parts.join('.')),
      fc
        .tuple(part(n >>> 24), part((n >>> 16) & 255), part((n >>> 8) & 255), part(n & 255))
        .map((parts) => parts.join('.')),
    )
    .chain((host) => fc.constantFrom(host, `${host}.`));

describe('the address check, for any IPv4 address', () => {
  it('refuses exactly the special-purpose blocks', () => {
    fc.assert(
      fc.property(fc.oneof(uint32, nearSpecial), (n) => {
        expect(refusal(dotted(n), 80) !== null).toBe(special(n));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses every IPv4-mapped IPv6 address', () => {
    fc.assert(
      fc.property(uint32, (n) => {
        expect(refusal(`::ffff:${dotted(n)}`, 80)).not.toBeNull();
      }),
    );
  });
});

describe('the fetcher, for any way of writing a special address', () => {
  const fetcher = createFetcher({
    version: '1',
    publicUrl: 'https://portal.example',
    timeoutMs: 2000,
  });
  afterAll(() => fetcher.close());

  it('reads the host as WHATWG URL does and refuses it before connecting', async () => {
    await fc.assert(
      fc.asyncProperty(
        inSpecial.chain((n) => fc.tuple(fc.constant(n), written(n))),
        fc.constantFrom('http', 'https'),
        async ([n, host], scheme) => {
          const result = await fetcher.fetch(`${scheme}://${host}/`);
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect(result.failure).toBe('internal-address');
          expect(new URL(result.url).hostname).toBe(dotted(n));
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * How the client reads `Link` headers (RFC 8288) to find the next page of a
 * list (CONTRACT C8.3): the target of `rel="next"` whatever the order of the
 * links and parameters, quoted or not, with commas inside quoted values, and
 * nothing when no link is `next`. The walks over real answers are in
 * client.test.ts.
 */
import { nextLink } from '@leadlight/client';
import { describe, expect, it } from 'vitest';

describe('C8.3: the next page of a Link header', () => {
  it.each([
    ['</api/v1/leads?cursor=abc&limit=3>; rel="next"', '/api/v1/leads?cursor=abc&limit=3'],
    ['<https://ll.example/api/v1/leads?cursor=a%2Cb>; rel=next', 'https://ll.example/api/v1/leads?cursor=a%2Cb'],
    ['</x?p=1>; rel="prev", </x?p=3>; title="a, b; c"; rel="next"', '/x?p=3'],
    ['</x?p=3>; REL="Next"', '/x?p=3'],
    ['</x?p=9>; rel="last next"', '/x?p=9'],
  ])('%s → %s', (header, expected) => {
    expect(nextLink(header)).toBe(expected);
  });

  it.each([[null], [''], ['</x?p=1>; rel="prev"'], ['</x?p=1>; rel="nextish"']])('%s → no next page', (header) => {
    expect(nextLink(header)).toBeUndefined();
  });
});

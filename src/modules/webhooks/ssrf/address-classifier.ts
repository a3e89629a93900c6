import { BlockList, isIP } from 'node:net';

/**
 * Ranges a webhook may never reach: anything that is not a public unicast address. The
 * lists follow the IANA special-purpose registries; IPv6 forms that embed an IPv4 address
 * (mapped, NAT64, 6to4) are judged by the embedded address.
 */
const V4_RANGES: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_RANGES: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(): Map<string, BlockList> {
  const byReason = new Map<string, BlockList>();
  const add = (address: string, prefix: number, family: 'ipv4' | 'ipv6', reason: string) => {
    const list = byReason.get(reason) ?? new BlockList();
    list.addSubnet(address, prefix, family);
    byReason.set(reason, list);
  };
  for (const [address, prefix, reason] of V4_RANGES) add(address, prefix, 'ipv4', reason);
  for (const [address, prefix, reason] of V6_RANGES) add(address, prefix, 'ipv6', reason);
  return byReason;
}

const BLOCKED = blockList();

/** The IPv4 address carried inside an IPv6 one (::ffff:a.b.c.d, 64:ff9b::/96, 2002::/16), if any. */
function embeddedV4(address: string): string | null {
  const words = expandV6(address);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (zeros(0, 6) && (words[6] !== 0 || words[7] > 1)) return v4(words[6], words[7]); // deprecated IPv4-compatible ::a.b.c.d
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

function expandV6(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const words = [...left, ...Array<number>(Math.max(fill, 0)).fill(0), ...right];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** Why an IP address is not a public unicast address, or null when it is. Non-IPs are refused too. */
export function nonPublicReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const inner = embeddedV4(address);
    if (inner) return nonPublicReason(inner);
  }
  for (const [reason, list] of BLOCKED) {
    if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return reason;
  }
  return null;
}

export function isPublicAddress(address: string): boolean {
  return nonPublicReason(address) === null;
}

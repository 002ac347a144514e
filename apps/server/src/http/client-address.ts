import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * Which machines in front of the server are trusted proxies (`TRUST_PROXY`): none, the nearest `hops`
 * (each appends the address it was reached from to X-Forwarded-For), or those whose address is listed.
 */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

/** Whether the hop'th address from the server (0: the socket's peer) is a proxy whose X-Forwarded-For entry is believed. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** `10.0.0.0/8`, `192.168.1.7`, `fd00::/8` or `::1`: a single address or a subnet; null when it is neither. */
export function parseProxyAddress(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix < 1 || prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * The one trust rule, given to Fastify (`request.ip`) and used by the socket hub, so both name the same
 * client. Only an address is ever trusted: a hop that is not one ends the chain.
 */
export function proxyTrust(setting: TrustProxy): ProxyTrust {
  if (setting === false) return () => false;
  if ('hops' in setting) {
    const { hops } = setting;
    return (address, hop) => hop < hops && isIP(address) !== 0;
  }
  const proxies = new BlockList();
  for (const entry of setting.addresses) {
    const parsed = parseProxyAddress(entry);
    if (!parsed) throw new Error(`not an address or subnet: ${entry}`);
    proxies.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return (address) => {
    const version = isIP(address);
    // BlockList matches an IPv4-mapped IPv6 peer (::ffff:10.0.0.2) against IPv4 subnets.
    return version !== 0 && proxies.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client's address as Fastify's `request.ip` computes it (proxy-addr): the socket's peer, then
 * X-Forwarded-For from right to left while the hop just read is trusted. Entries left of the first
 * untrusted hop were written by the client and are never read. A result that is not an address (only
 * a trusted proxy could have written it) falls back to the nearest hop that is one.
 */
export function clientAddress(request: IncomingMessage, trust: ProxyTrust): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  const header = request.headers['x-forwarded-for'];
  const forwarded = typeof header === 'string' ? header.split(',').map((entry) => entry.trim()) : [];
  const chain = [peer, ...forwarded.filter(Boolean).reverse()];
  let hop = 0;
  while (hop < chain.length - 1 && trust(chain[hop]!, hop)) hop++;
  return isIP(chain[hop]!) !== 0 ? chain[hop]! : (chain[hop - 1] ?? peer);
}

/** An address fit to store (audit rows): an IP address, else nothing. */
export const storedAddress = (address: string | null | undefined): string | null =>
  address && isIP(address) !== 0 ? address : null;

import net from 'node:net';

/**
 * Which proxies in front of the server may name the client in `X-Forwarded-For` (TRUST_PROXY):
 * none, the nearest `hops` of them, or those at the listed addresses and networks. Each proxy
 * appends the address it was reached from, so the client is read from the right: whatever a
 * client writes at the left of the header is never taken for its address.
 */
export type TrustProxy = false | { hops: number } | { proxies: string[] };

export const MAX_PROXY_HOPS = 32;
/** Names Fastify's address matcher knows (@fastify/proxy-addr): loopback 127.0.0.1/8 and ::1, etc. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Why `entry` is not an address, a network (`address/prefix`) or a named range; undefined when it is. */
function badProxyEntry(entry: string): string | undefined {
  if (NAMED_RANGES.has(entry)) return undefined;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR`;
  if (prefix === undefined) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `"${entry}": the prefix must be 1-${bits}`;
  // /0 would trust every address, which is what lets a client choose its own.
  if (Number(prefix) === 0) return `"${entry}" would trust every address`;
  return undefined;
}

/**
 * TRUST_PROXY's text: `false`, `true` (one proxy: the last entry is the client), a hop count, or a
 * comma list of proxy addresses, CIDRs and `loopback` / `linklocal` / `uniquelocal`. A string is
 * the reason the text is none of these.
 */
export function parseTrustProxy(text: string): TrustProxy | string {
  const value = text.trim().toLowerCase();
  if (value === 'false') return false;
  if (value === 'true') return { hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_PROXY_HOPS) return `at most ${MAX_PROXY_HOPS} proxy hops`;
    return hops === 0 ? false : { hops };
  }
  const proxies = value.split(',').map((entry) => entry.trim());
  if (proxies.some((entry) => entry === '')) {
    return 'must be true, false, a number of proxy hops, or a comma list of proxy addresses or CIDRs';
  }
  const problems = proxies.map(badProxyEntry).filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    return `must be true, false, a number of proxy hops, or a comma list of proxy addresses or CIDRs: ${problems.join('; ')}`;
  }
  return { proxies };
}

/**
 * Fastify's `trustProxy` for the setting; every Fastify instance of the server (the API and the
 * OSMAND_PORT listener) is built with it, so `request.ip`, and with it every per-IP limit
 * (@fastify/rate-limit keys on it), every logged address and the /terminal socket's address, is
 * resolved once, the same way. Hops are a function: Fastify 5 takes a plain number as "trust
 * nobody", and `true` as "trust every hop", which is the leftmost entry a client writes itself.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false) return false;
  if ('proxies' in setting) return setting.proxies;
  const { hops } = setting;
  // Hop 0 is the socket's peer (the nearest proxy), hop 1 the last X-Forwarded-For entry, and so on.
  return (_address, hop) => hop < hops;
}

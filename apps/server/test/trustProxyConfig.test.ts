import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { fastifyTrustProxy } from '../src/http/trustProxy.js';

// TRUST_PROXY's fixed meaning (issue 30): false, true = one hop, a hop count, or a proxy list.

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['true', { hops: 1 }],
    [' True ', { hops: 1 }],
    ['1', { hops: 1 }],
    ['2', { hops: 2 }],
    ['32', { hops: 32 }],
    ['10.0.0.1', { proxies: ['10.0.0.1'] }],
    ['10.0.0.0/8, 192.168.1.5', { proxies: ['10.0.0.0/8', '192.168.1.5'] }],
    ['2001:db8::/32,::1', { proxies: ['2001:db8::/32', '::1'] }],
    ['loopback,uniquelocal', { proxies: ['loopback', 'uniquelocal'] }],
  ])('reads %j as %j', (text, setting) => {
    expect(loadConfig(text === undefined ? {} : { TRUST_PROXY: text }).trustProxy).toEqual(setting);
  });

  it.each([
    ['abc', '"abc" is not an IP address or CIDR'],
    ['-1', '"-1" is not an IP address or CIDR'],
    ['1.5', '"1.5" is not an IP address or CIDR'],
    ['33', 'at most 32 proxy hops'],
    ['10.0.0.0/99', '"10.0.0.0/99": the prefix must be 1-32'],
    ['2001:db8::/129', '"2001:db8::/129": the prefix must be 1-128'],
    ['10.0.0.0/x', '"10.0.0.0/x": the prefix must be 1-32'],
    ['0.0.0.0/0', '"0.0.0.0/0" would trust every address'],
    ['10.0.0.1/8/8', '"10.0.0.1/8/8" is not an IP address or CIDR'],
    ['10.0.0.1,,10.0.0.2', 'a comma list of proxy addresses or CIDRs'],
    ['yes', '"yes" is not an IP address or CIDR'],
  ])('refuses %j with a message naming TRUST_PROXY', (text, reason) => {
    let error: unknown;
    try {
      loadConfig({ TRUST_PROXY: text });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/^\s*TRUST_PROXY: must be true, false, a number of proxy hops|^\s*TRUST_PROXY: at most/m);
    expect(message).toContain(reason);
  });
});

describe('fastifyTrustProxy', () => {
  it('trusts exactly the nearest N hops (hop 0 is the socket peer)', () => {
    const trust = fastifyTrustProxy({ hops: 2 });
    expect(typeof trust).toBe('function');
    if (typeof trust !== 'function') return;
    expect([0, 1, 2, 3].map((hop) => trust('203.0.113.9', hop))).toEqual([true, true, false, false]);
  });

  it('hands Fastify the list, and false as false', () => {
    expect(fastifyTrustProxy({ proxies: ['10.0.0.0/8'] })).toEqual(['10.0.0.0/8']);
    expect(fastifyTrustProxy(false)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { parseAgentOptions } from '../src/options.js';

describe('the command line', () => {
  it('takes the fixed options with their defaults; the server origin is allowed', () => {
    expect(parseAgentOptions(['--server', 'https://dispatch.example.com/console/'])).toEqual({
      server: 'https://dispatch.example.com',
      allowOrigins: ['https://dispatch.example.com'],
      monitorPort: 12001,
      talkPort: 12002,
    });
    expect(
      parseAgentOptions([
        '--server',
        'http://10.0.0.5:8080',
        '--allow-origin',
        'https://a.example',
        '--allow-origin',
        'http://10.0.0.5:8080',
        '--monitor-port',
        '13001',
        '--talk-port',
        '13002',
        '--mic-file',
        'in.wav',
        '--speaker-file',
        'out.wav',
      ]),
    ).toEqual({
      server: 'http://10.0.0.5:8080',
      allowOrigins: ['http://10.0.0.5:8080', 'https://a.example'],
      monitorPort: 13001,
      talkPort: 13002,
      micFile: 'in.wav',
      speakerFile: 'out.wav',
    });
  });

  it('--allow-unsigned-update takes no value and is off unless given', () => {
    expect(parseAgentOptions(['--allow-unsigned-update', '--server', 'http://x'])).toMatchObject({
      server: 'http://x',
      allowUnsignedUpdate: true,
    });
    expect(parseAgentOptions(['--server', 'http://x', '--allow-unsigned-update', '--talk-port', '1'])).toMatchObject({
      allowUnsignedUpdate: true,
      talkPort: 1,
    });
    expect(parseAgentOptions(['--server', 'http://x'])).not.toHaveProperty('allowUnsignedUpdate');
  });

  it('says what is wrong with bad input', () => {
    expect(() => parseAgentOptions([])).toThrow('--server <url> is required');
    expect(() => parseAgentOptions(['--server'])).toThrow('--server needs a value');
    expect(() => parseAgentOptions(['--server', 'ftp://x'])).toThrow('must be http(s)');
    expect(() => parseAgentOptions(['--server', 'nonsense'])).toThrow('not a URL');
    expect(() => parseAgentOptions(['--server', 'http://x', '--talk-port', '99999'])).toThrow('not a port');
    expect(() => parseAgentOptions(['--server', 'http://x', '--volume', '3'])).toThrow('unknown option --volume');
  });
});

import { describe, expect, it } from 'vitest';
import {
  ProtocolError,
  RS,
  RecordReader,
  checkHandshake,
  closeRecord,
  completionRecord,
  invocationRecord,
  parseHubMessage,
} from '../../src/hub/hubProtocol.js';
import { serverSentEvent } from '../../src/hub/transports.js';

describe('record framing', () => {
  it('splits on the record separator and keeps an unfinished record for the next chunk', () => {
    const reader = new RecordReader(100);
    expect(reader.push(`{"a":1}${RS}{"b"`)).toEqual(['{"a":1}']);
    expect(reader.push(`:2}${RS}${RS}`)).toEqual(['{"b":2}', '']);
    expect(() => reader.push('x'.repeat(101))).toThrow(ProtocolError);
  });

  it('frames Server-Sent Events as data lines ending with an empty line', () => {
    expect(serverSentEvent(`{}${RS}`)).toBe(`data: {}${RS}\r\n\r\n`);
    expect(serverSentEvent('a\nb')).toBe('data: a\r\ndata: b\r\n\r\n');
  });
});

describe('handshake', () => {
  it('accepts json and messagepack version 1 only, messagepack only on a binary transport', () => {
    expect(checkHandshake('{"protocol":"json","version":1}')).toEqual({ protocol: 'json' });
    expect(checkHandshake('{"protocol":"messagepack","version":1}')).toEqual({ protocol: 'messagepack' });
    expect(checkHandshake('{"protocol":"messagepack","version":1}', false)).toEqual({
      error: expect.stringContaining("does not support 'Binary'"),
    });
    expect(checkHandshake('{"protocol":"json","version":1}', false)).toEqual({ protocol: 'json' });
    expect(checkHandshake('{"protocol":"foo","version":1}')).toEqual({ error: "The protocol 'foo' is not supported." });
    expect(checkHandshake('{"protocol":"json","version":2}')).toEqual({ error: expect.stringContaining('version 2') });
    expect(checkHandshake('nope')).toEqual({ error: expect.stringContaining('not valid JSON') });
  });
});

describe('hub messages', () => {
  it('parses every client message kind and rejects malformed ones', () => {
    expect(parseHubMessage('{"type":1,"target":"FuncGPS","arguments":[],"invocationId":"0"}')).toMatchObject({
      type: 1,
      target: 'FuncGPS',
    });
    expect(parseHubMessage('{"type":4,"target":"FuncGPS","arguments":[],"invocationId":"1"}').type).toBe(4);
    expect(parseHubMessage('{"type":5,"invocationId":"1"}').type).toBe(5);
    expect(parseHubMessage('{"type":6}').type).toBe(6);
    expect(parseHubMessage('{"type":7,"error":"x"}').type).toBe(7);
    expect(parseHubMessage('{"type":1,"target":"x","arguments":[],"headers":{"a":"b"}}').type).toBe(1);
    for (const bad of [
      '{',
      '[]',
      '{"type":99}',
      '{"type":1,"arguments":[]}',
      '{"type":4,"target":"x","arguments":[]}',
    ]) {
      expect(() => parseHubMessage(bad)).toThrow(ProtocolError);
    }
  });

  it('writes completions with a result or an error, never both, and void completions with neither', () => {
    expect(completionRecord('1', { result: 5 })).toBe(`{"type":3,"invocationId":"1","result":5}${RS}`);
    expect(completionRecord('1', { error: 'e' })).toBe(`{"type":3,"invocationId":"1","error":"e"}${RS}`);
    expect(completionRecord('1', { result: undefined })).toBe(`{"type":3,"invocationId":"1"}${RS}`);
    expect(completionRecord('1')).toBe(`{"type":3,"invocationId":"1"}${RS}`);
  });

  it('writes invocations without an id and close records', () => {
    expect(invocationRecord('pushMsg', '{"type":"GPS","data":[]}')).toBe(
      `{"type":1,"target":"pushMsg","arguments":[{"type":"GPS","data":[]}]}${RS}`,
    );
    expect(closeRecord()).toBe(`{"type":7}${RS}`);
    expect(closeRecord('x', true)).toBe(`{"type":7,"error":"x","allowReconnect":true}${RS}`);
  });
});

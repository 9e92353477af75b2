import fc from 'fast-check';
import type { FuzzOperation } from './openapiOperations.js';

/** One generated request: what app.inject takes. */
export interface FuzzRequest {
  method: FuzzOperation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Strings an attacker tries: huge, odd, NUL, path and SQL tricks, unicode, JSON-looking text. */
const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '%00',
    '../../etc/passwd',
    "' OR '1'='1",
    '"; DROP TABLE account; --',
    '__proto__',
    'constructor',
    '{"__proto__":{"polluted":1}}',
    '[8]',
    '[[[[[[[[[[]]]]]]]]]]',
    '1e309',
    '-0',
    'NaN',
    'Infinity',
    '9007199254740993',
    '99999999999999999999999',
    '-2147483649',
    'true',
    'null',
    '𝕏😀中文',
    '\u202e\u200b',
    '<script>alert(1)</script>',
    '%',
    '\\',
    '\r\n\r\n',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);

const plausibleNumber = fc.oneof(
  fc.integer({ min: -2, max: 40 }),
  fc.constantFrom(0, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1.5, -0.5),
);

/** A value for a declared type: mostly right, often wrong (other types, odd strings). */
function valueFor(type: string): fc.Arbitrary<unknown> {
  const right =
    type === 'integer' || type === 'number'
      ? plausibleNumber
      : type === 'boolean'
        ? fc.boolean()
        : type === 'array'
          ? fc.array(fc.oneof(plausibleNumber, oddString), { maxLength: 5 })
          : fc.oneof(fc.string({ maxLength: 12 }), plausibleNumber.map(String));
  return fc.oneof(
    { weight: 3, arbitrary: right },
    { weight: 2, arbitrary: oddString },
    {
      weight: 1,
      arbitrary: fc.oneof(
        plausibleNumber,
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.nat(9), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 4 }), fc.nat(9), { maxKeys: 2 }),
      ),
    },
  );
}

function deepJson(depth: number): string {
  return `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
}

/** Body fields: declared ones present or missing, with right or wrong values, plus extra and prototype keys. */
function fieldsFor(operation: FuzzOperation): fc.Arbitrary<Record<string, unknown>> {
  const declared = Object.fromEntries(Object.entries(operation.fields).map(([name, type]) => [name, valueFor(type)]));
  return fc
    .tuple(
      fc.record(declared, { requiredKeys: [] }),
      fc.dictionary(
        fc.oneof(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'E_ID', 'A_ID', 'extra'),
          fc.string({ maxLength: 8 }),
        ),
        valueFor('string'),
        { maxKeys: 3 },
      ),
    )
    .map(([fields, extra]) => {
      const result: Record<string, unknown> = { ...fields };
      for (const [key, value] of Object.entries(extra))
        Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      return result;
    });
}

function formEncode(fields: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields))
    form.append(key, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  return form.toString();
}

/** The body and its content type: declared or wrong type, valid or broken syntax, deep, huge or empty. */
function bodyFor(operation: FuzzOperation): fc.Arbitrary<{ type?: string; payload?: string }> {
  const fields = fieldsFor(operation);
  return fc.oneof(
    { weight: 5, arbitrary: fields.map((f) => ({ type: 'application/json', payload: JSON.stringify(f) })) },
    {
      weight: 3,
      arbitrary: fields.map((f) => ({ type: 'application/x-www-form-urlencoded', payload: formEncode(f) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(
            '{',
            '{"a":',
            '[1,2',
            'nul',
            '"\\u0000"',
            '1',
            '[]',
            'null',
            '{"__proto__":{"x":1}}',
            '{"constructor":{"prototype":{"x":1}}}',
          ),
          fc.integer({ min: 50, max: 20_000 }).map(deepJson),
          fc.integer({ min: 500_000, max: 1_200_000 }).map((n) => JSON.stringify({ text: 'y'.repeat(n) })),
        )
        .map((payload) => ({ type: 'application/json', payload })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/xml',
            'multipart/form-data; boundary=x',
            'application/octet-stream',
            'application/json; charset=latin1',
            'nonsense',
          ),
          oddString,
        )
        .map(([type, payload]) => ({ type, payload })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

const badPathId = fc.oneof(
  fc.integer({ min: -1, max: 40 }).map(String),
  fc.constantFrom(
    '0',
    '2147483648',
    '99999999999999999999',
    'abc',
    '1.5',
    '-0',
    '%00',
    '..%2F..%2Fetc',
    '%E0%A4%A',
    'undefined',
    '1e3',
    '%20',
  ),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);

/** One request for an operation: the path filled with good and bad ids, query and body as above. */
export function requestFor(operation: FuzzOperation): fc.Arbitrary<FuzzRequest> {
  const pathParams = operation.params.filter((p) => p.in === 'path');
  const queryParams = operation.params.filter((p) => p.in === 'query');
  const query = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, valueFor(p.type)])), { requiredKeys: [] });
  const none: fc.Arbitrary<{ type?: string; payload?: string }> = fc.constant({});
  const body = operation.bodyType || operation.method !== 'GET' ? bodyFor(operation) : none;
  return fc
    .tuple(fc.array(badPathId, { minLength: pathParams.length, maxLength: pathParams.length }), query, body)
    .map(([ids, queryValues, { type, payload }]): FuzzRequest => {
      let path = operation.path;
      pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, ids[i] as string)));
      const search = formEncode(queryValues);
      return {
        method: operation.method,
        url: search ? `${path}?${search}` : path,
        headers: type ? { 'content-type': type } : {},
        ...(payload !== undefined && operation.method !== 'GET' ? { payload } : {}),
      };
    });
}

/** The operations of the server's OpenAPI document, as the fuzzer needs them. */

export interface FuzzParam {
  name: string;
  in: 'path' | 'query';
  type: string;
}

export interface FuzzOperation {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** OpenAPI path, `{id}` placeholders included. */
  path: string;
  params: FuzzParam[];
  /** Declared body content type, or undefined when the operation takes no body. */
  bodyType?: string;
  /** Body fields and their declared types (`integer`, `string`, `array`...). */
  fields: Record<string, string>;
}

interface OpenApiSchema {
  type?: string | string[];
  properties?: Record<string, OpenApiSchema>;
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; schema?: OpenApiSchema }[];
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
}

function typeOf(schema: OpenApiSchema | undefined): string {
  if (!schema) return 'string';
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return type ?? typeOf(schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? { type: 'string' });
}

export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const content = operation.requestBody?.content ?? {};
      const bodyType = Object.keys(content)[0];
      const properties = (bodyType && content[bodyType]?.schema?.properties) || {};
      operations.push({
        method: method.toUpperCase() as FuzzOperation['method'],
        path,
        params: (operation.parameters ?? [])
          .filter((p) => p.in === 'path' || p.in === 'query')
          .map((p) => ({ name: p.name, in: p.in as 'path' | 'query', type: typeOf(p.schema) })),
        ...(bodyType ? { bodyType } : {}),
        fields: Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, typeOf(schema)])),
      });
    }
  }
  return operations;
}

import { METHODS, STATUS_CODES } from 'node:http';
import type { OpenAPIV3_1 as OpenApi31 } from 'openapi-types';

type Document = OpenApi31.Document;
type Operation = OpenApi31.OperationObject;

// The methods a 3.1 path item can hold; a route answering every method (a
// 405 for all but GET) also answers QUERY, which only OpenAPI 3.2 can name.
const OPENAPI_31_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

// What @fastify/swagger calls an answer whose schema has no description.
const SWAGGER_DEFAULT = 'Default Response';

const RANGES: Record<string, string> = {
  '2XX': 'Success',
  '4XX': 'Client error',
  '5XX': 'Server error',
  default: 'Any other status',
};

/**
 * The generated document as we publish it: only the methods OpenAPI 3.1
 * names, and an answer without a description of its own described by its
 * status's reason phrase ("Not Found") instead of swagger's "Default Response".
 */
export function finished(document: Document): Document {
  const paths: Document['paths'] = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const kept = Object.entries(item ?? {}).filter(
      ([key]) => OPENAPI_31_METHODS.has(key) || !METHODS.includes(key.toUpperCase()),
    );
    for (const [key, operation] of kept) if (OPENAPI_31_METHODS.has(key)) describeAnswers(operation as Operation);
    paths[path] = Object.fromEntries(kept);
  }
  return { ...document, paths };
}

function describeAnswers(operation: Operation): void {
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    if (!('description' in answer) || answer.description !== SWAGGER_DEFAULT) continue;
    answer.description = STATUS_CODES[status] ?? RANGES[status] ?? answer.description;
  }
}

import type { OpenAPIV3_1 as OpenApi31 } from 'openapi-types';
import type { ExampleRequest } from '../routes/example-request.js';

type Document = OpenApi31.Document;
type Operation = OpenApi31.OperationObject;
type Parameter = OpenApi31.ParameterObject;

/** `/api/report/{id}` as a test of a request path, its parameters' names in order. */
function pathMatcher(path: string): { test: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_whole, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { test: new RegExp(`^${pattern}$`), names };
}

/**
 * The capabilities' example requests (routes/<cap>/examples.ts, the requests
 * the site's pages send) as the document's examples: each parameter's value
 * and the request body of the first successful example of its operation.
 */
export function withExamples(document: Document, examples: readonly ExampleRequest[]): Document {
  const matchers = Object.keys(document.paths ?? {}).map((path) => ({ path, ...pathMatcher(path) }));
  const done = new Set<Operation>();
  for (const example of examples) {
    if (example.status !== undefined) continue;
    const url = new URL(example.url, 'http://example.invalid');
    const matched = matchers.find((m) => m.test.test(url.pathname));
    const method = (example.method ?? 'GET').toLowerCase() as OpenApi31.HttpMethods;
    const operation = matched && document.paths?.[matched.path]?.[method];
    if (!matched || !operation || done.has(operation)) continue;
    done.add(operation);
    const values = new Map<string, string>(url.searchParams);
    const pathValues = matched.test.exec(url.pathname)!.slice(1);
    matched.names.forEach((name, i) => values.set(name, decodeURIComponent(pathValues[i]!)));
    for (const parameter of (operation.parameters ?? []) as Parameter[]) {
      const value = values.get(parameter.name);
      if (value !== undefined) parameter.example = value;
    }
    const body = (operation.requestBody as OpenApi31.RequestBodyObject | undefined)?.content?.['application/json'];
    if (body && example.payload !== undefined) body.example = example.payload;
  }
  return document;
}

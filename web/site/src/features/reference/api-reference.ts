// The service's OpenAPI document (GET /openapi.json) as the reference page
// shows it: operations grouped by their face (the document's tags, in its
// order), each with its parameters, body and answers. Only what the page
// shows is read, and every field is checked, so an odd document yields
// fewer rows rather than an error.

export type Stability = 'stable' | 'changing' | 'unstated';

export interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description: string;
  /** A value the site's pages send; empty when the document gives none. */
  example: string;
}

export interface ReferenceAnswer {
  status: string;
  description: string;
  mediaType: string;
  /** The body's schema as indented JSON; empty when the answer declares none. */
  schema: string;
}

export interface ReferenceOperation {
  /** A fragment id for a link to this operation. */
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: ReferenceParameter[];
  body: ReferenceAnswer | null;
  answers: ReferenceAnswer[];
  /** The path's other methods, answered only with 405 (folded here rather than listed one by one). */
  refused: string[];
}

export interface ReferenceFace {
  /** The tag's name; empty for the operations that name none. */
  name: string;
  description: string;
  stability: Stability;
  operations: ReferenceOperation[];
}

export interface Reference {
  title: string;
  version: string;
  openapi: string;
  description: string;
  faces: ReferenceFace[];
}

// The order a path item lists them in the specification.
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function stabilityOf(word: unknown): Stability {
  if (word === 'stable') return 'stable';
  if (word === 'subject to change') return 'changing';
  return 'unstated';
}

/** A parameter's type in a few words: `string`, `integer`, `"A" | "AAAA"`, `string | null`. */
export function typeLabel(schema: unknown): string {
  if (!isObject(schema)) return '';
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members)) return members.map(typeLabel).filter(Boolean).join(' | ');
  }
  if (Array.isArray(schema.type)) return schema.type.filter((t) => typeof t === 'string').join(' | ');
  const type = text(schema.type);
  if (type === 'array') return `${typeLabel(schema.items) || 'any'}[]`;
  return type && typeof schema.format === 'string' ? `${type} (${schema.format})` : type;
}

const isBareType = (member: unknown): member is { type: string } =>
  isObject(member) && typeof member.type === 'string' && Object.keys(member).length === 1;

/**
 * A schema as a reader takes it in: an `anyOf` of bare types (TypeBox's
 * nullable field) becomes one type list, `"type": ["string", "null"]`.
 */
export function simplified(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplified);
  if (!isObject(schema)) return schema;
  const members = schema.anyOf;
  if (Array.isArray(members) && members.length > 1 && members.every(isBareType)) {
    const { anyOf: _anyOf, ...rest } = schema;
    return { type: members.map((member) => member.type), ...rest };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, simplified(value)]));
}

const INLINE_WIDTH = 60;

type Entry = [name: string | null, value: unknown];

function entriesOf(value: object): { entries: Entry[]; open: string; close: string } {
  return Array.isArray(value)
    ? { entries: value.map((v): Entry => [null, v]), open: '[', close: ']' }
    : { entries: Object.entries(value), open: '{', close: '}' };
}

const keyOf = (name: string | null) => (name === null ? '' : `${JSON.stringify(name)}: `);

/** JSON on one line, spaced as a person writes it. */
function inlineJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const { entries, open, close } = entriesOf(value);
  return `${open}${entries.map(([name, v]) => keyOf(name) + inlineJson(v)).join(', ')}${close}`;
}

/** Indented JSON in which whatever fits on a short line stays on one. */
export function readableJson(value: unknown, indent = ''): string {
  const inline = inlineJson(value);
  if (typeof value !== 'object' || value === null || inline.length <= INLINE_WIDTH) return inline;
  const { entries, open, close } = entriesOf(value);
  const inner = `${indent}  `;
  const lines = entries.map(([name, v]) => inner + keyOf(name) + readableJson(v, inner));
  return `${open}\n${lines.join(',\n')}\n${indent}${close}`;
}

function readContent(content: unknown, status: string, description: string): ReferenceAnswer {
  const entries = isObject(content) ? Object.entries(content) : [];
  const [mediaType, media] = entries[0] ?? ['', undefined];
  const schema = isObject(media) && isObject(media.schema) ? readableJson(simplified(media.schema)) : '';
  return { status, description, mediaType, schema };
}

function readParameters(value: unknown): ReferenceParameter[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((p) => ({
    name: text(p.name),
    in: text(p.in),
    required: p.required === true,
    type: typeLabel(p.schema),
    description: text(p.description) || (isObject(p.schema) ? text(p.schema.description) : ''),
    example: typeof p.example === 'string' || typeof p.example === 'number' ? String(p.example) : '',
  }));
}

function readOperation(path: string, method: string, operation: Json): ReferenceOperation {
  const body = isObject(operation.requestBody)
    ? readContent(operation.requestBody.content, '', text(operation.requestBody.description))
    : null;
  const responses = isObject(operation.responses) ? Object.entries(operation.responses) : [];
  return {
    id: `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-').replace(/-+$/, ''),
    method: method.toUpperCase(),
    path,
    summary: text(operation.summary),
    description: text(operation.description),
    parameters: readParameters(operation.parameters),
    body,
    answers: responses
      .filter((entry): entry is [string, Json] => isObject(entry[1]))
      .map(([status, answer]) => readContent(answer.content, status, text(answer.description))),
    refused: [],
  };
}

/** Whether an operation only refuses its method: a 405 and no success. */
const onlyRefuses = (operation: ReferenceOperation) =>
  operation.answers.some((a) => a.status === '405') && !operation.answers.some((a) => /^2/.test(a.status));

function firstTag(operation: Json): string {
  const tags = Array.isArray(operation.tags) ? operation.tags : [];
  return typeof tags[0] === 'string' ? tags[0] : '';
}

/** The document as the page shows it, or null when it is no OpenAPI document at all. */
export function readReference(document: unknown): Reference | null {
  if (!isObject(document) || typeof document.openapi !== 'string' || !isObject(document.paths)) return null;
  const info = isObject(document.info) ? document.info : {};
  const faces = new Map<string, ReferenceFace>();
  for (const tag of Array.isArray(document.tags) ? document.tags.filter(isObject) : []) {
    const name = text(tag.name);
    if (name && !faces.has(name)) {
      faces.set(name, {
        name,
        description: text(tag.description),
        stability: stabilityOf(tag['x-stability']),
        operations: [],
      });
    }
  }
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) continue;
    const operations = METHODS.flatMap((method) => {
      const operation = item[method];
      return isObject(operation)
        ? [{ face: firstTag(operation), operation: readOperation(path, method, operation) }]
        : [];
    });
    const served = operations.find(({ operation }) => !onlyRefuses(operation));
    for (const { face: name, operation } of operations) {
      if (served && operation !== served.operation && onlyRefuses(operation)) {
        served.operation.refused.push(operation.method);
        continue;
      }
      let face = faces.get(name);
      if (!face) {
        face = { name, description: '', stability: 'unstated', operations: [] };
        faces.set(name, face);
      }
      face.operations.push(operation);
    }
  }
  return {
    title: text(info.title),
    version: text(info.version),
    openapi: document.openapi,
    description: text(info.description),
    faces: [...faces.values()].filter((face) => face.operations.length > 0),
  };
}

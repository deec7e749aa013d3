import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `anyOf` members that each name one distinct JSON type, folded into one
 * schema with a type list (`[X, null]` becomes `type: [X, 'null']`); undefined
 * when the members cannot be folded (literal unions, two members of one type,
 * or two members with keywords besides `type`).
 */
function typeList(members: unknown[]): Schema | undefined {
  const types: string[] = [];
  let richest: Schema = {};
  for (const member of members) {
    if (!isSchema(member) || typeof member.type !== 'string' || types.includes(member.type) || 'const' in member) {
      return undefined;
    }
    types.push(member.type);
    if (Object.keys(member).length > 1) {
      if (Object.keys(richest).length > 0) return undefined;
      richest = member;
    }
  }
  return { ...richest, type: types };
}

/**
 * A copy of a response schema with every foldable `anyOf` written as a type
 * list. TypeBox spells `T | null` as `anyOf`, and fast-json-stringify picks an
 * `anyOf` branch by running a validator on the value, on every response; a
 * type list it writes with a `typeof` test. The JSON written is the same.
 */
export function foldTypeUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(foldTypeUnions);
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = foldTypeUnions(value);
  if (Array.isArray(out.anyOf)) {
    const folded = typeList(out.anyOf);
    if (folded) {
      const { anyOf: _members, ...siblings } = out;
      return { ...siblings, ...folded };
    }
  }
  return out;
}

type SerializerFactory = ReturnType<ReturnType<typeof SerializerSelector>>;

/**
 * Fastify's own response serialiser factory, handed schemas with their type
 * unions folded. Each serialiser is compiled when its first answer is
 * written: Fastify asks for every route's at start, and compiling them all
 * (a few hundred, most for error statuses rarely sent) was a tenth of
 * start-up, before any listener opened.
 */
export function foldingSerializerFactory(
  ...args: Parameters<ReturnType<typeof SerializerSelector>>
): SerializerFactory {
  const compile = SerializerSelector()(...args);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= compile({ ...route, schema: foldTypeUnions(route.schema) }))(data);
  };
}

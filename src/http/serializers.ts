import fastJson from 'fast-json-stringify';

type Serialize = (value: unknown) => string;

// A compiled serializer is a pure function of its schema, and the schemas are module constants,
// so every fake in the process can share them: compiling is most of what creating a fake costs.
const compiled = new WeakMap<object, Serialize>();

/** Fastify's serializer compiler, with compiled serializers shared across fakes. */
export function sharedSerializer({ schema }: { schema: unknown }): Serialize {
  const key = schema as object;
  let serialize = compiled.get(key);
  if (!serialize) {
    serialize = fastJson(key as Parameters<typeof fastJson>[0]) as Serialize;
    compiled.set(key, serialize);
  }
  return serialize;
}

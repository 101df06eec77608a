import { createRequire } from 'node:module';

type Serialize = (value: unknown) => string;
type FastJson = typeof import('fast-json-stringify').default;

// A compiled serializer is a pure function of its schema, and the schemas are module constants,
// so every fake in the process can share them: compiling is most of what creating a fake costs.
const compiled = new WeakMap<object, Serialize>();

// fast-json-stringify loads ajv (some 70 files) when it is first required: loaded on the first
// answer that needs a serializer, not at start-up, it leaves the CLI's first answer (the health
// check) that much sooner.
let fastJson: FastJson | undefined;
function compile(schema: object): Serialize {
  fastJson ??= createRequire(import.meta.url)('fast-json-stringify') as FastJson;
  return fastJson(schema as Parameters<FastJson>[0]) as Serialize;
}

/**
 * Fastify's serializer compiler, with compiled serializers shared across fakes. Each is compiled
 * on its first use.
 */
export function sharedSerializer({ schema }: { schema: unknown }): Serialize {
  const key = schema as object;
  let serialize = compiled.get(key);
  if (!serialize) {
    let real: Serialize | undefined;
    serialize = (value) => {
      real ??= compile(key);
      return real(value);
    };
    compiled.set(key, serialize);
  }
  return serialize;
}

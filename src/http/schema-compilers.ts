import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { type Defer, validatorCompilerWith } from './validation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles the route schemas not compiled yet (see createSchemaCompilers); for tests. */
    compileAllSchemas(): number;
  }
}

export interface SchemaCompilers {
  validatorCompiler: FastifySchemaCompiler<object>;
  serializerCompiler: FastifySerializerCompiler<object>;
  /** Compiles every schema not yet compiled; returns how many there were. */
  compileAll(): number;
}

/**
 * The route schemas' validators (Ajv) and response serializers (fast-json-stringify), each
 * compiled when its route first needs it rather than all at start. Fastify compiles every
 * route's schemas before it listens; the generated functions of some two hundred schemas held
 * about 6 MB of an idle server's 106 MB, for routes most processes never serve. A schema Ajv
 * cannot compile would then fail its first request instead of the start, so a test compiles
 * them all through `compileAll`.
 */
export function createSchemaCompilers(): SchemaCompilers {
  const pending = new Set<() => unknown>();
  const defer: Defer = (compile) => {
    let compiled: ReturnType<typeof compile> | undefined;
    const get = () => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return get;
  };
  return {
    validatorCompiler: validatorCompilerWith(defer) as FastifySchemaCompiler<object>,
    serializerCompiler: ({ schema }) => {
      const serializer = defer(() => fastJsonStringify(schema));
      return (data) => serializer()(data);
    },
    compileAll() {
      const count = pending.size;
      for (const compile of [...pending]) compile();
      return count;
    },
  };
}

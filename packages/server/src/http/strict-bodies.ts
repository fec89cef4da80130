import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { util } from 'zod/v4/core'

// Request bodies are strict: a field the route does not know is a 400 naming it, never silently
// dropped (issue 27: `teamName` sent to the profile update answered 200 and changed nothing).
// The contract's schemas stay as they are, since the web also uses them to check forms that carry
// more than the body; the server makes each route's body schema strict once, here, as routes are
// registered. Routes without a body schema are left alone.

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  element?: z.ZodType
  innerType?: z.ZodType
  in?: z.ZodType
  out?: z.ZodType
  options?: z.ZodType[]
  left?: z.ZodType
  right?: z.ZodType
  items?: z.ZodType[]
  rest?: z.ZodType | null
  valueType?: z.ZodType
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** A copy of the schema with its def changed; checks (refinements) and metadata are kept. */
const withDef = <T extends z.ZodType>(schema: T, change: Partial<Def>): T =>
  schema.clone(util.mergeDefs(schema._zod.def, change) as T['_zod']['def'])

const map = <T>(record: Record<string, T>, f: (v: T) => T): Record<string, T> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]))

/**
 * The schema with every object in it refusing unknown keys, at any depth (arrays, optionals,
 * unions, pipes). An object that already says what to do with other keys (a catchall:
 * `z.looseObject`, a record in disguise) keeps its choice.
 */
export function strictDeep<T extends z.ZodType>(schema: T): T {
  const def = defOf(schema)
  switch (def.type) {
    case 'object':
      // A catchall is a choice made on purpose (an external document such as a Cricsheet
      // file, read in part): the object and everything in it are left as they are.
      if (def.catchall) return schema
      return withDef(schema, {
        shape: map(def.shape ?? {}, strictDeep),
        catchall: z.never(),
      })
    case 'array':
      return withDef(schema, { element: strictDeep(def.element!) })
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return withDef(schema, { innerType: strictDeep(def.innerType!) })
    case 'pipe':
      // What goes in is the client's. What comes out is the schema's own doing, except after a
      // preprocess (a transform first), where the output side is what checks the client's fields.
      return defOf(def.in!).type === 'transform'
        ? withDef(schema, { out: strictDeep(def.out!) })
        : withDef(schema, { in: strictDeep(def.in!) })
    case 'union':
      return withDef(schema, { options: def.options!.map(strictDeep) })
    case 'intersection':
      return withDef(schema, { left: strictDeep(def.left!), right: strictDeep(def.right!) })
    case 'tuple':
      return withDef(schema, {
        items: def.items!.map(strictDeep),
        rest: def.rest ? strictDeep(def.rest) : null,
      })
    case 'record':
      return withDef(schema, { valueType: strictDeep(def.valueType!) })
    default:
      return schema
  }
}

/** The message of the 400 an unknown field gets; its param is the field's dotted path. */
export const unknownFieldMessage = (key: string): string => `Unknown field "${key}"`

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType

/** Every route registered after this call validates its body with strictDeep of its schema. */
export function strictRequestBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const body: unknown = route.schema?.body
    if (isZod(body)) route.schema = { ...route.schema, body: strictDeep(body) }
  })
}

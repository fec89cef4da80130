import type { StandardSchemaV1 } from '@standard-schema/spec'

/**
 * A contract schema loaded the first time an answer is checked. The data layer checks answers only
 * outside production (lib/api.ts), so production never loads it; the reads on the landing page's
 * path (site content, pre-registration, sign-in) use this to keep zod out of the landing page's
 * first download (under 170 KB gzipped). Typed by the schema's output: what RTK Query hands on.
 */
export function lazySchema<Out>(
  load: () => Promise<StandardSchemaV1<unknown, Out>>,
): StandardSchemaV1<Out, Out> {
  let schema: Promise<StandardSchemaV1<unknown, Out>> | null = null
  return {
    '~standard': {
      version: 1,
      vendor: 'tipping-lazy',
      validate: async (value) => {
        schema ??= load()
        return (await schema)['~standard'].validate(value)
      },
    },
  }
}

import type { StandardSchemaV1 } from '@standard-schema/spec'

/**
 * A contract schema loaded only when an answer is checked. The landing page's first download
 * must stay small (under 170 KB gzipped), and the contract's schemas bring zod with them; the
 * reads on that path (the site content, the pre-registration) check their answers through this,
 * which loads the schema in development and tests and never in production, where the data layer
 * skips the check (lib/api.ts).
 */
export function lazySchema<Out>(
  load: () => Promise<StandardSchemaV1<unknown, Out>>,
): StandardSchemaV1<Out, Out> {
  return {
    '~standard': {
      version: 1,
      vendor: 'tipping-lazy',
      validate: async (value) => (await load())['~standard'].validate(value),
    },
  }
}

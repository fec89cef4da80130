/** What RTK Query needs of a response schema: the Standard Schema interface zod implements. */
interface StandardSchema {
  '~standard': { version: 1; vendor: string; validate: (value: unknown) => unknown }
}

/**
 * A contract schema loaded the first time an answer is checked. The API layer checks answers only
 * outside production (lib/api.ts), so production never loads it; endpoints on the landing page's
 * path use this to keep zod out of the landing page's first download.
 */
export function lazySchema<S extends StandardSchema>(load: () => Promise<S>): Pick<S, '~standard'> {
  let schema: Promise<S> | null = null
  const standard: StandardSchema['~standard'] = {
    version: 1,
    vendor: 'lazy',
    validate: async (value) => {
      schema ??= load()
      return (await schema)['~standard'].validate(value)
    },
  }
  return { '~standard': standard }
}

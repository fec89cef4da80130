import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { passwordChangeBodySchema, userUpdateBodySchema } from '@tipping/contract/auth'
import { cricsheetImportBodySchema } from '@tipping/contract/admin'
import { savePredictionsBodySchema } from '@tipping/contract/predictions'
import { strictDeep } from './strict-bodies.ts'

const issuesOf = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((i) => ({
    code: i.code,
    path: i.path,
    keys: (i as { keys?: string[] }).keys,
  }))

describe('strictDeep', () => {
  it('refuses an unknown top-level field and leaves the contract schema as it was', () => {
    const strict = strictDeep(userUpdateBodySchema)
    expect(issuesOf(strict, { teamName: 'Camel' })).toEqual([
      { code: 'unrecognized_keys', path: [], keys: ['teamName'] },
    ])
    // The web checks forms with the same schema: it still strips.
    expect(userUpdateBodySchema.parse({ teamName: 'Camel' })).toEqual({})
  })

  it('keeps transforms and refinements', () => {
    expect(strictDeep(userUpdateBodySchema).parse({ team_name: '' })).toEqual({ team_name: null })
    const mismatch = strictDeep(passwordChangeBodySchema).safeParse({
      currentPassword: 'old password',
      password: 'a new password',
      confirmation: 'another one',
    })
    expect(mismatch.error?.issues[0]?.path).toEqual(['confirmation'])
  })

  it('refuses unknown fields at any depth, with their path', () => {
    const strict = strictDeep(savePredictionsBodySchema)
    expect(
      issuesOf(strict, { predictions: [{ match: 1, squad: 2, margin: null, extra: true }] }),
    ).toEqual([{ code: 'unrecognized_keys', path: ['predictions', 0], keys: ['extra'] }])
    expect(
      strictDeep(z.object({ a: z.object({ b: z.string() }).optional() })).safeParse({}).success,
    ).toBe(true)
  })

  it('leaves a loose object (an external document) and all inside it alone', () => {
    const file = {
      meta: { data_version: '1.1.0' },
      info: {
        dates: ['2025-12-14'],
        teams: ['Perth Scorchers', 'Sydney Sixers'],
        outcome: { winner: 'Perth Scorchers', by: { runs: 10 } },
        players: { 'Perth Scorchers': [] },
      },
      innings: [],
    }
    expect(strictDeep(cricsheetImportBodySchema).safeParse({ files: [file] }).success).toBe(true)
    expect(issuesOf(strictDeep(cricsheetImportBodySchema), { files: [file], other: 1 })).toEqual([
      { code: 'unrecognized_keys', path: [], keys: ['other'] },
    ])
  })
})

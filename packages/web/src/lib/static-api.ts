import type { Sport } from '@tipping/contract/constants'
import type {
  FormGuideFile,
  LadderFile,
  RoundsFile,
  Squad,
  SquadsFile,
  VenuesFile,
} from '@tipping/contract/static-files'
import { api } from './api.ts'
import { lazySchema } from './lazy-schema.ts'

// A sport's published files that more than one feature shows (the fixture, the squads, the team
// ladder...), read through the checksums protocol. They live in lib/ because a feature never
// imports another feature's endpoints. Only the lazily loaded pages import this file, so the
// contract's schemas (and zod) stay out of the landing page's first download.

// The files' schemas load the first time an answer is checked (outside production only:
// lib/api.ts), so the tipping page's first load builds none of them (decision 035).
const files = () => import('@tipping/contract/static-files')
const roundsFileSchema = lazySchema(async () => (await files()).roundsFileSchema)
const squadsFileSchema = lazySchema(async () => (await files()).squadsFileSchema)
const venuesFileSchema = lazySchema(async () => (await files()).venuesFileSchema)
const formGuideFileSchema = lazySchema(async () => (await files()).formGuideFileSchema)
const ladderFileSchema = lazySchema(async () => (await files()).ladderFileSchema)

export const staticApi = api.injectEndpoints({
  endpoints: (build) => ({
    fixture: build.query<RoundsFile, Sport>({
      query: (sport) => ({ static: `${sport}/rounds.json` }),
      responseSchema: roundsFileSchema,
      providesTags: ['Static'],
    }),
    squads: build.query<SquadsFile, Sport>({
      query: (sport) => ({ static: `${sport}/squads.json` }),
      responseSchema: squadsFileSchema,
      providesTags: ['Static'],
    }),
    venues: build.query<VenuesFile, Sport>({
      query: (sport) => ({ static: `${sport}/venues.json` }),
      responseSchema: venuesFileSchema,
      providesTags: ['Static'],
    }),
    formGuide: build.query<FormGuideFile, Sport>({
      query: (sport) => ({ static: `${sport}/formguide.json` }),
      responseSchema: formGuideFileSchema,
      providesTags: ['Static'],
    }),
    teamLadder: build.query<LadderFile, Sport>({
      query: (sport) => ({ static: `${sport}/ladder.json` }),
      responseSchema: ladderFileSchema,
      providesTags: ['Static'],
    }),
  }),
})

export const {
  useFixtureQuery,
  useSquadsQuery,
  useVenuesQuery,
  useFormGuideQuery,
  useTeamLadderQuery,
} = staticApi

const NO_SQUADS: ReadonlyMap<number, Squad> = new Map()
const squadMaps = new WeakMap<SquadsFile, ReadonlyMap<number, Squad>>()

/**
 * A squads.json's squads by id, as every card, ladder and row looks them up: one Map per file
 * read (the cache hands out the same object until the file changes), however many components ask.
 */
export function squadsById(file: SquadsFile | undefined): ReadonlyMap<number, Squad> {
  if (!file) return NO_SQUADS
  let squads = squadMaps.get(file)
  if (!squads) {
    squads = new Map(file.squads.map((s) => [s.id, s]))
    squadMaps.set(file, squads)
  }
  return squads
}

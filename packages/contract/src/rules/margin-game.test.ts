import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { seasonFileSchema } from '../season-file.ts'
import { marginGameOf, tooManyMarginGamesMessage, type MarginGameCandidate } from './margin-game.ts'

const match = (
  id: number,
  startsAt: string,
  flagged = false,
  number = id,
): MarginGameCandidate => ({ id, number, startsAt, flagged })

describe('marginGameOf (GAME_RULES.md: one margin game per round)', () => {
  it('takes the match the fixture marks, wherever it falls in the round', () => {
    const round = [
      match(1, '2026-01-01T08:00:00Z'),
      match(2, '2026-01-02T08:00:00Z', true),
      match(3, '2026-01-03T08:00:00Z'),
    ]
    expect(marginGameOf(round)).toEqual({ ok: true, id: 2, flagged: true })
  })

  it('falls back to the last match by start time, not by number or list order', () => {
    const round = [
      match(1, '2026-01-01T08:00:00Z'),
      match(2, '2026-01-04T08:00:00Z'),
      match(3, '2026-01-03T08:00:00Z'),
    ]
    expect(marginGameOf(round)).toEqual({ ok: true, id: 2, flagged: false })
    expect(marginGameOf([...round].reverse())).toEqual({ ok: true, id: 2, flagged: false })
  })

  it('breaks a tie of start times by the higher match number', () => {
    const round = [
      match(10, '2026-01-03T08:00:00Z', false, 7),
      match(11, '2026-01-03T08:00:00Z', false, 9),
      match(12, '2026-01-03T08:00:00Z', false, 8),
      match(13, '2026-01-02T08:00:00Z', false, 12),
    ]
    expect(marginGameOf(round)).toEqual({ ok: true, id: 11, flagged: false })
  })

  it('compares instants, whatever the offset or type of the start time', () => {
    const round: MarginGameCandidate[] = [
      { id: 1, number: 1, startsAt: '2026-01-03T19:00:00+11:00', flagged: false },
      { id: 2, number: 2, startsAt: new Date('2026-01-03T07:30:00Z'), flagged: false },
    ]
    expect(marginGameOf(round)).toEqual({ ok: true, id: 1, flagged: false })
  })

  it('refuses two or more marked matches, naming them', () => {
    const round = [
      match(1, '2026-01-01T08:00:00Z', true),
      match(2, '2026-01-02T08:00:00Z'),
      match(3, '2026-01-03T08:00:00Z', true),
    ]
    expect(marginGameOf(round)).toEqual({ ok: false, flagged: [1, 3] })
    expect(tooManyMarginGamesMessage(3, 2)).toBe('Round 3 marks two margin games')
    expect(tooManyMarginGamesMessage(4, 3)).toBe('Round 4 marks 3 margin games')
  })

  it('has no margin game for a round with no matches', () => {
    expect(marginGameOf([])).toEqual({ ok: true, id: null, flagged: false })
  })

  it('always answers one match of the round: the marked one, else none starts later', () => {
    const candidate = fc.record({
      number: fc.integer({ min: 1, max: 60 }),
      startsAt: fc.integer({ min: 0, max: 20 }).map((h) => new Date(Date.UTC(2026, 0, 1, h))),
      flagged: fc.boolean(),
    })
    fc.assert(
      fc.property(
        fc.uniqueArray(candidate, { minLength: 1, maxLength: 12, selector: (m) => m.number }),
        (list) => {
          const round = list.map((m) => ({ ...m, id: m.number * 100 }))
          const choice = marginGameOf(round)
          const marked = round.filter((m) => m.flagged)
          if (marked.length > 1) return !choice.ok && choice.flagged.length === marked.length
          if (!choice.ok || choice.id === null) return false
          const chosen = round.find((m) => m.id === choice.id)!
          if (marked.length === 1) return chosen === marked[0] && choice.flagged
          return round.every(
            (m) =>
              m.startsAt.getTime() < chosen.startsAt.getTime() ||
              (m.startsAt.getTime() === chosen.startsAt.getTime() && m.number <= chosen.number),
          )
        },
      ),
    )
  })
})

describe('the season file schema (data/seasons/*.json, the admin upload)', () => {
  const file = (marks: boolean[][]) => ({
    sport: 'bbl',
    season: 15,
    name: 'BBL|15',
    year: '2025-26',
    goldenWeekRound: null,
    ladderPoints: { win: 2, noResult: 1, tie: 1, loss: 0 },
    squads: [
      {
        code: 'AA',
        name: 'A',
        shortName: 'A',
        nickname: 'A',
        colour: '#000000',
        secondColour: '#ffffff',
      },
      {
        code: 'BB',
        name: 'B',
        shortName: 'B',
        nickname: 'B',
        colour: '#000000',
        secondColour: '#ffffff',
      },
    ],
    venues: [{ key: 'v', name: 'V', city: 'C', state: 'S', timezone: 'Australia/Sydney' }],
    rounds: marks.map((round, r) => ({
      number: r + 1,
      label: `Week ${r + 1}`,
      matches: round.map((marked, i) => ({
        number: r * 10 + i + 1,
        startsAt: `2026-01-0${r + 1}T0${i}:00:00Z`,
        venue: 'v',
        home: 'AA',
        away: 'BB',
        marginGame: marked,
        stage: 'regular',
        assumed: [],
      })),
    })),
    assumptions: [],
    sources: [],
  })

  it('accepts rounds marking one margin game or none', () => {
    expect(
      seasonFileSchema.safeParse(
        file([
          [false, true],
          [false, false],
        ]),
      ).success,
    ).toBe(true)
  })

  it('refuses a round marking two, naming the round and the second mark', () => {
    const parsed = seasonFileSchema.safeParse(
      file([
        [false, true],
        [true, false, true],
      ]),
    )
    expect(parsed.success).toBe(false)
    expect(parsed.error!.issues).toEqual([
      expect.objectContaining({
        message: 'Round 2 marks two margin games',
        path: ['rounds', 1, 'matches', 2, 'marginGame'],
      }),
    ])
  })
})

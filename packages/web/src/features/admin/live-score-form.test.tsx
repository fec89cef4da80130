import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  competitionListResponseSchema,
  competitionRoundsResponseSchema,
  type AdminMatch,
} from '@tipping/contract/admin'
import { asMatchId, asRoundId, asSquadId } from '@tipping/contract/ids'
import { liveMatchSchema, liveRoundResponseSchema, type LiveMatch } from '@tipping/contract/live'
import { ApiCallError } from '../../lib/api-client.ts'
import { createTestStore } from '../../lib/test-store.ts'
import { LiveScoreForm } from './live-score-form.tsx'
import MatchesPage from './matches-page.tsx'

// The live-score form as an admin reaches it: the matches page, the real store and data layer,
// only the network stubbed; and the form alone for what it refuses before sending anything.

const HEAT = 11
const SIXERS = 12
const active: AdminMatch = {
  id: asMatchId(7),
  number: 3,
  roundId: asRoundId(1),
  startsAt: '2030-01-05T08:15:00.000Z',
  status: 'active',
  venueId: 1,
  homeSquadId: asSquadId(HEAT),
  awaySquadId: asSquadId(SIXERS),
  isMarginGame: false,
  stage: 'regular',
  result: null,
  editable: { startsAt: false, venue: true, marginGame: false },
}

const competitions = competitionListResponseSchema.parse({
  competitions: [
    {
      id: 1,
      sport: 'bbl',
      identifier: 'xyz-bbl-15',
      season: 2025,
      name: 'BBL|15',
      year: '2025-26',
      isCurrent: true,
      goldenWeekRound: null,
      ladderPoints: { win: 2, noResult: 1, tie: 1, loss: 0 },
      rounds: 1,
      matches: 2,
      completedMatches: 0,
    },
  ],
})
const rounds = competitionRoundsResponseSchema.parse({
  competition: competitions.competitions[0],
  rounds: [
    {
      id: 1,
      number: 3,
      label: 'Week 3',
      status: 'active',
      isGoldenWeek: false,
      matches: [
        active,
        { ...active, id: 8, number: 4, status: 'scheduled', editable: active.editable },
      ],
    },
  ],
  squads: [
    { id: HEAT, name: 'Brisbane Heat', shortName: 'HEA' },
    { id: SIXERS, name: 'Sydney Sixers', shortName: 'SIX' },
  ],
  venues: [{ id: 1, name: 'The Gabba', city: 'Brisbane' }],
})

/** The live state the server answers, figures and all. */
const liveState = (innings: LiveMatch['innings'], version: number): LiveMatch =>
  liveMatchSchema.parse({
    matchId: 7,
    roundNumber: 3,
    status: 'active',
    version,
    updatedAt: '2030-01-05T09:00:00.000Z',
    innings,
    sixes: innings.reduce((s, i) => s + i.sixes, 0),
    figures: { runRates: [], target: null, runsNeeded: null, ballsLeft: null, requiredRate: null },
  })
const firstInnings = {
  battingSquadId: asSquadId(SIXERS),
  runs: 88,
  wickets: 2,
  overs: '10.5',
  oversAllotted: null,
  sixes: 4,
}

const answer = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    }),
  )

afterEach(() => vi.unstubAllGlobals())

describe('the live score of a match in progress, from the matches page', () => {
  it('opens on the score as it stands, nudges it, and saves it; a refusal lands on its field', async () => {
    const puts: unknown[] = []
    const fetchMock = vi.fn((url: string, init?: RequestInit) => {
      if (url === '/api/admin/competitions') return answer({ success: competitions })
      if (url === '/api/admin/competitions/1/rounds') return answer({ success: rounds })
      if (url === '/api/bbl/live/3')
        return answer({
          success: liveRoundResponseSchema.parse({
            round: 3,
            matches: [liveState([firstInnings], 5)],
          }),
        })
      if (url === '/api/admin/bbl/matches/7/live' && init?.method === 'PUT') {
        const body = JSON.parse(init.body as string) as { innings: LiveMatch['innings'] }
        puts.push(body)
        // The first save is refused as the server refuses a side batting twice.
        return puts.length === 1
          ? answer(
              {
                errors: [
                  {
                    code: 'VALIDATION',
                    message: 'The second innings is batted by the other side',
                    param: 'innings.1.battingSquadId',
                  },
                ],
              },
              400,
            )
          : answer({
              success: liveState(
                body.innings.map((i) => ({ ...i, oversAllotted: i.oversAllotted ?? null })),
                6,
              ),
            })
      }
      return answer({ errors: [{ code: 'NOT_FOUND', message: url, param: null }] }, 404)
    })
    vi.stubGlobal('fetch', fetchMock)
    render(
      <Provider store={createTestStore()}>
        <MemoryRouter initialEntries={['/admin/matches']}>
          <MatchesPage />
        </MemoryRouter>
      </Provider>,
    )

    const row = await screen.findByRole('listitem', {
      name: 'Match 3: Brisbane Heat v Sydney Sixers',
    })
    // Only the match in progress offers a live score.
    const scheduled = screen.getByRole('listitem', { name: /^Match 4: / })
    expect(within(scheduled).queryByRole('button', { name: /Live score/ })).toBeNull()
    const toggle = within(row).getByRole('button', { name: 'Live score of match 3' })
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const form = await within(row).findByRole('form', { name: 'Live score of match 3' })

    // Prefilled from GET /api/bbl/live/3: the Sixers 88/2 after 10.5 overs, 4 sixes.
    const first = within(form).getByRole('group', { name: '1st innings' })
    expect(within(first).getByLabelText<HTMLSelectElement>('Batting side').value).toBe(
      String(SIXERS),
    )
    expect(within(first).getByLabelText<HTMLInputElement>('Runs').value).toBe('88')
    expect(within(first).getByLabelText<HTMLInputElement>('Overs').value).toBe('10.5')
    expect(within(first).getByLabelText('Runs').getAttribute('inputmode')).toBe('numeric')

    // The quick buttons: a six off the last ball of the over, then a wicket; Undo takes back one.
    const quick = within(form).getByRole('group', {
      name: 'Quick add to the 1st innings (Sydney Sixers)',
    })
    fireEvent.click(within(quick).getByRole('button', { name: '+6 runs, a six' }))
    fireEvent.click(within(quick).getByRole('button', { name: '+ball' }))
    fireEvent.click(within(quick).getByRole('button', { name: '+wicket' }))
    fireEvent.click(within(quick).getByRole('button', { name: '+1 run' }))
    fireEvent.click(within(quick).getByRole('button', { name: 'Undo' }))
    expect(within(first).getByLabelText<HTMLInputElement>('Runs').value).toBe('94')
    expect(within(first).getByLabelText<HTMLInputElement>('Sixes').value).toBe('5')
    expect(within(first).getByLabelText<HTMLInputElement>('Overs').value).toBe('11')
    expect(within(first).getByLabelText<HTMLInputElement>('Wickets').value).toBe('3')

    // The chase: its batting side is the other squad unless changed.
    fireEvent.click(within(form).getByRole('button', { name: 'Start 2nd innings' }))
    const second = within(form).getByRole('group', { name: '2nd innings' })
    const chasing = within(second).getByLabelText<HTMLSelectElement>('Batting side')
    expect(chasing.value).toBe(String(HEAT))
    fireEvent.change(within(second).getByLabelText('Runs'), { target: { value: '7' } })
    fireEvent.change(within(second).getByLabelText('Overs'), { target: { value: '1.2' } })

    // The server's refusal (here of the chasing side) shows under the field it names.
    fireEvent.click(within(form).getByRole('button', { name: 'Save live score' }))
    expect(
      await within(second).findByText('The second innings is batted by the other side'),
    ).toBeTruthy()
    expect(chasing.getAttribute('aria-invalid')).toBe('true')
    expect(within(first).getByLabelText('Batting side').getAttribute('aria-invalid')).toBeNull()

    fireEvent.click(within(form).getByRole('button', { name: 'Save live score' }))
    expect(
      await within(form).findByText(
        'Live score saved: Sydney Sixers 94/3 (11), Brisbane Heat 7/0 (1.2)',
      ),
    ).toBeTruthy()
    expect(puts[1]).toEqual({
      innings: [
        { battingSquadId: SIXERS, runs: 94, wickets: 3, overs: '11', sixes: 5 },
        { battingSquadId: HEAT, runs: 7, wickets: 0, overs: '1.2', sixes: 0 },
      ],
    })
    expect(chasing.getAttribute('aria-invalid')).toBeNull()
    // The console's live read is fetched again after the save.
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([u]) => u === '/api/bbl/live/3').length).toBe(2),
    )
  }, 30_000) // the whole page and a few dozen role queries: slow on a loaded machine
})

describe('LiveScoreForm', () => {
  it('asks for the batting side of a match with no live score yet, and checks overs by the contract', async () => {
    const onSave = vi.fn(() => Promise.resolve())
    render(
      <LiveScoreForm
        match={active}
        homeName="Heat"
        awayName="Sixers"
        current={null}
        onSave={onSave}
      />,
    )
    const first = screen.getByRole('group', { name: '1st innings' })
    expect(within(first).getByLabelText<HTMLSelectElement>('Batting side').value).toBe('')
    fireEvent.change(within(first).getByLabelText('Runs'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save live score' }))
    expect(await screen.findByText('Choose the batting side')).toBeTruthy()
    expect(screen.getByText('A whole number, 0 or more')).toBeTruthy()
    fireEvent.change(within(first).getByLabelText('Batting side'), {
      target: { value: String(HEAT) },
    })
    fireEvent.change(within(first).getByLabelText('Runs'), { target: { value: '40' } })
    fireEvent.change(within(first).getByLabelText('Overs'), { target: { value: '5.6' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save live score' }))
    expect(
      await screen.findByText('Overs as cricket notation: whole overs, then 0-5 balls (12.3)'),
    ).toBeTruthy()
    // A rain-reduced innings: the quick ball stops at its allotment, and the contract holds it.
    fireEvent.change(within(first).getByLabelText('Overs'), { target: { value: '4.5' } })
    fireEvent.change(within(first).getByLabelText('Overs allotted (rain)'), {
      target: { value: '5' },
    })
    const ball = screen.getByRole('button', { name: '+ball' })
    fireEvent.click(ball)
    fireEvent.click(ball)
    expect(within(first).getByLabelText<HTMLInputElement>('Overs').value).toBe('5')
    expect(onSave).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Save live score' }))
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith({
        innings: [
          { battingSquadId: HEAT, runs: 40, wickets: 0, overs: '5', oversAllotted: '5', sixes: 0 },
        ],
      }),
    )
  })

  it('shows a match no longer in progress as an error of the whole form', async () => {
    const onSave = vi.fn(() =>
      Promise.reject(
        new ApiCallError(
          'This match is complete: correct its result instead',
          'CONFLICT',
          'id',
          409,
        ),
      ),
    )
    render(
      <LiveScoreForm
        match={active}
        homeName="Heat"
        awayName="Sixers"
        current={liveState([firstInnings], 1)}
        onSave={onSave}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Save live score' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('This match is complete: correct its result instead')
  })
})

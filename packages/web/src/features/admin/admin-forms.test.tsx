import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { asMatchId, asRoundId, asSquadId } from '@tipping/contract/ids'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AdminMatch } from '@tipping/contract/admin'
import { CONTENT_DEFAULTS } from '@tipping/contract/content'
import { Provider } from 'react-redux'
import { createTestStore } from '../../lib/test-store.ts'
import { ApiCallError } from '../../lib/api-client.ts'
import ContentPage from './content-page.tsx'
import { MatchEditForm, toLocalInput } from './match-edit-form.tsx'
import { MatchRow } from './match-row.tsx'
import { ResultForm } from './result-form.tsx'

const match: AdminMatch = {
  id: asMatchId(7),
  number: 3,
  roundId: asRoundId(1),
  startsAt: '2030-01-05T08:15:00.000Z',
  status: 'active',
  venueId: 1,
  homeSquadId: asSquadId(11),
  awaySquadId: asSquadId(12),
  isMarginGame: true,
  stage: 'regular',
  result: null,
  editable: { startsAt: false, venue: true, marginGame: false },
}
const venues = [
  { id: 1, name: 'The Gabba', city: 'Brisbane' },
  { id: 2, name: 'Adelaide Oval', city: 'Adelaide' },
]

const fill = (label: string, value: string, scope: HTMLElement = document.body) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } })

describe('ResultForm', () => {
  it('refuses a save with no result chosen and names the field, sending nothing', async () => {
    const onSave = vi.fn()
    render(<ResultForm match={match} homeName="Heat" awayName="Sixers" onSave={onSave} />)
    fireEvent.click(screen.getByRole('button', { name: 'Save result' }))
    expect(await screen.findByText('Choose the winner, a tie or no result')).toBeTruthy()
    expect(screen.getByLabelText('Result').getAttribute('aria-invalid')).toBe('true')
    expect(onSave).not.toHaveBeenCalled()
  })

  it('checks innings fields by the contract and sends a full result', async () => {
    const onSave = vi.fn(() => Promise.resolve())
    render(<ResultForm match={match} homeName="Heat" awayName="Sixers" onSave={onSave} />)
    const home = screen.getByRole('group', { name: 'Heat innings' })
    const away = screen.getByRole('group', { name: 'Sixers innings' })
    fill('Result', 'win:11')
    fill('Runs', '180', home)
    fill('Wickets', '5', home)
    fill('Overs', '19.7', home)
    fireEvent.click(screen.getByRole('button', { name: 'Save result' }))
    expect(await screen.findByText('Overs as cricket notation, e.g. 19.5')).toBeTruthy()
    expect(onSave).not.toHaveBeenCalled()
    fill('Overs', '20', home)
    fill('Runs', '150', away)
    fill('Wickets', '9', away)
    fill('Overs', '20', away)
    fill('Sixes (margin game)', '14')
    fill('Method', 'DLS')
    fireEvent.click(screen.getByRole('button', { name: 'Save result' }))
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith({
        outcome: 'win',
        winnerSquadId: 11,
        home: { runs: 180, wickets: 5, overs: '20' },
        away: { runs: 150, wickets: 9, overs: '20' },
        sixes: 14,
        method: 'DLS',
      }),
    )
  })

  it('sends a no result with no innings, and shows a server refusal under its field', async () => {
    const onSave = vi.fn(() =>
      Promise.reject(
        new ApiCallError(
          'The winner must be one of the two squads',
          'INVALID_SQUAD',
          'winnerSquadId',
          400,
        ),
      ),
    )
    render(<ResultForm match={match} homeName="Heat" awayName="Sixers" onSave={onSave} />)
    fill('Result', 'no_result')
    fireEvent.click(screen.getByRole('button', { name: 'Save result' }))
    expect(await screen.findByText('The winner must be one of the two squads')).toBeTruthy()
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        outcome: 'no_result',
        winnerSquadId: null,
        home: null,
        away: null,
      }),
    )
    expect(screen.getByLabelText('Result').getAttribute('aria-invalid')).toBe('true')
  })

  it('opens on the result already entered, to correct it', () => {
    const complete: AdminMatch = {
      ...match,
      status: 'complete',
      result: {
        outcome: 'win',
        winnerSquadId: asSquadId(12),
        home: { runs: 140, wickets: 10, overs: '18.2' },
        away: { runs: 141, wickets: 3, overs: '16' },
        sixes: 9,
        method: null,
      },
    }
    render(<ResultForm match={complete} homeName="Heat" awayName="Sixers" onSave={vi.fn()} />)
    expect(screen.getByLabelText<HTMLSelectElement>('Result').value).toBe('win:12')
    const away = screen.getByRole('group', { name: 'Sixers innings' })
    expect(within(away).getByLabelText<HTMLInputElement>('Overs').value).toBe('16')
  })
})

describe('MatchRow', () => {
  const home = { name: 'Brisbane Heat', shortName: 'HEA' }
  const away = { name: 'Sydney Sixers', shortName: 'SIX' }
  const row = (m: AdminMatch, setResult = vi.fn(() => Promise.resolve())) =>
    render(
      <ul>
        <MatchRow
          match={m}
          home={home}
          away={away}
          venueName="The Gabba"
          venues={venues}
          setResult={setResult}
          updateMatch={vi.fn(() => Promise.resolve())}
        />
      </ul>,
    )

  it('opens the result form of a started match awaiting its result, and closes it once saved', async () => {
    const setResult = vi.fn(() => Promise.resolve())
    row(match, setResult)
    const item = screen.getByRole('listitem', { name: 'Match 3: Brisbane Heat v Sydney Sixers' })
    expect(within(item).getByText('Margin game')).toBeTruthy()
    expect(within(item).getByText('Awaiting the result')).toBeTruthy()
    const toggle = within(item).getByRole('button', { name: 'Enter result of match 3' })
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(within(item).queryByRole('form', { name: 'Schedule of match 3' })).toBeNull()
    fill('Result', 'tie', item)
    fireEvent.click(within(item).getByRole('button', { name: 'Save result' }))
    expect(await within(item).findByText(/Result saved for match 3/)).toBeTruthy()
    expect(setResult).toHaveBeenCalledWith(expect.objectContaining({ outcome: 'tie' }))
    expect(within(item).queryByRole('form', { name: 'Result of match 3' })).toBeNull()
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
  })

  it('shows a result in a line, with the forms closed until asked for', () => {
    row({
      ...match,
      status: 'complete',
      isMarginGame: false,
      result: {
        outcome: 'win',
        winnerSquadId: asSquadId(12),
        home: { runs: 140, wickets: 10, overs: '18.2' },
        away: { runs: 141, wickets: 3, overs: '16' },
        sixes: 9,
        method: 'DLS',
      },
    })
    const item = screen.getByRole('listitem')
    expect(
      within(item).getByText('SIX won (DLS) · HEA 140/10 (18.2) · SIX 141/3 (16) · 9 sixes'),
    ).toBeTruthy()
    expect(within(item).queryByText('Margin game')).toBeNull()
    expect(within(item).queryByRole('form')).toBeNull()
    fireEvent.click(within(item).getByRole('button', { name: 'Schedule of match 3' }))
    expect(within(item).getByRole('form', { name: 'Schedule of match 3' })).toBeTruthy()
    fireEvent.click(within(item).getByRole('button', { name: 'Correct result of match 3' }))
    expect(within(item).getByRole('form', { name: 'Result of match 3' })).toBeTruthy()
    expect(within(item).queryByRole('form', { name: 'Schedule of match 3' })).toBeNull()
  })

  it('offers no result form before the start', () => {
    row({ ...match, status: 'scheduled' })
    const item = screen.getByRole('listitem')
    expect(within(item).getByText('Not started')).toBeTruthy()
    expect(within(item).queryByRole('button', { name: /result/ })).toBeNull()
    expect(within(item).queryByRole('form')).toBeNull()
  })
})

describe('MatchEditForm', () => {
  it('sends only what changed, and disables what the lifecycle forbids', async () => {
    const onSave = vi.fn(() => Promise.resolve())
    render(<MatchEditForm match={match} venues={venues} onSave={onSave} />)
    expect(screen.getByLabelText<HTMLInputElement>('Start (your time)').disabled).toBe(true)
    expect(screen.getByText('Margin game')).toBeTruthy()
    fill('Venue', '2')
    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }))
    await screen.findByText('Match 3 updated.')
    expect(onSave).toHaveBeenCalledWith({ venueId: 2 })
  })

  it('says there is nothing to change, and shows a server refusal by field', async () => {
    const scheduled: AdminMatch = {
      ...match,
      status: 'scheduled',
      isMarginGame: false,
      editable: { startsAt: true, venue: true, marginGame: true },
    }
    const onSave = vi.fn(() =>
      Promise.reject(
        new ApiCallError('The new start must be in the future', 'VALIDATION', 'startsAt', 400),
      ),
    )
    render(<MatchEditForm match={scheduled} venues={venues} onSave={onSave} />)
    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }))
    expect(await screen.findByText('Nothing to change')).toBeTruthy()
    expect(onSave).not.toHaveBeenCalled()
    fill('Start (your time)', toLocalInput('2029-12-30T08:00:00.000Z'))
    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }))
    expect(await screen.findByText('The new start must be in the future')).toBeTruthy()
    expect(onSave).toHaveBeenCalledWith({ startsAt: '2029-12-30T08:00:00.000Z' })
    fireEvent.click(screen.getByRole('button', { name: 'Make margin game' }))
    await waitFor(() => expect(onSave).toHaveBeenLastCalledWith({ isMarginGame: true }))
  })
})

describe('content tab (mocked API)', () => {
  afterEach(() => vi.unstubAllGlobals())

  const answer = (body: unknown, status = 200) =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    )

  it('loads the settings, checks a tab by its schema, and PUTs it to its key', async () => {
    const saved = structuredClone(CONTENT_DEFAULTS)
    saved.notification_bars.bbl = { isEnabled: true, message: 'Finals week!' }
    const fetchMock = vi.fn((url: string, init?: RequestInit) =>
      url === '/api/admin/content' && (init?.method ?? 'GET') === 'GET'
        ? answer({ success: { content: CONTENT_DEFAULTS } })
        : answer({ success: { content: saved } }),
    )
    vi.stubGlobal('fetch', fetchMock)
    render(
      <Provider store={createTestStore()}>
        <MemoryRouter>
          <ContentPage />
        </MemoryRouter>
      </Provider>,
    )
    const show = await screen.findByLabelText('Show the BBL bar')
    fireEvent.click(show)
    fireEvent.click(screen.getByRole('button', { name: 'Save notification bars' }))
    expect(await screen.findByText('A bar that is shown needs a message')).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    fill('BBL message', 'Finals week!')
    fireEvent.click(screen.getByRole('button', { name: 'Save notification bars' }))
    await screen.findByText('Saved and published.')
    // The confirmation stays once the saved settings come back (and the fields keep them).
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByText('Saved and published.')).not.toBeNull()
    expect(screen.getByLabelText<HTMLTextAreaElement>('BBL message').value).toBe('Finals week!')
    const [url, init] = fetchMock.mock.calls[1]!
    expect(url).toBe('/api/admin/content/notification_bars')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(init?.body as string)).toEqual(saved.notification_bars)
  })

  it('edits FAQs as a list and shows the server error of a field', async () => {
    const fetchMock = vi.fn((url: string, init?: RequestInit) =>
      (init?.method ?? 'GET') === 'GET'
        ? answer({ success: { content: CONTENT_DEFAULTS } })
        : answer(
            { errors: [{ code: 'VALIDATION', message: 'Too long', param: 'bbl.0.answer' }] },
            400,
          ),
    )
    vi.stubGlobal('fetch', fetchMock)
    render(
      <Provider store={createTestStore()}>
        <MemoryRouter>
          <ContentPage />
        </MemoryRouter>
      </Provider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'FAQs' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Add question' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save faqs' }))
    expect((await screen.findAllByText('Required')).length).toBe(2)
    fill('Question (question 1)', 'When do tips lock?')
    fill('Answer (question 1)', 'At the start of each match.')
    fireEvent.click(screen.getByRole('button', { name: 'Save faqs' }))
    expect(await screen.findByText('Too long')).toBeTruthy()
    const [url, init] = fetchMock.mock.calls[1]!
    expect(url).toBe('/api/admin/content/faqs')
    expect(JSON.parse(init?.body as string)).toEqual({
      bbl: [{ question: 'When do tips lock?', answer: 'At the start of each match.' }],
      wbbl: [],
    })
  })
})

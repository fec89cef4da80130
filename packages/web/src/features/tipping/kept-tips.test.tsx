import { act, render, screen } from '@testing-library/react'
import { asMatchId, asSquadId } from '@tipping/contract/ids'
import type { Match } from '@tipping/contract/predictions'
import type { Squad } from '@tipping/contract/static-files'
import { afterEach, describe, expect, it } from 'vitest'
import type { QueuedTip } from '../../lib/offline-queue.ts'
import {
  forgetTips,
  markQueued,
  markVerdicts,
  reportConnection,
  useOffline,
  useTipStates,
} from '../../lib/offline-status.ts'
import { KeptTips } from './kept-tips.tsx'

// Issue 32: the page says per match what became of a tip kept offline, and the banner follows
// the connection as the API client reports it (lib/offline-status.ts).

const squads = new Map<number, Squad>([
  [1, { id: 1, shortName: 'HEA' } as Squad],
  [2, { id: 2, shortName: 'STA' } as Squad],
])
const match = (id: number) =>
  ({ id: asMatchId(id), homeSquadId: asSquadId(1), awaySquadId: asSquadId(2) }) as Match
const tip = (m: number): QueuedTip => ({
  userId: 7,
  sport: 'bbl',
  round: 3,
  match: m,
  squad: 1,
  margin: null,
  queuedAt: '2026-01-01T00:00:00.000Z',
})

function Page() {
  const offline = useOffline()
  return (
    <>
      {offline ? <p>offline</p> : null}
      <KeptTips
        matches={[match(1), match(2), match(3)]}
        squads={squads}
        states={useTipStates()}
        picks={
          new Map([
            [1, 1],
            [2, 2],
          ])
        }
      />
    </>
  )
}

afterEach(() => {
  act(() => {
    forgetTips()
    reportConnection(true)
  })
})

describe('kept tips', () => {
  it('shows nothing until a tip is kept, then waiting, then saved or refused per match', () => {
    render(<Page />)
    expect(screen.queryByTestId('kept-tips')).toBeNull()
    act(() => markQueued([1, 2]))
    expect(screen.getByTestId('kept-tip-1').textContent).toBe('HEA v STA: HEA Waiting to send')
    expect(screen.getByTestId('kept-tip-2').textContent).toMatch(/: STA Waiting to send$/)
    expect(screen.queryByTestId('kept-tip-3')).toBeNull()
    act(() =>
      markVerdicts([
        { tip: tip(1), state: 'saved' },
        { tip: tip(2), state: 'refused', message: 'This match has started' },
      ]),
    )
    expect(screen.getByTestId('kept-tip-1').textContent).toMatch(/Saved ✓$/)
    expect(screen.getByTestId('kept-tip-2').textContent).toMatch(/Refused: This match has started$/)
    act(() => forgetTips([1, 2]))
    expect(screen.queryByTestId('kept-tips')).toBeNull()
  })

  it('is offline after a call with no answer, and online again at the next answer', () => {
    render(<Page />)
    expect(screen.queryByText('offline')).toBeNull()
    act(() => reportConnection(false))
    expect(screen.getByText('offline')).toBeTruthy()
    act(() => reportConnection(true))
    expect(screen.queryByText('offline')).toBeNull()
  })
})

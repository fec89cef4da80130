import { fireEvent, render, screen, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { TipsHistoryResponse } from '@tipping/contract/receipts'
import { answer, notFound, renderPageAt } from '../../lib/test-page.tsx'
import { createTestStore } from '../../lib/test-store.ts'
import { LastReceipt } from './last-receipt.tsx'
import { LockTime } from './lock-time.tsx'
import { receiptReceived } from './receipts-api.ts'
import { tippingApi } from './tipping-api.ts'
import TipsHistoryPage from './tips-history-page.tsx'

// Issue 32: My tips history (saves, receipts, what changed), the receipt check, the lock time.

const ID = 'AbCdEfGh12345678'
const DIGEST = 'ab'.repeat(32)
const history = {
  saves: [
    {
      kind: 'clear',
      receipt: { id: 'CcCcCcCc00000000', savedAt: '2025-12-01T10:09:00.000Z', digest: DIGEST },
      picks: [{ match: 3, matchNumber: 3, round: 1, squad: null, margin: null }],
      changed: [
        {
          match: 3,
          matchNumber: 3,
          round: 1,
          squad: null,
          margin: null,
          was: { squad: 5, margin: null },
        },
      ],
    },
    {
      kind: 'autopick',
      receipt: { id: 'AaAaAaAa00000000', savedAt: '2025-12-01T10:08:00.000Z', digest: DIGEST },
      picks: [
        { match: 3, matchNumber: 3, round: 1, squad: 5, margin: null },
        { match: 4, matchNumber: 4, round: 1, squad: 6, margin: null },
      ],
      changed: [
        { match: 3, matchNumber: 3, round: 1, squad: 5, margin: null, was: null },
        { match: 4, matchNumber: 4, round: 1, squad: 6, margin: null, was: null },
      ],
    },
    {
      kind: 'save',
      receipt: { id: ID, savedAt: '2025-12-01T10:05:00.042Z', digest: DIGEST },
      picks: [
        { match: 2, matchNumber: 2, round: 1, squad: 7, margin: 14 },
        { match: 3, matchNumber: 3, round: 1, squad: 8, margin: 1 },
      ],
      changed: [
        {
          match: 2,
          matchNumber: 2,
          round: 1,
          squad: 7,
          margin: 14,
          was: { squad: 8, margin: null },
        },
        {
          match: 3,
          matchNumber: 3,
          round: 1,
          squad: 8,
          margin: 1,
          was: { squad: 8, margin: 0 },
        },
      ],
    },
    {
      kind: 'save',
      receipt: { id: 'ZzZzZzZz00000000', savedAt: '2025-12-01T10:00:00.000Z', digest: DIGEST },
      picks: [{ match: 1, matchNumber: 1, round: 1, squad: 5, margin: null }],
      changed: [],
    },
  ],
} as unknown as TipsHistoryResponse

let calls: string[] = []
beforeEach(() => {
  calls = []
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url)
    if (url === '/api/bbl/tips-history') return answer(history)
    if (url === `/api/receipts/${ID}?digest=${DIGEST}`)
      return answer({ genuine: true, savedAt: '2025-12-01T10:05:00.042Z' })
    if (url.startsWith('/api/receipts/')) return answer({ genuine: false, savedAt: null })
    return notFound()
  })
})
afterEach(() => vi.unstubAllGlobals())

const renderPage = () =>
  renderPageAt('/bbl/tips-history', '/:sport/tips-history', <TipsHistoryPage />)

describe('My tips history', () => {
  it('lists each save newest first with its receipt, time and what changed', async () => {
    renderPage()
    const saves = await screen.findByRole('list', { name: 'Saves' })
    const items = within(saves)
      .getAllByRole('listitem', { name: '' })
      .filter((li) => li.getAttribute('data-testid')?.startsWith('save-'))
    expect(items).toHaveLength(4)
    // A clear says what it cleared and what each tip was; an autopick what it filled.
    expect(items[0]!.textContent).toContain('Clear · 1 tip cleared')
    expect(within(items[0]!).getByRole('list', { name: 'What changed' }).textContent).toMatch(
      /^Week 1, match 3: cleared \(was .+\)$/,
    )
    expect(items[1]!.textContent).toContain('Autopick · 2 tips filled')
    expect(within(items[1]!).getAllByText(/\(new tip\)/)).toHaveLength(2)
    expect(items[2]!.textContent).toContain('Mon 01-12-2025 10:05:00.042 UTC')
    expect(items[2]!.textContent).toContain('Receipt AbCdEfGh · 2 tips saved')
    // On the margin game, the sixes predicted for the match (not "by N sixes", a winning margin).
    const changes = within(within(items[2]!).getByRole('list', { name: 'What changed' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent)
    expect(changes[0]).toMatch(/^Week 1, match 2: [^,]+, 14 sixes \(was [^,]+\)$/)
    expect(changes[1]).toMatch(/^Week 1, match 3: [^,]+, 1 six \(was [^,]+, 0 sixes\)$/)
    expect(items[3]!.textContent).toContain('No tip changed.')
  })

  it('checks a pasted receipt and names a malformed one', async () => {
    renderPage()
    const field = await screen.findByLabelText('Receipt (id.digest)')
    fireEvent.change(field, { target: { value: 'not a receipt' } })
    fireEvent.click(screen.getByRole('button', { name: 'Check' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/16-character id/)
    expect(calls.some((c) => c.startsWith('/api/receipts/'))).toBe(false)
    fireEvent.change(field, { target: { value: `${ID}.${DIGEST}` } })
    fireEvent.click(screen.getByRole('button', { name: 'Check' }))
    expect(await screen.findByText(/^Genuine: saved Mon 01-12-2025 10:05:00.042 UTC$/)).toBeTruthy()
    fireEvent.change(field, { target: { value: `${ID}.${'cd'.repeat(32)}` } })
    fireEvent.click(screen.getByRole('button', { name: 'Check' }))
    expect(await screen.findByText(/^Not genuine/)).toBeTruthy()
  })
})

describe('LockTime', () => {
  it('shows the recorded lock to the millisecond, in UTC as every time is, and nothing before', () => {
    const { container, rerender } = render(<LockTime lockedAt="2025-12-14T19:15:00.002Z" />)
    expect(container.textContent).toBe('Locked at 19:15:00.002 UTC')
    rerender(<LockTime lockedAt={null} />)
    expect(container.textContent).toBe('')
  })
})

describe('LastReceipt', () => {
  it('shows the last save’s receipt once a save answers, kept on the device across pages', async () => {
    const receipt = { id: ID, savedAt: '2025-12-01T10:05:00.042Z', digest: DIGEST }
    const page = (store: ReturnType<typeof createTestStore>) => (
      <Provider store={store}>
        <MemoryRouter>
          <LastReceipt sport="bbl" />
        </MemoryRouter>
      </Provider>
    )
    const first = createTestStore()
    const { unmount } = render(page(first))
    const card = await screen.findByTestId('last-receipt')
    expect(card.textContent).toContain('Each save you make gets a receipt')
    void first.dispatch(receiptReceived({ sport: 'bbl', userId: 0 }, receipt))
    await screen.findByText('AbCdEfGh')
    expect(card.textContent).toContain('Mon 01-12-2025 10:05:00.042 UTC')
    unmount()
    // A new page load (a new store) reads it back from the device, asking the server nothing.
    render(page(createTestStore()))
    await screen.findByText('AbCdEfGh')
    expect(calls).toEqual([])
  })
})

describe('the receipt strip after an autopick or a clear (decision 029)', () => {
  it('shows the write’s receipt, named for what it was', async () => {
    const receipts = {
      autopick: { id: 'AaAaAaAa11111111', savedAt: '2025-12-01T10:08:00.001Z', digest: DIGEST },
      clear: { id: 'CcCcCcCc22222222', savedAt: '2025-12-01T10:09:00.002Z', digest: DIGEST },
    }
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(url)
      const kind = url.endsWith('/autopick') ? 'autopick' : url.endsWith('/clear') ? 'clear' : null
      if (!kind) return new Response('{}', { status: 404 })
      return new Response(
        JSON.stringify({ success: { predictions: [], receipt: receipts[kind] } }),
        { status: 200 },
      )
    })
    const store = createTestStore()
    render(
      <Provider store={store}>
        <MemoryRouter>
          <LastReceipt sport="bbl" />
        </MemoryRouter>
      </Provider>,
    )
    const card = await screen.findByTestId('last-receipt')
    await store.dispatch(
      tippingApi.endpoints.autopick.initiate({
        sport: 'bbl',
        round: 1 as never,
        matches: [3 as never],
      }),
    )
    await screen.findByText('AaAaAaAa')
    expect(card.textContent).toContain('Last autopick: receipt AaAaAaAa')
    expect(card.textContent).toContain('10:08:00.001 UTC')
    await store.dispatch(
      tippingApi.endpoints.clearPicks.initiate({
        sport: 'bbl',
        round: 1 as never,
        matches: [3 as never],
      }),
    )
    await screen.findByText('CcCcCcCc')
    expect(card.textContent).toContain('Last clear: receipt CcCcCcCc')
    expect(calls).toEqual(['/api/bbl/predictions_list/autopick', '/api/bbl/predictions_list/clear'])
  })
})

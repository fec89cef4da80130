import { fireEvent, render, screen, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AdminHealthResponse, JobRun } from '@tipping/contract/admin'
import { adminHealthResponseSchema } from '@tipping/contract/admin'
import { createTestStore } from '../../lib/test-store.ts'
import HealthPage, { formatDuration } from './health-page.tsx'

const NOW = '2025-12-15T00:00:20.000Z'
const run = (job: string, over: Partial<JobRun> = {}): JobRun => ({
  job,
  lastRunAt: '2025-12-15T00:00:00.000Z',
  durationMs: 42,
  error: null,
  lastErrorAt: null,
  lastError: null,
  runs: 12,
  failures: 0,
  ...over,
})

/** A stuck match day: the scheduler is late, the last publish failed, emails are piling up. */
const stuck: AdminHealthResponse = adminHealthResponseSchema.parse({
  now: NOW,
  scheduler: {
    status: 'late',
    lastTickAt: '2025-12-15T00:00:00.000Z',
    intervalMs: 5000,
    lagMs: 1200,
    overdueMs: 15_000,
  },
  lockouts: run('lockouts', { durationMs: 2400 }),
  publishing: run('publishing', {
    error: 'EACCES: permission denied, open static/bbl/ladder.json',
    lastError: 'EACCES: permission denied, open static/bbl/ladder.json',
    lastErrorAt: '2025-12-15T00:00:00.000Z',
    failures: 1,
  }),
  jobs: [run('lockouts'), run('publishing'), run('scheduler')],
  emailOutbox: { queued: 37, failed: 2, oldestQueuedAgeSeconds: 600 },
  recentFailures: [
    {
      job: 'publishing',
      at: '2025-12-15T00:00:00.000Z',
      error: 'EACCES: permission denied, open static/bbl/ladder.json',
    },
  ],
})

const answer = (body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify({ success: body }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  )

const show = () =>
  render(
    <Provider store={createTestStore()}>
      <MemoryRouter>
        <HealthPage />
      </MemoryRouter>
    </Provider>,
  )

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('HealthPage', () => {
  it('shows a late scheduler, the failed publish and the outbox backlog', async () => {
    const fetchMock = vi.fn(() => answer(stuck))
    vi.stubGlobal('fetch', fetchMock)
    show()
    const scheduler = await screen.findByRole('region', { name: 'Scheduler' })
    expect(within(scheduler).getByText('Late')).toBeTruthy()
    expect(within(scheduler).getByText('15 s')).toBeTruthy()
    const lockouts = screen.getByRole('region', { name: 'Lockouts' })
    expect(within(lockouts).getByText('2.4 s')).toBeTruthy()
    expect(within(lockouts).getByText('OK')).toBeTruthy()
    const publishing = screen.getByRole('region', { name: 'Publishing' })
    expect(within(publishing).getByText('Failed')).toBeTruthy()
    expect(within(publishing).getByText(/EACCES: permission denied/)).toBeTruthy()
    const outbox = screen.getByRole('region', { name: 'Email outbox' })
    expect(within(outbox).getByText('37')).toBeTruthy()
    expect(within(outbox).getByText('10 min')).toBeTruthy()
    expect(within(outbox).getByRole('link', { name: 'Open the email outbox' })).toBeTruthy()
    const failures = screen.getByRole('region', { name: 'Failed jobs' })
    expect(within(failures).getByText('Publishing')).toBeTruthy()
    expect(within(failures).getByText(/EACCES/)).toBeTruthy()
    expect(screen.getAllByRole('row')).toHaveLength(4)
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/health', expect.anything())
  })

  it('says so when nothing is wrong, and reads again on Refresh', async () => {
    const fine: AdminHealthResponse = {
      ...stuck,
      scheduler: { ...stuck.scheduler, status: 'ok', overdueMs: 0 },
      publishing: run('publishing'),
      emailOutbox: { queued: 0, failed: 0, oldestQueuedAgeSeconds: null },
      recentFailures: [],
    }
    const fetchMock = vi.fn(() => answer(fine))
    vi.stubGlobal('fetch', fetchMock)
    show()
    const scheduler = await screen.findByRole('region', { name: 'Scheduler' })
    expect(within(scheduler).getByText('On time')).toBeTruthy()
    expect(screen.getByText('No job failures in the last 24 hours.')).toBeTruthy()
    expect(screen.getByText('none waiting')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2))
  })

  it('warns when no scheduler pass was ever recorded', async () => {
    vi.stubGlobal('fetch', () =>
      answer({
        ...stuck,
        scheduler: {
          status: 'never',
          lastTickAt: null,
          intervalMs: null,
          lagMs: null,
          overdueMs: null,
        },
        lockouts: null,
        publishing: null,
        jobs: [],
        recentFailures: [],
      }),
    )
    show()
    expect(await screen.findByText('Never ran')).toBeTruthy()
    expect(screen.getByText(/matches are not locking/)).toBeTruthy()
    expect(screen.getAllByText('Not run yet.')).toHaveLength(2)
    expect(screen.queryByRole('table')).toBeNull()
  })
})

describe('formatDuration', () => {
  it('reads as a person on call would say it', () => {
    expect(formatDuration(850)).toBe('850 ms')
    expect(formatDuration(2400)).toBe('2.4 s')
    expect(formatDuration(42_000)).toBe('42 s')
    expect(formatDuration(600_000)).toBe('10 min')
    expect(formatDuration(2 * 3_600_000)).toBe('2.0 h')
  })
})

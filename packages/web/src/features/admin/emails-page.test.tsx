import { fireEvent, render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { Provider } from 'react-redux'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { adminEmailsResponseSchema } from '@tipping/contract/admin'
import { createTestStore } from '../../lib/test-store.ts'
import EmailsPage from './emails-page.tsx'

const outbox = adminEmailsResponseSchema.parse({
  emails: [
    {
      id: '41',
      kind: 'contact',
      to: 'support@example.com',
      subject: 'Contact form: a question',
      text: 'Hi,\n> <img src=x onerror="alert(1)"> is what I typed\nThanks',
      status: 'failed',
      attempts: 5,
      createdAt: '2025-12-15T00:00:00.000Z',
      sentAt: null,
      failedAt: '2025-12-15T00:10:00.000Z',
      nextAttemptAt: null,
      error: '550 no such user',
    },
  ],
  nextPage: null,
})

afterEach(() => vi.unstubAllGlobals())

describe('EmailsPage', () => {
  it("shows each email's subject, and its text body as text once opened", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify({ success: outbox }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    )
    const { container } = render(
      <Provider store={createTestStore()}>
        <MemoryRouter>
          <EmailsPage />
        </MemoryRouter>
      </Provider>,
    )
    expect(await screen.findByText('Contact form: a question')).toBeTruthy()
    // Queued at midnight UTC, shown as such whatever the browser's zone (not its local time).
    expect(container.textContent).toContain('queued 15-12-2025 00:00:00 UTC')
    const details = container.querySelector('details')!
    expect(details.open).toBe(false)
    const summary = within(details).getByText('Message')
    expect(summary.closest('summary')!.textContent).toContain('of the email to support@example.com')
    fireEvent.click(summary)
    expect(details.open).toBe(true)
    const body = details.querySelector('pre')!
    // The markup a sender typed is shown as typed, never made into an element.
    expect(body.textContent).toBe(outbox.emails[0]!.text)
    expect(body.querySelector('img')).toBeNull()
    expect(container.querySelector('img')).toBeNull()
  })

  it('retries a failed email and reads the outbox again, which shows it queued', async () => {
    const queued = { ...outbox.emails[0]!, status: 'pending', attempts: 0, error: null }
    let retried = false
    const calls: string[] = []
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`)
      if (init?.method === 'POST') retried = true
      const body =
        init?.method === 'POST'
          ? { email: queued }
          : { emails: [retried ? queued : outbox.emails[0]], nextPage: null }
      return Promise.resolve(
        new Response(JSON.stringify({ success: body }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      )
    })
    render(
      <Provider store={createTestStore()}>
        <MemoryRouter>
          <EmailsPage />
        </MemoryRouter>
      </Provider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: /Retry/ }))
    expect(
      await screen.findByText('The email to support@example.com is queued again.'),
    ).toBeTruthy()
    expect(await screen.findByText('pending')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull()
    expect(calls).toEqual([
      'GET /api/admin/emails?status=all&page=1',
      'POST /api/admin/emails/41/retry',
      'GET /api/admin/emails?status=all&page=1',
    ])
  })
})

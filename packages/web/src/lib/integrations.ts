import { ERROR_REPORT_SAMPLE_RATE } from '@tipping/contract/site-rules'
import type { AppConfigFile } from '@tipping/contract/static-files'
import { staticJson } from './static-data.ts'

// Optional third-party hooks (issue 7 item 8), off unless configured on the server, which
// publishes them in app-config.json and only then lets their origin through the CSP. Nothing here
// blocks the page: scripts load async, reports go by beacon, and a failure is swallowed.

type Hooks = Pick<AppConfigFile, 'errorReportUrl' | 'taggingScriptUrl'>

/** A hook's address from app-config.json, read before the store exists: checked, not cast. */
const urlOf = (config: unknown, key: keyof Hooks): string | null => {
  const value: unknown = config && typeof config === 'object' ? Reflect.get(config, key) : null
  return typeof value === 'string' ? value : null
}

const loadHooks = async (): Promise<Hooks> => {
  const config = await staticJson('app-config.json').catch(() => null)
  return {
    errorReportUrl: urlOf(config, 'errorReportUrl'),
    taggingScriptUrl: urlOf(config, 'taggingScriptUrl'),
  }
}

export interface ErrorReport {
  message: string
  stack: string | null
  page: string
  at: string
}

/**
 * Sends a sampled share of uncaught errors to the configured endpoint (spec 9: rate 0.1; the
 * server publishes the endpoint only in production). Returns a function that stops listening.
 */
export function reportErrors(
  url: string | null,
  o: { random?: () => number; send?: (url: string, report: ErrorReport) => void } = {},
): () => void {
  if (!url) return () => undefined
  const random = o.random ?? Math.random
  const send =
    o.send ??
    ((to: string, report: ErrorReport) => {
      const body = JSON.stringify(report)
      if (!navigator.sendBeacon?.(to, new Blob([body], { type: 'application/json' })))
        void fetch(to, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(
          () => undefined,
        )
    })
  const report = (error: unknown, fallback: string) => {
    if (random() >= ERROR_REPORT_SAMPLE_RATE) return
    const err = error instanceof Error ? error : null
    send(url, {
      message: (err?.message ?? fallback).slice(0, 500),
      stack: err?.stack?.slice(0, 4000) ?? null,
      // The path only: query strings can carry sign-in codes and tokens.
      page: window.location.pathname,
      at: new Date().toISOString(),
    })
  }
  const onError = (e: ErrorEvent) => report(e.error, e.message)
  const onRejection = (e: PromiseRejectionEvent) => report(e.reason, String(e.reason))
  window.addEventListener('error', onError)
  window.addEventListener('unhandledrejection', onRejection)
  return () => {
    window.removeEventListener('error', onError)
    window.removeEventListener('unhandledrejection', onRejection)
  }
}

/** Starts the error reporter when one is configured; called once at start-up. */
export async function startErrorReporting(): Promise<void> {
  reportErrors((await loadHooks()).errorReportUrl)
}

/** The tagging script's address with the user id and the tag for this sport and step. */
export function taggingScriptSrc(
  base: string,
  t: { userId: number; sport: string; step: string },
): string {
  const url = new URL(base)
  url.searchParams.set('uid', String(t.userId))
  url.searchParams.set('tag', `${t.sport}-${t.step}`)
  return url.toString()
}

/**
 * Spec 4: after registration a third-party tagging script is injected with the user id and a tag
 * per sport and step (e.g. `bbl-registration`). Only when configured; loaded async.
 */
export async function tagRegistration(t: {
  userId: number
  sport: string
  step: string
}): Promise<void> {
  const { taggingScriptUrl } = await loadHooks()
  if (!taggingScriptUrl) return
  const script = document.createElement('script')
  script.src = taggingScriptSrc(taggingScriptUrl, t)
  script.async = true
  script.dataset.tag = `${t.sport}-${t.step}`
  document.head.appendChild(script)
}

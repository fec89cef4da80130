import { describe, expect, it } from 'vitest'
import { ApiCallError } from './api-client.ts'
import {
  errorRaised,
  globalErrorActions,
  globalErrorReducer,
  selectVisibleError,
  type GlobalErrorState,
} from './global-error-slice.ts'

const visible = (globalError: GlobalErrorState) => selectVisibleError({ globalError })
const start = globalErrorReducer(undefined, { type: 'init' })

describe('the visible error (spec 8)', () => {
  it('shows a raised message, and nothing once Understood clears it', () => {
    const raised = globalErrorReducer(start, globalErrorActions.raised('Nothing to recover'))
    expect(visible(raised)).toBe('Nothing to recover')
    expect(visible(globalErrorReducer(raised, globalErrorActions.cleared()))).toBeNull()
  })

  it('leaves a 409 out, and shows every other failure', () => {
    const conflict = new ApiCallError('This match has started', 'MATCH_LOCKED', null, 409)
    const stored = globalErrorReducer(start, errorRaised(conflict, 'Not saved'))
    expect(stored).toEqual({ message: 'This match has started', status: 409, code: 'MATCH_LOCKED' })
    expect(visible(stored)).toBeNull()
    for (const status of [400, 403, 404, 429, 500, 503, 513, 0]) {
      const err = new ApiCallError('Shown', 'ANY', null, status)
      expect(visible(globalErrorReducer(start, errorRaised(err, 'x'))), String(status)).toBe(
        'Shown',
      )
    }
  })

  it('raises a failure that is no API answer with its message or the fallback', () => {
    expect(visible(globalErrorReducer(start, errorRaised(new Error('Boom'), 'x')))).toBe('Boom')
    expect(visible(globalErrorReducer(start, errorRaised('odd', 'Fallback')))).toBe('Fallback')
  })
})

import { useSelector } from 'react-redux'
import type { UserSession } from '@tipping/contract/auth'
import type { SessionState } from './session-slice.ts'

/** The session slice as any component sees it (the store mounts it at `session`). */
export interface WithSession {
  session: SessionState
}

/** The signed-in user (the spec's `initialUser`, id 0, before the session check or signed out). */
export const useCurrentUser = (): UserSession => useSelector((s: WithSession) => s.session.user)

/** Whether the session check found a signed-in user. */
export const useIsSignedIn = (): boolean => useSelector((s: WithSession) => s.session.isAuthorized)

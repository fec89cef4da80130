import type {
  LoginBody,
  PasswordChangeBody,
  PasswordResetBody,
  PasswordResetRequested,
  RegisterBody,
  UserResponse,
  UserUpdateInput,
  UserUpdateResponse,
} from '@tipping/contract/auth'
import { SPORTS, type Sport } from '@tipping/contract/constants'
import type { SquadsFile } from '@tipping/contract/static-files'
import { api, ApiCallError } from '../../lib/api-client.ts'
import { staticJson } from '../../lib/static-data.ts'

const fetchUser = (sport: Sport) => api<UserResponse>(`${sport}/user`, { skipUnauthorized: true })

/**
 * The session check. A user not registered for the remembered sport's game gets 513 there (spec
 * 8); the other sport then says who is signed in, so they are not taken for a visitor.
 */
export const fetchSessionUser = async (sport: Sport): Promise<UserResponse> => {
  try {
    return await fetchUser(sport)
  } catch (err) {
    if (!(err instanceof ApiCallError) || err.status !== 513) throw err
    return fetchUser(SPORTS.find((s) => s !== sport)!)
  }
}
export const login = (body: LoginBody) =>
  api<UserResponse>('auth/login', { method: 'POST', body, skipUnauthorized: true })
export const register = (body: RegisterBody) =>
  api<UserResponse>('auth/register', { method: 'POST', body })
export const logout = (sport: Sport) =>
  api<{ ok: true }>(`${sport}/auth/logout`, { method: 'POST', body: {} })

export const requestPasswordReset = (email: string) =>
  api<PasswordResetRequested>('auth/password_reset/request', {
    method: 'POST',
    body: { email },
  })
export const resetPassword = (body: PasswordResetBody) =>
  api<{ ok: true }>('auth/password_reset', { method: 'POST', body })

/** Spec 7: `POST {sport}/auth/register_for_game`, the answer to a 513. */
export const registerForGame = (sport: Sport) =>
  api<UserResponse>(`${sport}/auth/register_for_game`, { method: 'POST', body: {} })
/** Spec 7: `POST {sport}/{sport}/user/recover`. */
export const recoverAccount = (sport: Sport) =>
  api<UserResponse>(`${sport}/${sport}/user/recover`, { method: 'POST', body: {} })

export const updateUser = (sport: Sport, body: UserUpdateInput) =>
  api<UserUpdateResponse>(`${sport}/user`, { method: 'POST', body })
export const changePassword = (body: PasswordChangeBody) =>
  api<{ ok: true }>('user/password', { method: 'POST', body })
export const deactivateAccount = () =>
  api<{ ok: true }>('user/deactivate', { method: 'POST', body: {} })

export const fetchSquads = (sport: Sport) => staticJson<SquadsFile>(`${sport}/squads.json`)

import type {
  AdminAuditResponse,
  AdminCompetition,
  AdminEmail,
  AdminEmailsResponse,
  AdminHealthResponse,
  AdminLeaguesResponse,
  AdminMatch,
  AdminUser,
  AdminUsersResponse,
  CompetitionRoundsResponse,
  CompetitionSettingsBody,
  CreateCompetitionBody,
  CricsheetImportResponse,
  EmailStatus,
  ImportFixtureResponse,
  UpdateMatchBody,
  UpdateRolesBody,
} from '@tipping/contract/admin'
import type { Sport } from '@tipping/contract/constants'
import type { ContentKey, ContentResponse, ContentSettings } from '@tipping/contract/content'
import type { MatchResultBody } from '@tipping/contract/results'
import { api } from '../../lib/api-client.ts'

// The admin console's calls (contract: packages/contract/src/admin.ts, content.ts, results.ts).

const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v))
  const s = q.toString()
  return s ? `?${s}` : ''
}

export const competitions = () => api<{ competitions: AdminCompetition[] }>('admin/competitions')
export const createCompetition = (body: CreateCompetitionBody) =>
  api<{ competition: AdminCompetition }>('admin/competitions', { method: 'POST', body })
export const importFixture = (file: unknown) =>
  api<ImportFixtureResponse>('admin/competitions/import', {
    method: 'POST',
    body: file,
    timeoutMs: 120_000,
  })
export const updateCompetition = (id: number, body: CompetitionSettingsBody) =>
  api<{ competition: AdminCompetition }>(`admin/competitions/${id}`, { method: 'PATCH', body })
export const rounds = (id: number) =>
  api<CompetitionRoundsResponse>(`admin/competitions/${id}/rounds`)
export const rescore = (id: number) =>
  api<{ rounds: number; tippers: number }>(`admin/competitions/${id}/rescore`, {
    method: 'POST',
    timeoutMs: 120_000,
  })
export const importCricsheet = (id: number, files: unknown[]) =>
  api<CricsheetImportResponse>(`admin/competitions/${id}/cricsheet`, {
    method: 'POST',
    body: { files },
    timeoutMs: 120_000,
  })
export const republish = () =>
  api<{ files: number }>('admin/publish', { method: 'POST', timeoutMs: 60_000 })
export const updateMatch = (id: number, body: UpdateMatchBody) =>
  api<{ match: AdminMatch }>(`admin/matches/${id}`, { method: 'PATCH', body })
export const setResult = (sport: Sport, matchId: number, body: MatchResultBody) =>
  api<{ ok: true }>(`admin/${sport}/matches/${matchId}/result`, {
    method: 'POST',
    body,
    timeoutMs: 60_000,
  })

export const users = (search: string, page: number) =>
  api<AdminUsersResponse>(`admin/users${query({ search, page })}`)
export const setRoles = (id: number, body: UpdateRolesBody) =>
  api<{ user: AdminUser }>(`admin/users/${id}/roles`, { method: 'PUT', body })
export const setActive = (id: number, active: boolean) =>
  api<{ user: AdminUser }>(`admin/users/${id}/${active ? 'reactivate' : 'deactivate'}`, {
    method: 'POST',
  })

export const leagues = (search: string, sport: Sport | '', page: number) =>
  api<AdminLeaguesResponse>(`admin/leagues${query({ search, sport, page })}`)
export const removeLeague = (id: number) =>
  api<{ ok: true }>(`admin/leagues/${id}`, { method: 'DELETE' })

export const emails = (status: EmailStatus | 'all', page: number) =>
  api<AdminEmailsResponse>(`admin/emails${query({ status, page })}`)
export const retryEmail = (id: string) =>
  api<{ email: AdminEmail }>(`admin/emails/${id}/retry`, { method: 'POST' })

export const health = () => api<AdminHealthResponse>('admin/health')

export const audit = (actor: string, kind: string, page: number) =>
  api<AdminAuditResponse>(`admin/audit${query({ actor, kind, page })}`)

export const content = () => api<ContentResponse>('admin/content')
export const saveContent = <K extends ContentKey>(key: K, value: ContentSettings[K]) =>
  api<ContentResponse>(`admin/content/${key}`, { method: 'PUT', body: value })

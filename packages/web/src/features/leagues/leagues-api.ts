import type { Sport } from '@tipping/contract/constants'
import type {
  BulkMembersResponse,
  CreateLeagueBody,
  HandOverBody,
  League,
  LeagueListResponse,
  UpdateLeagueBody,
} from '@tipping/contract/leagues'
import type {
  LeagueLadderResponse,
  RankingsResponse,
  UserTipsResponse,
} from '@tipping/contract/scores'
import type { LadderFile, RoundsFile, SquadsFile } from '@tipping/contract/static-files'
import { api } from '../../lib/api-client.ts'
import { staticJson } from '../../lib/static-data.ts'

export interface JoinedUser {
  userId: number
  teamName: string | null
  firstName: string
  lastNameInitial: string
  isCommissioner: boolean
}

export const ownLeagues = (sport: Sport, page: number) =>
  api<LeagueListResponse>(`${sport}/leagues?page=${page}`)
export const showLeague = (sport: Sport, id: number) =>
  api<{ league: League }>(`${sport}/league/${id}`)
export const createLeague = (sport: Sport, body: CreateLeagueBody) =>
  api<{ league: League }>(`${sport}/league`, { method: 'POST', body })
export const updateLeague = (sport: Sport, id: number, body: UpdateLeagueBody) =>
  api<{ league: League }>(`${sport}/league/${id}`, { method: 'POST', body })
export const removeLeague = (sport: Sport, id: number) =>
  api<{ ok: true }>(`${sport}/league/${id}/delete`, { method: 'POST', body: {} })
export const leaveLeague = (sport: Sport, id: number) =>
  api<{ ok: true }>(`${sport}/league/${id}/leave`, { method: 'POST', body: {} })
export const joinLeague = (sport: Sport, code: string) =>
  api<{ league: League }>(`${sport}/league/${encodeURIComponent(code)}/join`, {
    method: 'POST',
    body: {},
  })
export const findLeagues = (sport: Sport, query: { code?: string; search?: string }, page = 1) => {
  const params = new URLSearchParams({ page: String(page) })
  if (query.code) params.set('code', query.code)
  if (query.search) params.set('search', query.search)
  return api<LeagueListResponse>(`${sport}/league/show-for-join?${params.toString()}`)
}
export const joinedUsers = (sport: Sport, id: number, page: number) =>
  api<{ users: JoinedUser[]; nextPage: number | null }>(
    `${sport}/league/${id}/user/show-joined?page=${page}`,
  )
/** The commissioner hands the league to another member (who becomes its commissioner). */
export const handOverLeague = (sport: Sport, id: number, userId: number) =>
  api<{ league: League }>(`${sport}/league/${id}/commissioner`, {
    method: 'POST',
    body: { userId } satisfies HandOverBody,
  })
export const removeMember = (sport: Sport, id: number, userId: number) =>
  api<{ ok: true }>(`${sport}/league/${id}/user/${userId}`, { method: 'POST', body: {} })

const ladderQuery = (page: number, round: number | null, search?: string) => {
  const params = new URLSearchParams({ page: String(page) })
  if (round !== null) params.set('round', String(round))
  if (search) params.set('search', search)
  return params.toString()
}
export const leagueLadder = (sport: Sport, id: number, page: number, round: number | null) =>
  api<LeagueLadderResponse>(`${sport}/rankings/${id}/rankings?${ladderQuery(page, round)}`)
export const overallRankings = (sport: Sport, page: number, round: number | null, search: string) =>
  api<RankingsResponse>(`${sport}/rankings/overall/rankings?${ladderQuery(page, round, search)}`)
export const tipsOfUser = (sport: Sport, round: number, userId: number) =>
  api<UserTipsResponse>(`${sport}/predictions/${round}/user/${userId}`)

export const fetchRounds = (sport: Sport) => staticJson<RoundsFile>(`${sport}/rounds.json`)
export const fetchSquads = (sport: Sport) => staticJson<SquadsFile>(`${sport}/squads.json`)
export const fetchTeamLadder = (sport: Sport) => staticJson<LadderFile>(`${sport}/ladder.json`)

export const inviteByEmail = (sport: Sport, id: number, emails: string[]) =>
  api<{ invited: number }>(`${sport}/league/${id}/invite`, { method: 'POST', body: { emails } })
export const messageMembers = (sport: Sport, leagueId: number, subject: string, message: string) =>
  api<{ recipients: number }>(`${sport}/league/send_emails`, {
    method: 'POST',
    body: { leagueId, subject, message },
  })
export const removeMembers = (leagueId: number, userIds: number[]) =>
  api<BulkMembersResponse>('tipping_join/delete_multi', {
    method: 'POST',
    body: { leagueId, userIds },
  })

import type { Sport } from '@tipping/contract/constants'
import type {
  PredictionsResponse,
  SavePredictionsResponse,
  TipInput,
} from '@tipping/contract/predictions'
import type {
  AppConfigFile,
  FormGuideFile,
  RoundsFile,
  SquadsFile,
  VenuesFile,
} from '@tipping/contract/static-files'
import type { LeagueListResponse } from '@tipping/contract/leagues'
import type { LeagueMatesTipsResponse, Snapshot } from '@tipping/contract/scores'
import { api } from '../../lib/api-client.ts'
import { staticJson } from '../../lib/static-data.ts'

export const fetchRound = (sport: Sport, round: number) =>
  api<PredictionsResponse>(`${sport}/predictions/${round}`)
export const savePicks = (sport: Sport, predictions: TipInput[]) =>
  api<SavePredictionsResponse>(`${sport}/predictions_list`, {
    method: 'POST',
    body: { predictions },
  })

export const fetchRounds = (sport: Sport) => staticJson<RoundsFile>(`${sport}/rounds.json`)
export const fetchSquads = (sport: Sport) => staticJson<SquadsFile>(`${sport}/squads.json`)
export const fetchVenues = (sport: Sport) => staticJson<VenuesFile>(`${sport}/venues.json`)

export const autopick = (sport: Sport, matchIds: number[]) =>
  api<SavePredictionsResponse>(`${sport}/predictions_list/autopick`, {
    method: 'POST',
    body: { predictions: matchIds.map((match) => ({ match })) },
  })
export const clearPicks = (sport: Sport, matchIds: number[]) =>
  api<SavePredictionsResponse>(`${sport}/predictions_list/clear`, {
    method: 'POST',
    body: { predictions: matchIds.map((match) => ({ match })) },
  })
export const saveTip = (sport: Sport, tip: TipInput) =>
  api<{ prediction: PredictionsResponse['predictions'][number] }>(`${sport}/tips`, {
    method: 'POST',
    body: tip,
  })

export const fetchSnapshot = (sport: Sport, round: number) =>
  api<Snapshot>(`${sport}/predictions/snapshot`, { method: 'POST', body: { round } })

export const fetchFormGuide = (sport: Sport) => staticJson<FormGuideFile>(`${sport}/formguide.json`)
export const fetchAppConfig = () => staticJson<AppConfigFile>('app-config.json')

export const fetchOwnLeagues = (sport: Sport) => api<LeagueListResponse>(`${sport}/leagues`)
export const fetchLeagueMatesTips = (sport: Sport, round: number) =>
  api<LeagueMatesTipsResponse>(`${sport}/predictions/${round}/leagues`)

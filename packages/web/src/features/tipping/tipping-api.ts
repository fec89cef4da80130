import type { Sport } from '@tipping/contract/constants'
import type {
  PredictionsResponse,
  SavePredictionsResponse,
  TipInput,
} from '@tipping/contract/predictions'
import type { RoundsFile, SquadsFile, VenuesFile } from '@tipping/contract/static-files'
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

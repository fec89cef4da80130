import { SPORTS, type Sport } from '@tipping/contract/constants'
import { readStored, writeStored } from '../lib/storage.ts'

export const isSport = (value: string | undefined): value is Sport =>
  SPORTS.includes(value as Sport)

/** The last chosen sport is remembered locally (spec 1); bbl when nothing is stored. */
export const storedSport = (): Sport => {
  const value = readStored('selectedSport') ?? undefined
  return isSport(value) ? value : 'bbl'
}

export const rememberSport = (sport: Sport): void => writeStored('selectedSport', sport)

import { z } from 'zod'
import { SPORTS } from './constants.ts'

export const sportSchema = z.enum(SPORTS)
export const sportParamsSchema = z.object({ sport: sportSchema })

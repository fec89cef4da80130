import { initialOf, type RankingRow } from '@tipping/contract/scores'

/** The fields a ranking or ladder query returns for one tipper. */
export interface RankedTipper {
  rank: number | null
  user_id: number
  team_name: string | null
  first_name: string
  last_name: string
  points: number
  margin: number
  total_points: number
  total_margin: number
}

/** One row of the rankings or of a league ladder, as the browser sees it (no email, initial only). */
export const toRankingRow = (r: RankedTipper): RankingRow => ({
  rank: r.rank ?? 0,
  userId: r.user_id,
  teamName: r.team_name,
  firstName: r.first_name,
  lastNameInitial: initialOf(r.last_name),
  points: r.points,
  totalPoints: r.total_points,
  margin: r.margin,
  totalMargin: r.total_margin,
})

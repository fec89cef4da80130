import { Navigate, useParams } from 'react-router'
import { readShareToken } from '../lib/share.ts'
import { isSport, storedSport } from '../lib/sport.ts'

/** `/share/{sport}/{section}/{token}`: where a shared link lands. A league share opens that
 * league (sign-in first when needed); anything else opens the competition's home. */
export function ShareRoute() {
  const { sport, section, token } = useParams()
  if (!isSport(sport)) return <Navigate to="/" replace />
  const payload = token ? readShareToken(token) : null
  if (section === 'league' && payload?.league_id)
    return <Navigate to={`/${sport}/league/${payload.league_id}/ladder`} replace />
  return <Navigate to={`/${sport}`} replace />
}

/** `/leagues/join/{code}`, the spec's join link form without a sport: the remembered sport's join
 * page (links the game sends include the sport; this keeps shorter hand-typed ones working). */
export function JoinLinkRoute() {
  const { code } = useParams()
  return <Navigate to={`/${storedSport()}/leagues/join/${code ?? ''}`} replace />
}

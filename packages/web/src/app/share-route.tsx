import { Navigate, useParams } from 'react-router'
import { readShareToken } from '../lib/share.ts'
import { isSport } from './sport.ts'

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

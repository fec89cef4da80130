import { useSelector } from 'react-redux'
import { Navigate, useParams } from 'react-router'
import { readShareToken } from '../lib/share.ts'
import { isSport, sportOfAccount, storedSport } from '../lib/sport.ts'
import { useCurrentUser, type WithSession } from '../lib/use-current-user.ts'
import { Spinner } from '../ui/spinner.tsx'

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

/** `/account`: the account page, where the password is changed (a password manager arrives here
 * from /.well-known/change-password, which cannot know the sport): under the remembered sport if
 * the account plays it, else under the one it plays; after the session check, which tells which. */
export function AccountLinkRoute() {
  const checked = useSelector((s: WithSession) => s.session.isSessionChecked)
  const { roles } = useCurrentUser()
  if (!checked) return <Spinner label="Loading" />
  return <Navigate to={`/${sportOfAccount(roles, storedSport())}/account`} replace />
}

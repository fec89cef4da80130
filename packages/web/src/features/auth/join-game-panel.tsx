import { useDispatch } from 'react-redux'
import { useNavigate } from 'react-router'
import { gameName, type Sport } from '@tipping/contract/constants'
import { sportLabel } from '../../lib/sport.ts'
import { failureMessage, isApiFailure } from '../../lib/api.ts'
import { tagRegistration } from '../../lib/integrations.ts'
import { globalErrorActions } from '../../lib/global-error-slice.ts'
import { Button } from '../../ui/button.tsx'
import { Panel } from '../../ui/panel.tsx'
import { useRecoverAccountMutation, useRegisterForGameMutation } from './auth-api.ts'
import { sessionActions } from '../../lib/session-slice.ts'

/**
 * Shown instead of a sport's pages to a signed-in user not registered for its game (the 513 of
 * spec 8): join it (`register_for_game`), or bring back an earlier season's account (`recover`,
 * which then goes to the leagues, spec 2). Both failures raise the global error (spec 8).
 */
export function JoinGamePanel({ sport }: { sport: Sport }) {
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const [registerForGame, joining] = useRegisterForGameMutation()
  const [recoverAccount, recovering] = useRecoverAccountMutation()
  const busy = joining.isLoading || recovering.isLoading

  const run = async (action: 'join' | 'recover') => {
    try {
      const { user } =
        action === 'join'
          ? await registerForGame(sport).unwrap()
          : await recoverAccount(sport).unwrap()
      dispatch(sessionActions.userUpdated(user))
      // Joining a second game is a registration too (spec 4's tag per sport and step).
      if (action === 'join') void tagRegistration({ userId: user.id, sport, step: 'registration' })
      if (action === 'recover') void navigate(`/${sport}/leagues`, { replace: true })
    } catch (err) {
      const code = isApiFailure(err) ? ` (${err.code})` : ''
      dispatch(globalErrorActions.raised(`${failureMessage(err, 'Something went wrong')}${code}`))
    }
  }

  return (
    <Panel title={`Join ${gameName(sport)}`}>
      <p data-testid="not-registered">
        You are not registered for {sportLabel(sport)} tipping yet. Join the game to tip its matches
        and play in its leagues; your account stays the same.
      </p>
      <p>
        <Button data-testid="join-game" disabled={busy} onClick={() => void run('join')}>
          Join {gameName(sport)}
        </Button>
      </p>
      <p>
        Tipped with us in an earlier season?{' '}
        <Button variant="ghost" disabled={busy} onClick={() => void run('recover')}>
          Recover my account
        </Button>
      </p>
    </Panel>
  )
}

import { useEffect, useState, type FormEvent } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import { ApiCallError } from '../../lib/api-client.ts'
import { removeStored } from '../../lib/storage.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { Modal } from '../../ui/modal.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { LeagueItem } from './league-item.tsx'
import * as leaguesApi from './leagues-api.ts'
import styles from './leagues.module.css'

const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiCallError && err.status === 404
    ? 'No league has that code. Check it with whoever invited you.'
    : err instanceof Error
      ? err.message
      : fallback

/** Spec 2: join by code, find public leagues by name, and the invite-link flow. */
export default function JoinLeaguePage() {
  const { sport, code } = useParams() as { sport: Sport; code?: string }
  const navigate = useNavigate()
  const autoJoin = (useLocation().state as { autoJoin?: boolean } | null)?.autoJoin === true
  const [codeError, setCodeError] = useState<string | null>(null)
  const [joining, setJoining] = useState<string | null>(null)
  const [search, setSearch] = useState('')
  const [results, setResults] = useState<{ leagues: League[]; next: number | null } | null>(null)
  const [searching, setSearching] = useState(false)
  const [invite, setInvite] = useState<League | null>(null)
  const [inviteNote, setInviteNote] = useState<string | null>(null)

  const goTo = (league: { id: number }) => void navigate(`/${sport}/league/${league.id}/ladder`)

  const join = async (joinCode: string) => {
    setJoining(joinCode)
    setCodeError(null)
    try {
      const { league } = await leaguesApi.joinLeague(sport, joinCode)
      goTo(league)
    } catch (err) {
      setCodeError(errorText(err, 'Could not join that league'))
      setInvite(null)
    } finally {
      setJoining(null)
    }
  }

  // Spec 4 "Join invite": look the code up; the modal closes when the user is already in, the lookup
  // fails, or no league comes back.
  useEffect(() => {
    if (!code) return
    removeStored('joinLink')
    let live = true
    leaguesApi
      .findLeagues(sport, { code })
      .then((res) => {
        if (!live) return
        const league = res.leagues[0]
        if (!league) setInviteNote('That invite link has no league behind it any more.')
        else if (league.isMember) goTo(league)
        else if (autoJoin) void join(code)
        else setInvite(league)
      })
      .catch(() => live && setInviteNote('We could not open that invite. Try the code below.'))
    return () => {
      live = false
    }
  }, [sport, code])

  const submitCode = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const raw = new FormData(e.currentTarget).get('code')
    const value = typeof raw === 'string' ? raw.trim() : ''
    if (!value) {
      setCodeError('Enter the join code you were sent')
      return
    }
    void join(value)
  }

  const find = (page: number) => {
    setSearching(true)
    leaguesApi
      .findLeagues(sport, { search }, page)
      .then((res) =>
        setResults((prev) => ({
          leagues: page === 1 || !prev ? res.leagues : [...prev.leagues, ...res.leagues],
          next: res.next,
        })),
      )
      .catch(() => setResults({ leagues: [], next: null }))
      .finally(() => setSearching(false))
  }
  const submitSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    if (search.trim()) find(1)
  }

  const game = `${sport.toUpperCase()} Tipping league`
  return (
    <div className={styles.page}>
      <div className={styles.titleBar}>
        <h1>Join a league</h1>
      </div>
      {inviteNote ? <p className={styles.notice}>{inviteNote}</p> : null}
      <form className={`${styles.card} ${styles.form}`} onSubmit={submitCode} noValidate>
        <h2>Have a code?</h2>
        <div className={styles.inline}>
          <FormField
            label="Join code"
            name="code"
            defaultValue={code ?? ''}
            autoCapitalize="characters"
            autoComplete="off"
            error={codeError}
          />
          <Button type="submit" disabled={joining !== null}>
            {joining ? 'Joining…' : 'Join'}
          </Button>
        </div>
      </form>
      <section className={styles.card}>
        <h2>Find a public league</h2>
        <form className={styles.inline} onSubmit={submitSearch} role="search">
          <FormField
            label="League name"
            name="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Button type="submit" variant="secondary" disabled={!search.trim() || searching}>
            Search
          </Button>
        </form>
        {results ? (
          <ul className={styles.list} aria-label="Public leagues" style={{ marginTop: 16 }}>
            {results.leagues.length === 0 ? (
              <li className={styles.empty}>No public leagues match that name.</li>
            ) : null}
            {results.leagues.map((l) => (
              <li key={l.id}>
                <LeagueItem
                  sport={sport}
                  league={l}
                  action={
                    l.isMember ? (
                      <Button variant="secondary" onClick={() => goTo(l)}>
                        Open
                      </Button>
                    ) : (
                      <Button
                        disabled={joining !== null || !l.code}
                        onClick={() => l.code && void join(l.code)}
                        aria-label={`Join ${l.name}`}
                      >
                        Join
                      </Button>
                    )
                  }
                />
              </li>
            ))}
          </ul>
        ) : null}
        {searching ? <Spinner label="Searching" /> : null}
        {results?.next && !searching ? (
          <div className={styles.more}>
            <Button variant="secondary" onClick={() => find(results.next ?? 1)}>
              Load More
            </Button>
          </div>
        ) : null}
      </section>
      {invite ? (
        <Modal
          open
          title={`Congrats - You've been invited to join a ${game}!`}
          onClose={() => setInvite(null)}
        >
          <dl className={styles.facts}>
            <dt>League</dt>
            <dd data-testid="invite-league-name">{invite.name}</dd>
            <dt>Starting Week</dt>
            <dd>{invite.startRound}</dd>
            <dt>Privacy</dt>
            <dd>{invite.privacy === 'private' ? 'Private' : 'Public'}</dd>
          </dl>
          <Button block disabled={joining !== null} onClick={() => code && void join(code)}>
            {joining ? 'Joining…' : 'Join now'}
          </Button>
        </Modal>
      ) : null}
    </div>
  )
}

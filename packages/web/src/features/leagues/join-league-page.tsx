import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
import { skipToken } from '@reduxjs/toolkit/query'
import { asFailure } from '../../lib/api-failure.ts'
import { gameName } from '@tipping/contract/constants'
import { useSport } from '../../lib/sport.ts'
import { removeStored } from '../../lib/storage.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { Modal } from '../../ui/modal.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { LeagueItem } from './league-item.tsx'
import { FRESH, useFindLeaguesInfiniteQuery, useJoinLeagueMutation } from './leagues-api.ts'
import styles from './leagues.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

const errorText = (err: unknown, fallback: string) => {
  const failure = asFailure(err, fallback)
  return failure.status === 404
    ? 'No league has that code. Check it with whoever invited you.'
    : failure.message
}

/** Spec 2: join by code, find public leagues by name, and the invite-link flow. */
export default function JoinLeaguePage() {
  usePageTitle('Join a league')
  const sport = useSport()
  const { code } = useParams()
  const navigate = useNavigate()
  const location = useLocation() as { state: { autoJoin?: boolean } | null }
  const autoJoin = location.state?.autoJoin === true
  const [joinLeague] = useJoinLeagueMutation()
  const [codeError, setCodeError] = useState<string | null>(null)
  const [joining, setJoining] = useState<string | null>(null)
  const [search, setSearch] = useState('')
  const [searched, setSearched] = useState<string | null>(null)
  const [inviteClosed, setInviteClosed] = useState(false)
  const autoJoined = useRef<string | null>(null)

  // Spec 4 "Join invite": the invite's code looked up; the modal closes when the user is already
  // in, the lookup fails, or no league comes back.
  const lookup = useFindLeaguesInfiniteQuery(code ? { sport, code } : skipToken, FRESH)
  const invited = lookup.currentData?.pages[0]?.leagues[0] ?? null
  const inviteNote = !code
    ? null
    : lookup.isError
      ? 'We could not open that invite. Try the code below.'
      : lookup.currentData && !invited
        ? 'That invite link has no league behind it any more.'
        : null
  const invite = invited && !invited.isMember && !autoJoin && !inviteClosed ? invited : null

  // The public leagues whose name matches the search, once submitted.
  const found = useFindLeaguesInfiniteQuery(searched ? { sport, search: searched } : skipToken)
  const results = searched
    ? { leagues: found.isError ? [] : (found.currentData?.pages.flatMap((p) => p.leagues) ?? []) }
    : null
  const searching = found.isFetching

  const goTo = useCallback(
    (league: { id: number }) => void navigate(`/${sport}/league/${league.id}/ladder`),
    [navigate, sport],
  )

  const join = useCallback(
    async (joinCode: string) => {
      setJoining(joinCode)
      setCodeError(null)
      try {
        // The user's leagues, that league and its ladder are read again (leagues-api.ts).
        const { league } = await joinLeague({ sport, code: joinCode }).unwrap()
        goTo(league)
      } catch (err) {
        setCodeError(errorText(err, 'Could not join that league'))
        setInviteClosed(true)
      } finally {
        setJoining(null)
      }
    },
    [goTo, joinLeague, sport],
  )

  useEffect(() => {
    if (code) removeStored('joinLink')
  }, [code])

  // Already a member: straight to the league. Signed in from the invite: joined once, at once.
  useEffect(() => {
    if (!code || !invited) return
    if (invited.isMember) goTo(invited)
    else if (autoJoin && autoJoined.current !== code) {
      autoJoined.current = code
      void join(code)
    }
  }, [autoJoin, code, goTo, invited, join])

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

  const submitSearch = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    if (search.trim()) setSearched(search.trim())
  }

  const game = `${gameName(sport)} league`
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
        {results && found.hasNextPage && !searching ? (
          <div className={styles.more}>
            <Button variant="secondary" onClick={() => void found.fetchNextPage()}>
              Load More
            </Button>
          </div>
        ) : null}
      </section>
      {invite ? (
        <Modal
          open
          title={`Congrats - You've been invited to join a ${game}!`}
          onClose={() => setInviteClosed(true)}
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

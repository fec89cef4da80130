import { useSearchParams } from 'react-router'
import type { CompetitionRoundsResponse } from '@tipping/contract/admin'
import { skipToken } from '@reduxjs/toolkit/query/react'
import { failureMessage } from '../../lib/api.ts'
import { SelectField } from '../../ui/form-field.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import {
  useAdminLiveRoundQuery,
  useCompetitionsQuery,
  useRoundsQuery,
  useSetLiveScoreMutation,
  useSetResultMutation,
  useUpdateMatchMutation,
} from './admin-api.ts'
import styles from './admin.module.css'
import { awaitsResult, MatchRow, type Squad } from './match-row.tsx'
import { usePageTitle } from '../../lib/page-title.ts'

/** The round worth opening first: the earliest one not yet complete. */
const defaultRound = (rounds: CompetitionRoundsResponse['rounds']) =>
  (rounds.find((r) => r.status !== 'complete') ?? rounds[rounds.length - 1])?.number ?? 1

/** Rounds and matches: one compact row per match of the chosen round, results entered in place. */
export default function MatchesPage() {
  usePageTitle('Rounds and matches · Admin')
  const [params, setParams] = useSearchParams()
  const competitions = useCompetitionsQuery()
  const list = competitions.data?.competitions ?? []
  const chosen =
    Number(params.get('competition')) ||
    list.find((c) => c.isCurrent && c.sport === 'bbl')?.id ||
    list[0]?.id ||
    0
  const rounds = useRoundsQuery(chosen || skipToken)
  // A result or a schedule change refetches the round (admin-api.ts tags).
  const [setResult] = useSetResultMutation()
  const [updateMatch] = useUpdateMatchMutation()
  const [setLive] = useSetLiveScoreMutation()
  const data = rounds.data
  const loadError = competitions.error ?? rounds.error
  const roundNumber = Number(params.get('round')) || (data ? defaultRound(data.rounds) : 1)
  const round = data?.rounds.find((r) => r.number === roundNumber)
  const squad = (id: number): Squad => {
    const s = data?.squads.find((x) => x.id === id)
    return s ?? { name: `Squad ${id}`, shortName: `#${id}` }
  }
  const venue = (id: number) => data?.venues.find((v) => v.id === id)?.name ?? `Venue ${id}`
  const waiting = round?.matches.filter(awaitsResult).length ?? 0
  // The live scores are the current season's (GET /api/{sport}/live/{round}): read only when this
  // round of it has a match in progress, whose live-score form opens on the score as it stands.
  const liveRound = useAdminLiveRoundQuery(
    data?.competition.isCurrent && round?.matches.some((m) => m.status === 'active')
      ? { sport: data.competition.sport, round: round.number }
      : skipToken,
  )
  const liveOf = (matchId: number) =>
    liveRound.isLoading
      ? undefined
      : (liveRound.data?.matches.find((l) => l.matchId === matchId) ?? null)
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params)
    next.set(key, value)
    if (key === 'competition') next.delete('round')
    // A choice made on the page, not a new page: it stays scrolled where it is (decision 042).
    setParams(next, { replace: true, preventScrollReset: true })
  }

  return (
    <div className={styles.page}>
      <h1>Rounds and matches</h1>
      <div className={styles.row}>
        <SelectField
          compact
          label="Season"
          value={chosen || ''}
          onChange={(e) => set('competition', e.target.value)}
        >
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.sport.toUpperCase()}){c.isCurrent ? ' · current' : ''}
            </option>
          ))}
        </SelectField>
        <SelectField
          compact
          label="Round"
          value={roundNumber}
          onChange={(e) => set('round', e.target.value)}
        >
          {(data?.rounds ?? []).map((r) => (
            <option key={r.id} value={r.number}>
              {r.label || `Week ${r.number}`} · {r.status}
              {r.isGoldenWeek ? ' · Golden Week' : ''}
            </option>
          ))}
        </SelectField>
      </div>
      {loadError ? (
        <p className={styles.error} role="alert">
          {failureMessage(loadError, 'Could not load')}
        </p>
      ) : null}
      {!data && !loadError ? <Spinner label="Loading the fixture" /> : null}
      {data && !round ? <p>This season has no rounds yet: import its fixture file.</p> : null}
      {round && data ? (
        <>
          <p className={styles.meta}>
            {round.matches.length} matches
            {waiting > 0 ? ` · ${waiting} awaiting a result` : ''}
          </p>
          <ul className={styles.matchList}>
            {round.matches.map((m) => (
              <MatchRow
                key={m.id}
                match={m}
                home={squad(m.homeSquadId)}
                away={squad(m.awaySquadId)}
                venueName={venue(m.venueId)}
                venues={data.venues}
                setResult={(body) =>
                  setResult({ sport: data.competition.sport, matchId: m.id, body }).unwrap()
                }
                updateMatch={(body) => updateMatch({ id: m.id, body }).unwrap()}
                live={
                  m.status === 'active'
                    ? {
                        current: liveOf(m.id),
                        save: (body) =>
                          setLive({ sport: data.competition.sport, matchId: m.id, body }).unwrap(),
                      }
                    : undefined
                }
              />
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}

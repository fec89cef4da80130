import { useSearchParams } from 'react-router'
import type { AdminMatch, CompetitionRoundsResponse } from '@tipping/contract/admin'
import { Spinner } from '../../ui/spinner.tsx'
import * as adminApi from './admin-api.ts'
import styles from './admin.module.css'
import { SelectField } from './fields.tsx'
import { MatchEditForm } from './match-edit-form.tsx'
import { ResultForm } from './result-form.tsx'
import { useLoad } from './use-load.ts'

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  })

/** The round worth opening first: the earliest one not yet complete. */
const defaultRound = (rounds: CompetitionRoundsResponse['rounds']) =>
  (rounds.find((r) => r.status !== 'complete') ?? rounds[rounds.length - 1])?.number ?? 1

/** Rounds and matches: schedule edits and results, one round at a time. */
export default function MatchesPage() {
  const [params, setParams] = useSearchParams()
  const competitions = useLoad(() => adminApi.competitions(), [])
  const list = competitions.data?.competitions ?? []
  const chosen =
    Number(params.get('competition')) ||
    list.find((c) => c.isCurrent && c.sport === 'bbl')?.id ||
    list[0]?.id ||
    0
  const rounds = useLoad(() => (chosen ? adminApi.rounds(chosen) : Promise.resolve(null)), [chosen])
  const data = rounds.data
  const roundNumber = Number(params.get('round')) || (data ? defaultRound(data.rounds) : 1)
  const round = data?.rounds.find((r) => r.number === roundNumber)
  const squad = (id: number) => data?.squads.find((s) => s.id === id)?.name ?? `Squad ${id}`
  const venue = (id: number) => data?.venues.find((v) => v.id === id)?.name ?? `Venue ${id}`
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params)
    next.set(key, value)
    if (key === 'competition') next.delete('round')
    setParams(next, { replace: true })
  }

  const matchCard = (m: AdminMatch) => (
    <li key={m.id} className={styles.card} aria-labelledby={`match-${m.id}`}>
      <h2 id={`match-${m.id}`}>
        Match {m.number}: {squad(m.homeSquadId)} v {squad(m.awaySquadId)}
      </h2>
      <p className={styles.meta}>
        {when(m.startsAt)} · {venue(m.venueId)} · <span className={styles.badge}>{m.status}</span>
        {m.result
          ? ` · ${
              m.result.outcome === 'win'
                ? `${squad(m.result.winnerSquadId ?? 0)} won`
                : m.result.outcome === 'tie'
                  ? 'Tie'
                  : 'No result'
            }${m.result.sixes === null ? '' : `, ${m.result.sixes} sixes`}`
          : ''}
      </p>
      <MatchEditForm
        match={m}
        venues={data?.venues ?? []}
        onSave={async (body) => {
          await adminApi.updateMatch(m.id, body)
          rounds.reload()
        }}
      />
      {m.status === 'scheduled' ? (
        <p className={styles.meta}>Results can be entered once the match has started.</p>
      ) : (
        <ResultForm
          key={m.id}
          match={m}
          homeName={squad(m.homeSquadId)}
          awayName={squad(m.awaySquadId)}
          onSave={async (body) => {
            await adminApi.setResult(data!.competition.sport, m.id, body)
            rounds.reload()
          }}
        />
      )}
    </li>
  )

  return (
    <div className={styles.page}>
      <h1>Rounds and matches</h1>
      <div className={styles.row}>
        <SelectField
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
      {competitions.error || rounds.error ? (
        <p className={styles.error} role="alert">
          {competitions.error ?? rounds.error}
        </p>
      ) : null}
      {!data && !rounds.error ? <Spinner label="Loading the fixture" /> : null}
      {data && !round ? <p>This season has no rounds yet: import its fixture file.</p> : null}
      {round ? <ul className={styles.list}>{round.matches.map(matchCard)}</ul> : null}
    </div>
  )
}

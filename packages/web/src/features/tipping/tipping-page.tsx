import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { useParams } from 'react-router'
import { REFRESH_INTERVAL_MS, SAVE_CONFIRMATION_MS, type Sport } from '@tipping/contract/constants'
import { canSave, picksToSave } from '@tipping/contract/rules/picks'
import { defaultRoundId } from '@tipping/contract/rules/rounds'
import type { FixtureRound, Squad, Venue } from '@tipping/contract/static-files'
import { ApiCallError } from '../../lib/api-client.ts'
import { globalErrorActions } from '../../lib/global-error-slice.ts'
import { invalidateStatic } from '../../lib/static-data.ts'
import { Button } from '../../ui/button.tsx'
import { FooterBar } from './footer-bar.tsx'
import { MatchCard } from './match-card.tsx'
import { picksActions, type PicksState } from './picks-slice.ts'
import { RoundSelector } from './round-selector.tsx'
import * as tippingApi from './tipping-api.ts'
import styles from './tipping-page.module.css'

const SKELETON_CARDS = 4

export default function TippingPage() {
  const sport = useParams().sport as Sport
  const dispatch = useDispatch()
  const state = useSelector((s: { picks: PicksState }) => s.picks)
  const [rounds, setRounds] = useState<FixtureRound[] | null>(null)
  const [squads, setSquads] = useState<Map<number, Squad>>(new Map())
  const [venues, setVenues] = useState<Map<number, Venue>>(new Map())
  const [roundNumber, setRoundNumber] = useState<number | null>(null)
  const [now, setNow] = useState(() => new Date())
  const [loadError, setLoadError] = useState<string | null>(null)
  const confirmTimer = useRef<ReturnType<typeof setTimeout> | null>(null)

  // Fixture, squads and venues from the static root; the default round per spec 4.
  useEffect(() => {
    let live = true
    setRounds(null)
    setRoundNumber(null)
    Promise.all([
      tippingApi.fetchRounds(sport),
      tippingApi.fetchSquads(sport),
      tippingApi.fetchVenues(sport),
    ])
      .then(([r, s, v]) => {
        if (!live) return
        setRounds(r.rounds)
        setSquads(new Map(s.squads.map((x) => [x.id, x])))
        setVenues(new Map(v.venues.map((x) => [x.id, x])))
        const id = defaultRoundId(r.rounds)
        setRoundNumber(r.rounds.find((x) => x.id === id)?.number ?? 1)
      })
      .catch(
        () =>
          live &&
          setLoadError('We could not load the fixture. Check your connection and try again.'),
      )
    return () => {
      live = false
    }
  }, [sport])

  const load = useCallback(
    async (mode: 'load' | 'refresh') => {
      if (roundNumber === null) return
      if (mode === 'load') dispatch(picksActions.loadStarted())
      try {
        const data = await tippingApi.fetchRound(sport, roundNumber)
        dispatch(mode === 'load' ? picksActions.loaded(data) : picksActions.refreshed(data))
        setLoadError(null)
      } catch (err) {
        if (mode === 'load') {
          dispatch(picksActions.loadFailed())
          setLoadError(err instanceof Error ? err.message : 'Could not load this week')
        }
      }
    },
    [dispatch, sport, roundNumber],
  )

  useEffect(() => {
    void load('load')
  }, [load])

  // Spec 4: periodic refresh every 31 s while the page is visible; the clock ticks for lockouts.
  useEffect(() => {
    const refresh = setInterval(() => {
      if (document.visibilityState === 'visible') {
        invalidateStatic()
        void load('refresh')
      }
    }, REFRESH_INTERVAL_MS)
    const tick = setInterval(() => setNow(new Date()), 1000)
    return () => {
      clearInterval(refresh)
      clearInterval(tick)
    }
  }, [load])

  useEffect(
    () => () => {
      if (confirmTimer.current) clearTimeout(confirmTimer.current)
    },
    [],
  )

  const picksByMatch = useMemo(() => new Map(state.picks.map((p) => [p.match, p])), [state.picks])
  const total = state.matches.length
  const picked = state.picks.filter((p) => p.squad > 0).length
  const saveEnabled =
    state.round !== null &&
    canSave({ canSave: state.can_save, roundStatus: state.round.status, picks: state.picks })

  const save = async () => {
    const list = picksToSave(state.picks).map((p) => ({
      match: p.match,
      squad: p.squad,
      margin: p.isMarginGame ? (p.margin ?? 0) : null,
    }))
    dispatch(picksActions.saveStarted())
    try {
      const { predictions } = await tippingApi.savePicks(sport, list)
      dispatch(picksActions.saveSucceeded(predictions))
      if (confirmTimer.current) clearTimeout(confirmTimer.current)
      confirmTimer.current = setTimeout(
        () => dispatch(picksActions.confirmationHidden()),
        SAVE_CONFIRMATION_MS,
      )
    } catch (err) {
      dispatch(picksActions.saveFailed())
      if (!(err instanceof ApiCallError && err.status === 401)) {
        dispatch(
          globalErrorActions.raised(
            err instanceof Error ? err.message : 'Your tips were not saved',
          ),
        )
      }
    }
  }

  const ready =
    rounds !== null && state.loadStatus === 'success' && state.round?.number === roundNumber
  return (
    <div className={styles.page} data-sport={sport}>
      <div className={styles.intro}>
        <h1 className={styles.title}>Your tips</h1>
        <p className={styles.sub}>
          Pick the winner of every match. Tips lock when each match starts.
        </p>
      </div>
      {rounds && roundNumber !== null ? (
        <RoundSelector rounds={rounds} current={roundNumber} onChange={setRoundNumber} />
      ) : (
        <div className={styles.skeleton} style={{ minHeight: 64 }} aria-hidden="true" />
      )}
      {loadError && !ready ? (
        <div className={styles.error} role="alert">
          <p>{loadError}</p>
          <Button onClick={() => void load('load')}>Try again</Button>
        </div>
      ) : null}
      <section className={styles.grid} aria-label="Matches" aria-busy={!ready}>
        {ready
          ? state.matches.map((m) => (
              <MatchCard
                key={m.id}
                match={m}
                pick={picksByMatch.get(m.id)}
                squads={squads}
                venue={venues.get(m.venueId)}
                now={now}
                disabled={state.saving}
                onPick={(squad) => dispatch(picksActions.picked({ match: m.id, squad }))}
                onMargin={(margin) => dispatch(picksActions.marginChanged({ match: m.id, margin }))}
              />
            ))
          : Array.from({ length: SKELETON_CARDS }, (_, i) => (
              <div key={i} className={styles.skeleton} aria-hidden="true" />
            ))}
      </section>
      {ready ? (
        <FooterBar
          picked={picked}
          total={total}
          saveStatus={state.saveStatus}
          canSave={saveEnabled}
          onSave={() => void save()}
        />
      ) : null}
    </div>
  )
}

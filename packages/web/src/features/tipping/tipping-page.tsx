import {
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { useParams } from 'react-router'
import {
  MARGIN_DEBOUNCE_MS,
  REFRESH_INTERVAL_MS,
  SAVE_CONFIRMATION_MS,
  type Sport,
} from '@tipping/contract/constants'
import type { MateTip, Snapshot } from '@tipping/contract/scores'
import { allOpenPicked, canSave, picksToSave } from '@tipping/contract/rules/picks'
import { defaultRoundId } from '@tipping/contract/rules/rounds'
import type { FixtureRound, FormGuideFile, Squad, Venue } from '@tipping/contract/static-files'
import { ApiCallError } from '../../lib/api-client.ts'
import { globalErrorActions } from '../../lib/global-error-slice.ts'
import { invalidateStatic } from '../../lib/static-data.ts'
import { shareUrl } from '../../lib/share.ts'
import { PHONE_QUERY, useMediaQuery } from '../../lib/use-media-query.ts'
import { Button } from '../../ui/button.tsx'
import { ShareModal } from '../../ui/share-modal.tsx'
import { CountdownCard, CountdownPlaceholder } from './countdown-card.tsx'
import { FooterBar } from './footer-bar.tsx'
import { JoinPrompt, rememberJoinPrompt, shouldPromptToJoin } from './join-prompt.tsx'
import { LeaveGuard } from './leave-guard.tsx'
import { MatchCard } from './match-card.tsx'
import { picksActions, type PicksState } from './picks-slice.ts'
import { RoundSelector } from './round-selector.tsx'
import { ScoreHeader } from './score-header.tsx'
import * as tippingApi from './tipping-api.ts'
import styles from './tipping-page.module.css'

const SKELETON_CARDS = 4

/**
 * The cards in stacks (issue 27): each stack keeps its own cards' heights, so a short card leaves
 * no gap under it as a shared grid row did. Two columns take the matches in turn (1 and 2 side by
 * side at the top, 3 under 1, 4 under 2...), which also shares the taller finished matches, all
 * early in a week, between the two; a phone's one column keeps the matches' order. Assigned by
 * position, not measured height, so opening a form guide never moves a card to the other stack.
 */
const stacks = <T,>(items: T[], columns: 1 | 2): T[][] =>
  columns === 1 ? [items] : [items.filter((_, i) => i % 2 === 0), items.filter((_, i) => i % 2)]

interface Props {
  /** The advert at the top of the screen (spec 2), composed by the app: features hold none. */
  advert?: ReactNode
  /** Side content for a wide screen (issue 27: ladder, leagues, the week's leaders), given the
   * week on show; composed by the app, which decides the widths it appears at. */
  aside?: (roundNumber: number | null) => ReactNode
}

export default function TippingPage({ advert, aside }: Props = {}) {
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
  const marginTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>())
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null)
  const [form, setForm] = useState<FormGuideFile['squads']>({})
  const [tipsFor, setTipsFor] = useState<number | null>(null)
  const [mateTips, setMateTips] = useState<ReadonlyMap<number, MateTip[]>>(new Map())
  const [matchCentreUrl, setMatchCentreUrl] = useState<string | null>(null)
  const [joinPrompt, setJoinPrompt] = useState(false)
  const [sharing, setSharing] = useState(false)
  const userId = useSelector((s: { session: { user: { id: number } } }) => s.session.user.id)
  const [busy, setBusy] = useState(false)
  const firstCard = useRef<HTMLElement | null>(null)
  const twoColumns = !useMediaQuery(PHONE_QUERY)

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
        tippingApi
          .fetchAppConfig()
          .then((c) => live && setMatchCentreUrl(c.matchCentreUrl))
          .catch(() => undefined)
        tippingApi
          .fetchFormGuide(sport)
          .then((f) => live && setForm(f.squads))
          .catch(() => undefined)
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
        // The score header's read goes alongside the round's, not after it.
        const snapshot = tippingApi.fetchSnapshot(sport, roundNumber).catch(() => null)
        const data = await tippingApi.fetchRound(sport, roundNumber)
        dispatch(mode === 'load' ? picksActions.loaded(data) : picksActions.refreshed(data))
        setLoadError(null)
        setSnapshot(await snapshot)
        // The tip row: only worth asking once a match of the round is complete.
        if (data.matches.some((m) => m.status === 'complete')) {
          const mates = await tippingApi.fetchLeagueMatesTips(sport, roundNumber).catch(() => null)
          if (mates) setMateTips(new Map(mates.matches.map((m) => [m.match, m.tips])))
        } else setMateTips(new Map())
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

  // Spec 4: the countdown uses the next scheduled round when the current one is under way.
  const countdown = useMemo(() => {
    if (!rounds || roundNumber === null) return null
    const shown = rounds.find((r) => r.number === roundNumber)
    const target =
      shown?.status === 'scheduled'
        ? shown
        : rounds.find((r) => r.number > (roundNumber ?? 0) && r.status === 'scheduled')
    return target && Date.parse(target.startDate) > now.getTime() ? target : null
  }, [rounds, roundNumber, now])

  const picksByMatch = useMemo(() => new Map(state.picks.map((p) => [p.match, p])), [state.picks])
  const total = state.matches.length
  const picked = state.picks.filter((p) => p.squad > 0).length
  // Unsaved: an open match whose pick differs from what the server last confirmed.
  const saved = new Map(state.savedPicks.map((p) => [p.match, p]))
  const unsaved = state.picks.some(
    (p) =>
      p.status === 'scheduled' &&
      (saved.get(p.match)?.squad !== p.squad || saved.get(p.match)?.margin !== p.margin),
  )
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

  // Spec 4 "Join prompt": after a save or an autopick, once per user, under its conditions.
  const maybePromptToJoin = async (confirmed: typeof state.picks) => {
    const after = new Map(state.picks.map((p) => [p.match, p]))
    for (const p of confirmed) after.set(p.match, p)
    const everyOpenPicked = allOpenPicked([...after.values()])
    const leagues = await tippingApi.fetchOwnLeagues(sport).catch(() => null)
    if (!leagues) return
    const show = shouldPromptToJoin({
      userId,
      leagueCount: leagues.leagues.filter((l) => l.class !== 'team').length,
      overallRank: snapshot?.overall_rank ?? 0,
      overallPoints: snapshot?.overall_points ?? 0,
      allOpenPicked: everyOpenPicked,
    })
    if (show) {
      rememberJoinPrompt(userId)
      setJoinPrompt(true)
    }
  }

  const runBulk = async (
    call: () => Promise<{ predictions: typeof state.picks }>,
    after?: (p: typeof state.picks) => void,
  ) => {
    setBusy(true)
    try {
      const { predictions } = await call()
      dispatch(picksActions.merged(predictions))
      after?.(predictions)
    } catch (err) {
      if (!(err instanceof ApiCallError && err.status === 401)) {
        dispatch(
          globalErrorActions.raised(err instanceof Error ? err.message : 'That did not work'),
        )
      }
    } finally {
      setBusy(false)
    }
  }
  // GAME_RULES.md "Autopick": only untipped open matches.
  const autopick = () => {
    const open = state.picks
      .filter((p) => p.status === 'scheduled' && p.squad === 0)
      .map((p) => p.match)
    if (open.length > 0)
      void runBulk(
        () => tippingApi.autopick(sport, open),
        (p) => void maybePromptToJoin(p),
      )
  }
  const clearAll = () => {
    const saved = state.savedPicks
      .filter((p) => p.status === 'scheduled' && p.squad > 0)
      .map((p) => p.match)
    dispatch(picksActions.clearedLocally())
    if (saved.length > 0) void runBulk(() => tippingApi.clearPicks(sport, saved))
  }
  // Spec 4: margin changes are sent after a 500 ms debounce, for a tip already saved.
  const changeMargin = (match: number, margin: number) => {
    dispatch(picksActions.marginChanged({ match, margin }))
    const saved = state.savedPicks.find((p) => p.match === match && p.squad > 0)
    const pick = state.picks.find((p) => p.match === match)
    if (!saved || !pick || pick.squad === 0) return
    const timers = marginTimers.current
    const pending = timers.get(match)
    if (pending) clearTimeout(pending)
    timers.set(
      match,
      setTimeout(() => {
        timers.delete(match)
        tippingApi
          .saveTip(sport, { match, squad: pick.squad, margin })
          .then(({ prediction }) => dispatch(picksActions.merged([prediction])))
          .catch(() => undefined)
      }, MARGIN_DEBOUNCE_MS),
    )
  }

  const ready =
    rounds !== null && state.loadStatus === 'success' && state.round?.number === roundNumber
  // Mounting the cards is the page's biggest render: deferred, React renders it in slices that
  // yield to input, showing the skeletons a moment longer instead of freezing a slow phone. The
  // footer comes with the cards, so its buttons never act on cards not yet shown.
  const cardsShown = useDeferredValue(ready, false) && ready
  // Built once per week shown, not on every tick of the clock that re-renders this page.
  const side = useMemo(() => aside?.(roundNumber), [aside, roundNumber])
  return (
    <div className={styles.page} data-sport={sport}>
      <div className={styles.main}>
        {advert}
        <div className={styles.intro}>
          <h1 className={styles.title}>Your tips</h1>
          <p className={styles.sub}>
            Pick the winner of every match. Tips lock when each match starts.
          </p>
        </div>
        <ScoreHeader snapshot={snapshot} onShare={() => setSharing(true)} />
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
        {rounds === null ? <CountdownPlaceholder /> : null}
        {countdown ? (
          <CountdownCard
            roundNumber={countdown.number}
            startsAt={countdown.startDate}
            isFirstRound={countdown.number === rounds?.[0]?.number}
            now={now}
            onEnter={() => {
              if (countdown.number !== roundNumber) setRoundNumber(countdown.number)
              else firstCard.current?.scrollIntoView({ behavior: 'smooth' })
            }}
          />
        ) : null}
        <section
          className={styles.grid}
          aria-label="Matches"
          aria-busy={!cardsShown}
          ref={firstCard}
        >
          {stacks(
            cardsShown
              ? state.matches.map((m) => (
                  <MatchCard
                    key={m.id}
                    match={m}
                    pick={picksByMatch.get(m.id)}
                    squads={squads}
                    venue={venues.get(m.venueId)}
                    now={now}
                    disabled={state.saving}
                    form={form}
                    matchCentreUrl={matchCentreUrl}
                    mateTips={mateTips.get(m.id)}
                    tipsOpen={tipsFor === m.id}
                    onToggleTips={() => setTipsFor(tipsFor === m.id ? null : m.id)}
                    onPick={(squad) => dispatch(picksActions.picked({ match: m.id, squad }))}
                    onMargin={(margin) => changeMargin(m.id, margin)}
                  />
                ))
              : Array.from({ length: SKELETON_CARDS }, (_, i) => (
                  <div key={i} className={styles.skeleton} aria-hidden="true" />
                )),
            twoColumns ? 2 : 1,
          ).map((column, i) => (
            <div key={i} className={styles.column}>
              {column}
            </div>
          ))}
        </section>
        <JoinPrompt open={joinPrompt} sport={sport} onClose={() => setJoinPrompt(false)} />
        <ShareModal
          open={sharing}
          onClose={() => setSharing(false)}
          text={
            snapshot && snapshot.overall_rank > 0
              ? `I'm ranked ${snapshot.overall_rank} with ${snapshot.overall_points} points in ${sport.toUpperCase()} Tipping. Think you can beat me?`
              : `Come and tip the ${sport.toUpperCase()} with me!`
          }
          url={shareUrl(window.location.origin, sport, 'general', Date.now())}
        />
        <LeaveGuard active={ready && unsaved && picked < total} picked={picked} total={total} />
        {cardsShown ? (
          <FooterBar
            picked={picked}
            total={total}
            allOpenPicked={allOpenPicked(state.picks)}
            saveStatus={state.saveStatus}
            canSave={saveEnabled}
            roundComplete={state.round?.status === 'complete'}
            busy={busy || state.saving}
            onSave={() => void save()}
            onAutopick={autopick}
            onClearAll={clearAll}
          />
        ) : null}
      </div>
      {side}
    </div>
  )
}

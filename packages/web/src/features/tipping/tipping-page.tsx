import {
  lazy,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react'
import { useSelector } from 'react-redux'
import { skipToken } from '@reduxjs/toolkit/query'
import {
  gameName,
  MARGIN_DEBOUNCE_MS,
  REFRESH_INTERVAL_MS,
  SAVE_CONFIRMATION_MS,
} from '@tipping/contract/constants'
import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/id-casts'
import type { MatchId, RoundNumber, SquadId } from '@tipping/contract/ids'
import type { Prediction } from '@tipping/contract/predictions'
import { allOpenPicked, canSave, picksToSave } from '@tipping/contract/rules/picks'
import { defaultRoundNumber as defaultRoundNumberOf } from '@tipping/contract/rules/rounds'
import type { FixtureRound, FormGuideFile } from '@tipping/contract/static-files'
import { failureMessage } from '../../lib/api.ts'
import { retryImport } from '../../lib/lazy-retry.ts'
import { useLiveRoundQuery } from '../../lib/live-api.ts'
import { useLiveEvent } from '../../lib/live-channel.ts'
import { deviceTipQueue } from '../../lib/offline-queue.ts'
import { markQueued, useTipStates } from '../../lib/offline-status.ts'
import { selectPushConnected } from '../../lib/push-slice.ts'
import { globalErrorActions } from '../../lib/global-error-slice.ts'
import { asFailure } from '../../lib/api-failure.ts'
import { shareUrl } from '../../lib/share.ts'
import { useSiteContent } from '../../lib/site-content.tsx'
import { useSport } from '../../lib/sport.ts'
import {
  useFixtureQuery,
  useFormGuideQuery,
  squadsById,
  useSquadsQuery,
  useVenuesQuery,
} from '../../lib/static-api.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { PHONE_QUERY, useMediaQuery } from '../../lib/use-media-query.ts'
import { Button } from '../../ui/button.tsx'
import { ShareModal } from '../../ui/share-modal.tsx'
import { CountdownCard, CountdownPlaceholder } from './countdown-card.tsx'
import { FooterBar } from './footer-bar.tsx'
import { LastReceipt } from './last-receipt.tsx'
import { KeptTips } from './kept-tips.tsx'
import { JoinPrompt, rememberJoinPrompt, shouldPromptToJoin } from './join-prompt.tsx'
import { LeaveGuard } from './leave-guard.tsx'
import { MatchCard } from './match-card.tsx'
import { picksActions, roundKey, type PicksState } from './picks-slice.ts'
import { RoundSelector } from './round-selector.tsx'
import { ScoreHeader } from './score-header.tsx'
import {
  failureRaised,
  saveRoundPicks,
  selectRefusal,
  useAutopickMutation,
  useClearPicksMutation,
  useLazyTipperLeaguesQuery,
  useMateTipsQuery,
  useRoundQuery,
  useSaveTipMutation,
  useSnapshotQuery,
  useTippingDispatch,
  tippingApi,
} from './tipping-api.ts'
import styles from './tipping-page.module.css'
import { usePageTitle } from '../../lib/page-title.ts'
import { serverDate, serverNow } from '../../lib/server-clock.ts'

const SKELETON_CARDS = 4

// Only drawn for a match in progress: its code (the live projection) is loaded then, not with the
// page (decision 035).
const LiveStakes = lazy(() =>
  retryImport(() => import('./live-stakes.tsx')).then((m) => ({ default: m.LiveStakes })),
)
const NO_FORM: FormGuideFile['squads'] = {}

/**
 * Spec 4: the round, the score summary, the league mates' tips and the fixture are read again
 * every 31 s, only while the page is visible (RTK Query's focus state follows the page's
 * visibility). The static files' checksums are older than their 30 s life on each tick, so each
 * tick revalidates them and fetches only a file that changed.
 */
const REFRESHED = { pollingInterval: REFRESH_INTERVAL_MS, skipPollingIfUnfocused: true }
/**
 * Issue 30: while the push channel is open, changes arrive as events (lib/live-channel.ts) and
 * nothing is polled; the 31 s refresh is the fallback for when the channel is down or blocked.
 */
const PUSHED = { pollingInterval: 0 }

/** Spec 4: the round shown first (the open one, or the last). */
const defaultRoundNumber = (rounds: readonly FixtureRound[]): RoundNumber =>
  asRoundNumber(defaultRoundNumberOf(rounds))
/**
 * The cards in stacks (issue 27): each stack keeps its own cards' heights, so a short card leaves
 * no gap under it as a shared grid row did. Two columns take the matches in turn (1 and 2 side by
 * side at the top, 3 under 1, 4 under 2...), which also shares the taller finished matches, all
 * early in a week, between the two; a phone's one column keeps the matches' order. Assigned by
 * position, not measured height, so opening a form guide never moves a card to the other stack.
 */
/** The countdown with its own one-second clock, so its digits move without redrawing the page. */
function TickingCountdown(props: Omit<ComponentProps<typeof CountdownCard>, 'now'>) {
  const [now, setNow] = useState(serverDate)
  useEffect(() => {
    const tick = setInterval(() => setNow(serverDate()), 1000)
    return () => clearInterval(tick)
  }, [])
  return <CountdownCard {...props} now={now} />
}

const stacks = <T,>(items: T[], columns: 1 | 2): T[][] =>
  columns === 1 ? [items] : [items.filter((_, i) => i % 2 === 0), items.filter((_, i) => i % 2)]

interface Props {
  /** The advert at the top of the screen (spec 2), composed by the app: features hold none. */
  advert?: ReactNode
  /** Side content for a wide screen (issue 27: ladder, leagues, the week's leaders), given the
   * week on show; composed by the app, which decides the widths it appears at. */
  aside?: (roundNumber: RoundNumber | null) => ReactNode
}

export default function TippingPage({ advert, aside }: Props = {}) {
  usePageTitle('Your tips')
  const sport = useSport()
  const dispatch = useTippingDispatch()
  const state = useSelector((s: { picks: PicksState }) => s.picks)
  const refusal = useSelector(selectRefusal)
  // A refusal belongs to this screen's last save: it is not said again on the next visit.
  const refused = useRef(false)
  refused.current = refusal !== null
  useEffect(
    () => () => {
      if (refused.current) dispatch(globalErrorActions.cleared())
    },
    [dispatch],
  )
  const userId = useCurrentUser().id
  const { matchCentreUrl } = useSiteContent().config
  const [chosenRound, setChosenRound] = useState<RoundNumber | null>(null)
  const [now, setNow] = useState(serverDate)
  const confirmTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const marginTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>())
  const [tipsFor, setTipsFor] = useState<number | null>(null)
  const [joinPrompt, setJoinPrompt] = useState(false)
  const [sharing, setSharing] = useState(false)
  const firstCard = useRef<HTMLElement | null>(null)
  const twoColumns = !useMediaQuery(PHONE_QUERY)
  const tipStates = useTipStates()
  const refresh = useSelector(selectPushConnected) ? PUSHED : REFRESHED

  // Fixture, squads and venues from the static root.
  const fixture = useFixtureQuery(sport, refresh)
  const squadsFile = useSquadsQuery(sport)
  const venuesFile = useVenuesQuery(sport)
  const form = useFormGuideQuery(sport, refresh).data?.squads
  const rounds = fixture.data?.rounds ?? null
  const fixtureFailed = fixture.isError || squadsFile.isError || venuesFile.isError
  // The default round is chosen once, when the fixture first arrives: a refreshed fixture never
  // moves the user to another week (React's state-from-render pattern, not an effect).
  if (chosenRound === null && rounds) setChosenRound(defaultRoundNumber(rounds))
  const roundNumber = chosenRound
  const roundArg = roundNumber === null ? skipToken : { sport, round: roundNumber }
  const key = roundNumber === null ? null : roundKey(sport, roundNumber)

  // Each round shown is fetched afresh (its editing state starts over, as on a reload).
  const round = useRoundQuery(roundArg, { ...refresh, refetchOnMountOrArgChange: true })
  const snapshot = useSnapshotQuery(roundArg, refresh).data ?? null
  // The tip row: only worth asking once a match of the round is complete.
  const anyComplete = round.data?.matches.some((m) => m.status === 'complete') ?? false
  const mates = useMateTipsQuery(anyComplete ? roundArg : skipToken, refresh).data
  const mateTips = useMemo(
    () => new Map((mates?.matches ?? []).map((m) => [m.match, m.tips])),
    [mates],
  )
  // Live scores, only for a round with a match in progress; the push channel moves them.
  const anyActive = round.data?.matches.some((m) => m.status === 'active') ?? false
  const live = useLiveRoundQuery(anyActive ? roundArg : skipToken, refresh).data
  const liveByMatch = useMemo(
    () => new Map((live?.matches ?? []).map((m) => [m.matchId, m])),
    [live],
  )
  // A result shows on its card at once, from the event; the points it moves follow when the
  // channel's spread refetch reads them (lib/live-channel.ts).
  useLiveEvent('result', (result) => {
    if (result.roundNumber !== roundNumber) return
    dispatch(
      tippingApi.util.updateQueryData('round', { sport, round: result.roundNumber }, (draft) => {
        const m = draft.matches.find((x) => x.id === result.matchId)
        if (!m) return
        Object.assign(m, {
          status: 'complete',
          outcome: result.outcome,
          winnerSquadId: result.winnerSquadId,
          sixes: result.sixes,
        })
      }),
    )
  })
  // The tippers' split of picks, coalesced by the server while tips come in and sent at each
  // lockout (decision 015): written into the cached round, so the bars move without a read.
  useLiveEvent('picks', (split) => {
    if (split.roundNumber !== roundNumber) return
    dispatch(
      tippingApi.util.updateQueryData('round', { sport, round: split.roundNumber }, (draft) => {
        const byId = new Map(split.matches.map((m) => [m.id, m]))
        for (const m of draft.matches) {
          const next = byId.get(m.id)
          if (next)
            Object.assign(m, { home_percent: next.home_percent, away_percent: next.away_percent })
        }
      }),
    )
  })
  const squads = squadsById(squadsFile.data)
  const venues = useMemo(
    () => new Map((venuesFile.data?.venues ?? []).map((x) => [x.id, x])),
    [venuesFile.data],
  )
  const [autopickCall, autopicking] = useAutopickMutation()
  const [clearCall, clearing] = useClearPicksMutation()
  const [saveTip] = useSaveTipMutation()
  const [fetchLeagues] = useLazyTipperLeaguesQuery()

  // The user's editing state follows the round on show.
  useEffect(() => {
    dispatch(picksActions.shown(key))
    return () => {
      dispatch(picksActions.shown(null))
    }
  }, [dispatch, key])

  // Issue 32: picks kept on the device (saved while offline, before a reload or a restart) are
  // the user's picks again once the week's answer is in; they go when the connection returns.
  const loaded = state.loaded && state.key === key
  useEffect(() => {
    const queue = deviceTipQueue()
    if (!loaded || roundNumber === null || !queue) return
    let open = true
    void queue
      .list(userId)
      .then((kept) => {
        const mine = kept.filter((t) => t.sport === sport && t.round === roundNumber)
        if (!open || mine.length === 0) return
        for (const t of mine) {
          dispatch(picksActions.picked({ match: asMatchId(t.match), squad: asSquadId(t.squad) }))
          if (t.margin !== null)
            dispatch(picksActions.marginChanged({ match: asMatchId(t.match), margin: t.margin }))
        }
        markQueued(mine.map((t) => t.match))
      })
      .catch(() => undefined)
    return () => {
      open = false
    }
  }, [dispatch, loaded, roundNumber, sport, userId])

  // The clock ticks for lockouts and the countdown, each second; the page takes the new time only
  // when an instant it shows has passed (a match locking, a week starting), so it is not redrawn
  // every second (decision 035). The countdown card keeps its own clock for its digits. Both run
  // on the server's clock as the API's answers show it, not the device's (decision 047).
  const instants = useRef<readonly number[]>([])
  useEffect(() => {
    const tick = setInterval(() => {
      const t = serverNow()
      // Or when the server's clock, learnt from an answer after the page drew, puts now earlier
      // than shown (a device running fast): a card locked by the device's time opens again.
      setNow((shown) =>
        t < shown.getTime() || instants.current.some((x) => x > shown.getTime() && x <= t)
          ? new Date(t)
          : shown,
      )
    }, 1000)
    return () => clearInterval(tick)
  }, [])

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
        : rounds.find((r) => r.number > roundNumber && r.status === 'scheduled')
    return target && Date.parse(target.startDate) > now.getTime() ? target : null
  }, [rounds, roundNumber, now])

  const serverRound = round.data?.round ?? null
  const matches = round.data?.matches ?? []
  instants.current = [
    ...(rounds ?? []).map((r) => Date.parse(r.startDate)),
    ...matches.map((m) => Date.parse(m.date)),
  ]
  const picksByMatch = useMemo(() => new Map(state.picks.map((p) => [p.match, p])), [state.picks])
  const total = matches.length
  const picked = state.picks.filter((p) => p.squad > 0).length
  // Unsaved: an open match whose pick differs from what the server last confirmed.
  const saved = new Map((round.data?.predictions ?? []).map((p) => [p.match, p]))
  // A pick kept on the device to send later is not lost by leaving (issue 32).
  const unsaved = state.picks.some(
    (p) =>
      p.status === 'scheduled' &&
      tipStates.get(p.match)?.state !== 'queued' &&
      (saved.get(p.match)?.squad !== p.squad || saved.get(p.match)?.margin !== p.margin),
  )
  const saveEnabled =
    serverRound !== null &&
    canSave({ canSave: state.can_save, roundStatus: serverRound.status, picks: state.picks })

  const save = async () => {
    if (roundNumber === null) return
    if (refusal) dispatch(globalErrorActions.cleared())
    const list = picksToSave(state.picks).map((p) => ({
      match: p.match,
      squad: p.squad,
      margin: p.isMarginGame ? (p.margin ?? 0) : null,
    }))
    if (!(await dispatch(saveRoundPicks(sport, roundNumber, list, userId)))) return
    if (confirmTimer.current) clearTimeout(confirmTimer.current)
    confirmTimer.current = setTimeout(
      () => dispatch(picksActions.confirmationHidden()),
      SAVE_CONFIRMATION_MS,
    )
  }

  // Spec 4 "Join prompt": after an autopick, once per user, under its conditions.
  const maybePromptToJoin = async (confirmed: readonly Prediction[]) => {
    const after = new Map(state.picks.map((p) => [p.match, p]))
    for (const p of confirmed) after.set(p.match, p)
    const leagues = await fetchLeagues(sport)
      .unwrap()
      .catch(() => null)
    if (!leagues) return
    const show = shouldPromptToJoin({
      userId,
      leagueCount: leagues.leagues.filter((l) => l.class !== 'team').length,
      overallRank: snapshot?.overall_rank ?? 0,
      overallPoints: snapshot?.overall_points ?? 0,
      allOpenPicked: allOpenPicked([...after.values()]),
    })
    if (show) {
      rememberJoinPrompt(userId)
      setJoinPrompt(true)
    }
  }

  /** Autopick and clear: the confirmed picks are merged in; a failure is shown (not a 401). */
  const runBulk = async (
    call: () => { unwrap: () => Promise<{ predictions: Prediction[] }> },
    after?: (p: Prediction[]) => void,
  ) => {
    try {
      const { predictions } = await call().unwrap()
      dispatch(picksActions.merged(predictions))
      after?.(predictions)
    } catch (err) {
      const failure = asFailure(err, 'That did not work')
      if (failure.status !== 401) dispatch(failureRaised(failure))
    }
  }
  // GAME_RULES.md "Autopick": only untipped open matches.
  const autopick = () => {
    const open = state.picks
      .filter((p) => p.status === 'scheduled' && p.squad === 0)
      .map((p) => p.match)
    if (open.length > 0 && roundNumber !== null)
      void runBulk(
        () => autopickCall({ sport, round: roundNumber, matches: open }),
        (p) => void maybePromptToJoin(p),
      )
  }
  const clearAll = () => {
    const savedOpen = (round.data?.predictions ?? [])
      .filter((p) => p.status === 'scheduled' && p.squad > 0)
      .map((p) => p.match)
    dispatch(picksActions.clearedLocally())
    if (savedOpen.length > 0 && roundNumber !== null)
      void runBulk(() => clearCall({ sport, round: roundNumber, matches: savedOpen }))
  }
  // Spec 4: margin changes are sent after a 500 ms debounce, for a tip already saved.
  const changeMargin = (match: MatchId, margin: number) => {
    dispatch(picksActions.marginChanged({ match, margin }))
    const savedTip = saved.get(match)
    const pick = picksByMatch.get(match)
    if (!savedTip || savedTip.squad === 0 || !pick || pick.squad === 0 || roundNumber === null)
      return
    const squad = pick.squad
    const timers = marginTimers.current
    const pending = timers.get(match)
    if (pending) clearTimeout(pending)
    timers.set(
      match,
      setTimeout(() => {
        timers.delete(match)
        saveTip({ sport, round: roundNumber, tip: { match, squad, margin } })
          .unwrap()
          .then(({ prediction }) => dispatch(picksActions.merged([prediction])))
          .catch(() => undefined)
      }, MARGIN_DEBOUNCE_MS),
    )
  }

  // The cards' handlers, the same functions on every render so a memoised card is not redrawn by
  // the clock (decision 035); the margin's reads the latest state through a ref.
  const marginHandler = useRef(changeMargin)
  marginHandler.current = changeMargin
  const onMargin = useCallback(
    (match: MatchId, margin: number) => marginHandler.current(match, margin),
    [],
  )
  const onPick = useCallback(
    (match: MatchId, squad: SquadId) => dispatch(picksActions.picked({ match, squad })),
    [dispatch],
  )
  const onToggleTips = useCallback(
    (match: MatchId) => setTipsFor((open) => (open === match ? null : match)),
    [],
  )

  const ready =
    rounds !== null &&
    squadsFile.data !== undefined &&
    venuesFile.data !== undefined &&
    round.data !== undefined &&
    state.loaded &&
    state.key === key
  const loadError = fixtureFailed
    ? 'We could not load the fixture. Check your connection and try again.'
    : round.isError
      ? failureMessage(round.error, 'Could not load this week')
      : null
  const retry = () => {
    if (fixtureFailed) {
      void fixture.refetch()
      void squadsFile.refetch()
      void venuesFile.refetch()
    } else void round.refetch()
  }
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
          <RoundSelector rounds={rounds} current={roundNumber} onChange={setChosenRound} />
        ) : (
          <div className={styles.skeleton} style={{ minHeight: 64 }} aria-hidden="true" />
        )}
        {loadError && !ready ? (
          <div className={styles.error} role="alert">
            <p>{loadError}</p>
            <Button onClick={retry}>Try again</Button>
          </div>
        ) : null}
        {cardsShown ? (
          <KeptTips
            matches={matches}
            squads={squads}
            states={tipStates}
            picks={new Map(state.picks.map((p) => [p.match as number, p.squad as number]))}
          />
        ) : null}
        {rounds === null ? <CountdownPlaceholder /> : null}
        {countdown ? (
          <TickingCountdown
            roundNumber={countdown.number}
            startsAt={countdown.startDate}
            isFirstRound={countdown.number === rounds?.[0]?.number}
            onEnter={() => {
              if (countdown.number !== roundNumber) setChosenRound(countdown.number)
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
              ? matches.map((m) => (
                  <MatchCard
                    key={m.id}
                    match={m}
                    pick={picksByMatch.get(m.id)}
                    squads={squads}
                    venue={venues.get(m.venueId)}
                    now={now}
                    disabled={state.saving}
                    form={form ?? NO_FORM}
                    matchCentreUrl={matchCentreUrl}
                    mateTips={mateTips.get(m.id)}
                    tipsOpen={tipsFor === m.id}
                    onToggleTips={onToggleTips}
                    onPick={onPick}
                    onMargin={onMargin}
                    live={liveByMatch.get(m.id)}
                    stakes={
                      liveByMatch.has(m.id) && roundNumber !== null ? (
                        <Suspense fallback={null}>
                          <LiveStakes
                            sport={sport}
                            round={roundNumber}
                            live={liveByMatch.get(m.id)!}
                          />
                        </Suspense>
                      ) : null
                    }
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
        <LastReceipt sport={sport} />
        <JoinPrompt open={joinPrompt} sport={sport} onClose={() => setJoinPrompt(false)} />
        <ShareModal
          open={sharing}
          onClose={() => setSharing(false)}
          text={
            snapshot && snapshot.overall_rank > 0
              ? `I'm ranked ${snapshot.overall_rank} with ${snapshot.overall_points} points in ${gameName(sport)}. Think you can beat me?`
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
            roundComplete={serverRound?.status === 'complete'}
            busy={autopicking.isLoading || clearing.isLoading || state.saving}
            onSave={() => void save()}
            onAutopick={autopick}
            onClearAll={clearAll}
            refusal={refusal}
            onDismissRefusal={() => dispatch(globalErrorActions.cleared())}
          />
        ) : null}
      </div>
      {side}
    </div>
  )
}

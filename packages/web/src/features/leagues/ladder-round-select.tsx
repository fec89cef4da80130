import { asRoundNumber, type RoundNumber } from '@tipping/contract/ids'
import type { FixtureRound } from '@tipping/contract/static-files'

/** Spec 2: a ladder offers only weeks with a completed match, plus week 1, and OVR (overall). */
export const ladderRounds = (rounds: readonly FixtureRound[], from = 1): FixtureRound[] =>
  rounds.filter(
    (r) =>
      r.number >= from &&
      (r.number === Math.max(1, from) || r.matches.some((m) => m.status === 'complete')),
  )

/** The week whose tips an expanded row shows: the chosen one, or the latest with a result. */
export const tipsRoundFor = (
  rounds: readonly FixtureRound[],
  chosen: number | null,
): FixtureRound | null =>
  chosen !== null
    ? (rounds.find((r) => r.number === chosen) ?? null)
    : ([...rounds].reverse().find((r) => r.matches.some((m) => m.status === 'complete')) ?? null)

export function LadderRoundSelect({
  rounds,
  value,
  onChange,
  id,
}: {
  rounds: readonly FixtureRound[]
  value: RoundNumber | null
  onChange: (round: RoundNumber | null) => void
  id: string
}) {
  return (
    <label htmlFor={id}>
      Week
      <select
        id={id}
        value={value === null ? 'OVR' : String(value)}
        onChange={(e) =>
          onChange(e.target.value === 'OVR' ? null : asRoundNumber(Number(e.target.value)))
        }
        style={{ minHeight: 44, font: 'inherit', padding: '8px 12px', borderRadius: 8 }}
      >
        <option value="OVR">OVR – Overall</option>
        {rounds.map((r) => (
          <option key={r.id} value={r.number}>
            {r.label || `Week ${r.number}`}
          </option>
        ))}
      </select>
    </label>
  )
}

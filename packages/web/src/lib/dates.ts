// Every date in the game is shown in UTC (spec 2), so each is read from the instant's UTC fields
// (exact across daylight-saving changes, whatever the browser's zone). Three fixed English
// formats, written out here rather than with a date library: the tipping page's first load then
// needs one chunk less and evaluates no formatter tables (decision 035).

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const two = (n: number): string => String(n).padStart(2, '0')
/** dd-MM-yyyy */
const dayMonthYear = (d: Date): string =>
  `${two(d.getUTCDate())}-${two(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`

/** A match's time of day: hh:mm a (a 12-hour clock, 12 for noon and midnight). */
export const formatMatchClock = (iso: string): string => {
  const d = new Date(iso)
  const h = d.getUTCHours()
  return `${two(h % 12 || 12)}:${two(d.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'}`
}

/** Match time: dd-MM-yyyy hh:mm a. */
export const formatMatchTime = (iso: string): string =>
  `${dayMonthYear(new Date(iso))} ${formatMatchClock(iso)}`

/** Round dates: weekday day month, e.g. "Wed 31 Dec". */
export const formatRoundDate = (iso: string): string => {
  const d = new Date(iso)
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`
}

/** Tip date: ccc dd-MM-yyyy, e.g. "Wed 31-12-2025". */
export const formatTipDate = (iso: string): string => {
  const d = new Date(iso)
  return `${DAYS[d.getUTCDay()]} ${dayMonthYear(d)}`
}

/**
 * An instant to the second, marked as UTC, for the operator's console (the outbox, the audit log,
 * the jobs' runs): "04-12-2025 08:15:03 UTC". Not the browser's local time: an operator in Perth
 * and one in Sydney must read the same time for the same event, as players do.
 */
export const formatInstant = (iso: string): string => {
  const d = new Date(iso)
  const clock = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  return `${dayMonthYear(d)} ${clock} UTC`
}

import { format } from 'date-fns'

// Every date in the game is shown in UTC (spec 2). date-fns formats local time, so the instant is
// first moved by the local offset to read as its UTC wall-clock time.
const asUtcWallClock = (iso: string): Date => {
  const d = new Date(iso)
  return new Date(d.getTime() + d.getTimezoneOffset() * 60_000)
}

/** Match time: dd-MM-yyyy hh:mm a. */
export const formatMatchTime = (iso: string): string => format(asUtcWallClock(iso), 'dd-MM-yyyy hh:mm a')

/** Round dates: weekday day month, e.g. "Wed 31 Dec". */
export const formatRoundDate = (iso: string): string => format(asUtcWallClock(iso), 'EEE d MMM')

/** Tip date: ccc dd-MM-yyyy. */
export const formatTipDate = (iso: string): string => format(asUtcWallClock(iso), 'ccc dd-MM-yyyy')

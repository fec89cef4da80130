import { format } from 'date-fns'

// Every date in the game is shown in UTC (spec 2). date-fns formats local time, so a local Date is
// built from the instant's UTC fields (exact across daylight-saving changes, unlike an offset shift).
const asUtcWallClock = (iso: string): Date => {
  const d = new Date(iso)
  return new Date(
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  )
}

/** Match time: dd-MM-yyyy hh:mm a. */
export const formatMatchTime = (iso: string): string =>
  format(asUtcWallClock(iso), 'dd-MM-yyyy hh:mm a')

/** Round dates: weekday day month, e.g. "Wed 31 Dec". */
export const formatRoundDate = (iso: string): string => format(asUtcWallClock(iso), 'EEE d MMM')

/** Tip date: ccc dd-MM-yyyy. */
export const formatTipDate = (iso: string): string => format(asUtcWallClock(iso), 'ccc dd-MM-yyyy')

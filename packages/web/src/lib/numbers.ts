/**
 * A whole number with thousands separators, as en-AU writes it (12,345). Not toLocaleString: its
 * first call loads the browser's locale data, which cost the tipping page over 100 ms of a phone's
 * main thread (Lighthouse, 4x CPU slowdown).
 */
export const formatCount = (n: number): string =>
  Math.trunc(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',')

/** A Super Sixes call or count in words: "1 six", "0 sixes", "14 sixes". */
export const formatSixes = (n: number): string => `${formatCount(n)} ${n === 1 ? 'six' : 'sixes'}`

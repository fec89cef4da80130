/** Cricket overs notation: "19.5" is 19 overs and 5 balls, not a decimal. */
export function ballsFromOvers(overs: string): number {
  const m = /^(\d+)(?:\.([0-5]))?$/.exec(overs.trim())
  if (!m) throw new RangeError(`Not an overs figure: ${overs}`)
  return Number(m[1]) * 6 + Number(m[2] ?? 0)
}

export function oversFromBalls(balls: number): string {
  const rest = balls % 6
  return rest === 0 ? String(balls / 6) : `${Math.floor(balls / 6)}.${rest}`
}

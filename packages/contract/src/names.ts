// How people are named on screen: schema-free, so the browser imports it without zod.

/** How a tipper is named on screen: the team name, or first name and initial. */
export const tipperName = (t: {
  teamName: string | null
  firstName: string
  lastNameInitial: string
}): string => t.teamName?.trim() || `${t.firstName} ${t.lastNameInitial}.`.trim()

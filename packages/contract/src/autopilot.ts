import { z } from 'zod'

// Autopilot and reminder lead time (issue 32, decision 026): GET/PUT /api/{sport}/autopilot, and
// the user's `reminderLead` (auth.ts). What autopilot picks is rules/autopilot.ts.

/** What autopilot tips for a match the player has not tipped; 'off' (the default) places none. */
export const AUTOPILOT_STRATEGIES = ['off', 'favourite', 'home', 'team'] as const
export type AutopilotStrategy = (typeof AUTOPILOT_STRATEGIES)[number]

/** How many minutes before a match's start autopilot tips it. */
export const AUTOPILOT_LEADS = [15, 60, 180] as const
export type AutopilotLead = (typeof AUTOPILOT_LEADS)[number]

export const autopilotLeadSchema = z.union([z.literal(15), z.literal(60), z.literal(180)])

export const autopilotSettingSchema = z.object({
  strategy: z.enum(AUTOPILOT_STRATEGIES),
  /** Ignored (and answered as 60) while the strategy is off. */
  leadMinutes: autopilotLeadSchema,
})
export type AutopilotSetting = z.infer<typeof autopilotSettingSchema>

export const autopilotResponseSchema = z.object({ autopilot: autopilotSettingSchema })
export type AutopilotResponse = z.infer<typeof autopilotResponseSchema>

export const autopilotUpdateBodySchema = autopilotSettingSchema
export type AutopilotUpdateBody = z.infer<typeof autopilotUpdateBodySchema>

/** The answer while autopilot is off for the sport (no setting stored). */
export const AUTOPILOT_OFF: AutopilotSetting = { strategy: 'off', leadMinutes: 60 }

/**
 * When a player is reminded by email to tip: 'round' a day before the round's first match (the
 * weekly reminder), 'match' 2 hours before their first untipped match, 'off' never. Either way
 * only when something is untipped.
 */
export const REMINDER_LEADS = ['round', 'match', 'off'] as const
export type ReminderLead = (typeof REMINDER_LEADS)[number]
export const reminderLeadSchema = z.enum(REMINDER_LEADS)

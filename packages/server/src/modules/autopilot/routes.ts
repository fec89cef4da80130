import { autopilotResponseSchema, autopilotUpdateBodySchema } from '@tipping/contract/autopilot'
import { successEnvelope } from '@tipping/contract/errors'
import { sportParamsSchema } from '@tipping/contract/sport'
import { success } from '../../http/envelope.ts'
import { callerOf } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import type { AutopilotService } from './service.ts'

export function autopilotRoutes(app: App, deps: { autopilot: AutopilotService }): void {
  const { autopilot } = deps
  const tags = ['tipping']

  app.get(
    '/api/:sport/autopilot',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        response: { 200: successEnvelope(autopilotResponseSchema) },
        description: "The signed-in tipper's autopilot for the sport (off unless they set it).",
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success({ autopilot: await autopilot.get(row.id, request.params.sport) })
    },
  )

  app.put(
    '/api/:sport/autopilot',
    {
      config: { policy: 'user' },
      schema: {
        tags,
        params: sportParamsSchema,
        body: autopilotUpdateBodySchema,
        response: { 200: successEnvelope(autopilotResponseSchema) },
        description:
          'Set autopilot for the sport: tip my untipped matches this many minutes before they start with the favourite, the home side or my team; or off.',
      },
    },
    async (request) => {
      const { row } = callerOf(request)
      return success({
        autopilot: await autopilot.set(row.id, request.params.sport, request.body),
      })
    },
  )
}

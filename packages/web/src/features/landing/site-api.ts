import type { PreregistrationBody, PreregistrationResponse } from '@tipping/contract/site'
import type { AppConfigFile } from '@tipping/contract/static-files'
import { api } from '../../lib/api-client.ts'
import { staticJson } from '../../lib/static-data.ts'

export const preregister = (body: PreregistrationBody) =>
  api<PreregistrationResponse>('preregistration', { method: 'POST', body })

export const fetchSiteConfig = () => staticJson<AppConfigFile>('app-config.json')

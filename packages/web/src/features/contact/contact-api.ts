import type { ContactBody, ContactResponse } from '@tipping/contract/site'
import { api } from '../../lib/api-client.ts'

export const sendContact = (body: ContactBody) =>
  api<ContactResponse>('contact', { method: 'POST', body })

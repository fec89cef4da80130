import { SPORTS } from '@tipping/contract/constants'
import {
  CONTENT_DEFAULTS,
  CONTENT_SETTINGS,
  readContentSettings,
  type ContentKey,
  type ContentSettings,
} from '@tipping/contract/content'
import type { Database } from '../../db/schema.ts'
import { AppError } from '../../errors.ts'
import { strictDeep, unknownFieldMessage } from '../../http/strict-bodies.ts'
import { recordAudit } from '../audit/service.ts'
import { defaultFaqs, defaultHelpPages } from './default-help.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

/** What a fresh deployment publishes: the written help and FAQ, nothing else shown, in season. */
export const SERVER_CONTENT_DEFAULTS: ContentSettings = {
  ...CONTENT_DEFAULTS,
  faqs: { bbl: defaultFaqs('bbl'), wbbl: defaultFaqs('wbbl') },
  help_pages: { bbl: defaultHelpPages('bbl'), wbbl: defaultHelpPages('wbbl') },
}
// Both competitions are covered (a new sport would need its own help written).
SPORTS.forEach((s) => {
  if (SERVER_CONTENT_DEFAULTS.help_pages[s].length === 0) throw new Error(`No help for ${s}`)
})

const STRICT_SETTINGS = Object.fromEntries(
  Object.entries(CONTENT_SETTINGS).map(([key, schema]) => [key, strictDeep(schema)]),
) as unknown as typeof CONTENT_SETTINGS

/** Every content setting, stored or default (a row that no longer validates falls back too). */
export async function loadContent(db: Database): Promise<ContentSettings> {
  return readContentSettings(await q.contentRows(db), SERVER_CONTENT_DEFAULTS)
}

/**
 * Stores one content setting as given, inside the caller's transaction, without an audit row or a
 * publish: for the demo seed, which writes before anything is served. Admin edits go through set.
 */
export const storeContent = (db: Database, key: ContentKey, value: unknown): Promise<void> =>
  q.upsertContent(db, key, value)

/** Anything that republishes the content files after a change (the publisher). */
export interface ContentPublisher {
  publishContent(content: ContentSettings): Promise<unknown>
}

/**
 * Site content edited by admins (issue 7): each key's value is validated by its schema, stored
 * with an audit row in one transaction, then the public files are republished.
 */
export class ContentService {
  constructor(
    private readonly db: Database,
    private readonly publisher: ContentPublisher,
  ) {}

  getAll(): Promise<ContentSettings> {
    return loadContent(this.db)
  }

  async set(key: ContentKey, value: unknown, actorUserId: number | null): Promise<ContentSettings> {
    // Strict as every request body is (http/strict-bodies.ts): an unknown field is named.
    const parsed = STRICT_SETTINGS[key].safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      if (issue.code === 'unrecognized_keys') {
        const unknown = issue.keys[0]!
        throw new AppError(
          'VALIDATION',
          unknownFieldMessage(unknown),
          [...issue.path, unknown].join('.'),
        )
      }
      const field = issue.path.length > 0 ? issue.path.join('.') : 'body'
      throw new AppError('VALIDATION', issue.message, field)
    }
    await inTransaction(this.db, async (trx) => {
      const before = await q.contentRow(trx, key)
      await q.upsertContent(trx, key, parsed.data)
      await recordAudit(trx, {
        actorUserId,
        action: 'content.update',
        entity: 'content',
        entityId: key,
        data: { before: before?.value ?? null, after: parsed.data },
      })
    })
    const content = await this.getAll()
    await this.publisher.publishContent(content)
    return content
  }
}

import type { Sport } from '@tipping/contract/constants'
import { asMatchId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { ReceiptCheckResponse, TipsHistoryResponse } from '@tipping/contract/receipts'
import type { Database } from '../../db/schema.ts'
import { receiptOf, saveById, savesOfUser, type ReceiptSigner } from './receipts.ts'

/** The reads of tip receipts: a user's own history, and the public check (decision 027). */
export class ReceiptReads {
  constructor(
    private readonly db: Database,
    private readonly signer: ReceiptSigner,
    private readonly competition: (sport: Sport) => Promise<{ id: number }>,
  ) {}

  /** The user's saves of the season, newest first: their picks are the user's own to see. */
  async history(sport: Sport, userId: number): Promise<TipsHistoryResponse> {
    const competition = await this.competition(sport)
    const { rows, matches } = await savesOfUser(this.db, userId, competition.id)
    const pick = (m: number, s: number | null, g: number | null) => {
      const match = matches.get(m)
      return {
        match: asMatchId(m),
        matchNumber: match?.number ?? 0,
        round: asRoundNumber(match?.round ?? 0),
        squad: s === null ? null : asSquadId(s),
        margin: g,
      }
    }
    return {
      saves: rows.map((r) => {
        const before = new Map(r.changed.map((c) => [c.m, c]))
        return {
          kind: r.kind,
          receipt: receiptOf({
            id: r.id,
            kind: r.kind,
            userId: r.user_id,
            competitionId: r.competition_id,
            savedAt: new Date(r.saved_at),
            picks: r.picks,
            digest: r.digest,
          }),
          picks: r.picks.map((p) => pick(p.m, p.s, p.g)),
          changed: r.picks
            .filter((p) => before.has(p.m))
            .map((p) => {
              const was = before.get(p.m)!
              return {
                ...pick(p.m, p.s, p.g),
                was: was.s === null ? null : { squad: asSquadId(was.s), margin: was.g },
              }
            }),
        }
      }),
    }
  }

  /**
   * Whether a receipt is genuine: its id names a stored save, the digest is the one issued for it,
   * and this server's key signs the stored save to that digest (so an edited log row fails too).
   * An unknown id and a wrong digest answer alike: the check tells nothing about other saves.
   */
  async check(id: string, digest: string): Promise<ReceiptCheckResponse> {
    const row = await saveById(this.db, id)
    if (!row || !this.signer.matches(row, row.digest, digest))
      return { genuine: false, savedAt: null }
    return { genuine: true, savedAt: row.savedAt.toISOString() }
  }
}

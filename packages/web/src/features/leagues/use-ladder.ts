import { LADDER_PAGE_SIZE } from '@tipping/contract/constants'
import type { RankingRow } from '@tipping/contract/scores'
import { failureMessage } from '../../lib/api.ts'

export interface LadderPage {
  rankings: RankingRow[]
  nextPage: number | null
  user: RankingRow | null
}

export interface LadderState {
  rows: RankingRow[]
  /** The caller's row, shown above the table only when it ranks beyond the first page (spec 4). */
  pinned: RankingRow | null
  nextPage: number | null
  loading: boolean
  error: string | null
  loadMore: () => void
}

/** Spec 4 "Ladder display": pages appended until there is no next page; the caller's row moved to
 * the top when it ranks beyond 20, and then not repeated in the appended list. */
export function arrangeLadder(
  pages: readonly LadderPage[],
  userId: number,
): { rows: RankingRow[]; pinned: RankingRow | null } {
  const user = pages[0]?.user ?? null
  const all = pages.flatMap((p) => p.rankings)
  if (user && user.rank > LADDER_PAGE_SIZE) {
    return { rows: all.filter((r) => r.userId !== userId), pinned: user }
  }
  return { rows: all, pinned: null }
}

/** What the ladder table needs of a paged ladder's infinite query. */
export interface LadderQuery {
  /** The pages of the arguments asked for now (none while another ladder's are shown). */
  currentData?: { pages: readonly LadderPage[] }
  isFetching: boolean
  isFetchingNextPage: boolean
  hasNextPage: boolean
  error?: unknown
  fetchNextPage: () => unknown
}

/**
 * A ladder's infinite query as the table shows it: the pages so far, arranged; "Load more" asks
 * for the next. A new league, week or search starts again at page 1 (another cache entry).
 */
export function ladderOf(query: LadderQuery, userId: number): LadderState {
  const pages = query.currentData?.pages ?? []
  const { rows, pinned } = arrangeLadder(pages, userId)
  const loading = query.isFetchingNextPage || (query.isFetching && pages.length === 0)
  const nextPage = query.hasNextPage ? (pages.at(-1)?.nextPage ?? null) : null
  return {
    rows,
    pinned,
    nextPage,
    loading,
    error: query.error ? failureMessage(query.error, 'Could not load the ladder') : null,
    loadMore: () => {
      if (nextPage !== null && !loading) void query.fetchNextPage()
    },
  }
}

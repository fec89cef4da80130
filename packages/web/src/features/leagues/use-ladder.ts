import { useCallback, useEffect, useRef, useState } from 'react'
import { LADDER_PAGE_SIZE } from '@tipping/contract/constants'
import type { RankingRow } from '@tipping/contract/scores'

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

/** Loads a ladder page by page; `key` changing (league, round, search) starts again at page 1. */
export function useLadder(
  fetchPage: (page: number) => Promise<LadderPage>,
  key: string,
  userId: number,
): LadderState {
  const [pages, setPages] = useState<LadderPage[]>([])
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage
  const generation = useRef(0)

  const load = useCallback((page: number) => {
    const mine = ++generation.current
    setLoading(true)
    fetchRef
      .current(page)
      .then((p) => {
        if (mine !== generation.current) return
        setPages((prev) => (page === 1 ? [p] : [...prev, p]))
        setError(null)
      })
      .catch((err: unknown) => {
        if (mine !== generation.current) return
        setError(err instanceof Error ? err.message : 'Could not load the ladder')
      })
      .finally(() => {
        if (mine === generation.current) setLoading(false)
      })
  }, [])

  useEffect(() => {
    setPages([])
    load(1)
  }, [key, load])

  const nextPage = pages.at(-1)?.nextPage ?? null
  const { rows, pinned } = arrangeLadder(pages, userId)
  return {
    rows,
    pinned,
    nextPage,
    loading,
    error,
    loadMore: () => {
      if (nextPage !== null && !loading) load(nextPage)
    },
  }
}

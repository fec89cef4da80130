import { Link } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import { readStored, writeStored } from '../../lib/storage.ts'
import { Modal } from '../../ui/modal.tsx'
import styles from './join-prompt.module.css'

const key = (userId: number) => `joinPrompt_${userId}`

export const joinPromptSeen = (userId: number): boolean => readStored(key(userId)) === 'shown'
export const rememberJoinPrompt = (userId: number): void => writeStored(key(userId), 'shown')

/**
 * Spec 4 "Join prompt": after saving or autopicking, once per user, when the user is in no league,
 * is new to the game, and has picked every open match of the round. The specification's "overall
 * rank is 0" stood for a new tipper; every registered tipper is now ranked from the moment they
 * register (GAME_RULES "Who is ranked"), so a new tipper is one with no rank or no points yet.
 */
export function shouldPromptToJoin(o: {
  userId: number
  leagueCount: number
  overallRank: number
  overallPoints: number
  allOpenPicked: boolean
}): boolean {
  return (
    o.userId > 0 &&
    o.leagueCount === 0 &&
    (o.overallRank === 0 || o.overallPoints === 0) &&
    o.allOpenPicked &&
    !joinPromptSeen(o.userId)
  )
}

export function JoinPrompt({
  open,
  sport,
  onClose,
}: {
  open: boolean
  sport: Sport
  onClose: () => void
}) {
  return (
    <Modal open={open} title="Part of a League yet?" onClose={onClose}>
      <p>
        Tipping is better with mates. Join a league with a code from a friend, or start your own and
        invite them.
      </p>
      <div className={styles.actions}>
        <Link className={styles.primary} to={`/${sport}/leagues/join`} onClick={onClose}>
          Join a league
        </Link>
        <Link className={styles.secondary} to={`/${sport}/leagues/create`} onClick={onClose}>
          Create a league
        </Link>
      </div>
    </Modal>
  )
}

import shared from './numbers-page.module.css'

/** The parts every numbers page shares (numbers-page.module.css). */
export type NumbersPagePart = 'page' | 'card' | 'intro' | 'stats' | 'stat' | 'tableWrap' | 'table'
const PARTS: readonly NumbersPagePart[] = [
  'page',
  'card',
  'intro',
  'stats',
  'stat',
  'tableWrap',
  'table',
]

/**
 * A numbers page's class for each shared part: the shared class, then the page's own class of the
 * same name when its module has one (what it tightens on a phone). Joined here rather than by
 * `composes: … from` another folder's module, which made the build warn (PostCSS parsed the
 * other file without a `from`) and loaded the shared sheet once per page module.
 */
export function numbersPageClasses(
  own: Readonly<Record<string, string | undefined>>,
): Readonly<Record<NumbersPagePart, string>> {
  const classes = {} as Record<NumbersPagePart, string>
  for (const part of PARTS) classes[part] = [shared[part], own[part]].filter(Boolean).join(' ')
  return classes
}

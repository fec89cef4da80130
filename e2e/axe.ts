import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'

/** axe's WCAG 2.1 AA findings on the page as it is, one line each: the rule and where it failed. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return result.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}

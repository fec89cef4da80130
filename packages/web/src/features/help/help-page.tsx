import { useId, useState } from 'react'
import { Link, NavLink, useParams } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import type { Faq } from '@tipping/contract/content'
import { Spinner } from '../../ui/spinner.tsx'
import { sportLabel, useSport } from '../../lib/sport.ts'
import { helpViewFor, paragraphsOf, useHelp, type HelpContent } from './help-data.ts'
import styles from './help.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

/** `/{sport}/help` and `/{sport}/help/{section}`: FAQ, guidelines, game rules and prizes. */
export default function HelpPage() {
  const params = useParams()
  const sport = useSport()
  const content = useHelp(sport)
  const view =
    content === null || content === 'failed' ? null : helpViewFor(content, params.section)
  const help = `${sportLabel(sport)} Tipping help`
  usePageTitle(view?.kind === 'page' ? `${view.page.title} · ${help}` : help)

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{help}</h1>
      {content === null ? (
        <Spinner label="Loading help" />
      ) : content === 'failed' ? (
        <p role="alert">Help could not be loaded. Please try again in a moment.</p>
      ) : (
        <HelpBody sport={sport} content={content} section={params.section} />
      )}
    </div>
  )
}

function HelpBody({
  sport,
  content,
  section,
}: {
  sport: Sport
  content: HelpContent
  section: string | undefined
}) {
  const view = helpViewFor(content, section)
  const tab = ({ isActive }: { isActive: boolean }) =>
    `${styles.tab} ${isActive ? styles.tabActive : ''}`
  return (
    <>
      <nav aria-label="Help sections" className={styles.tabs}>
        <NavLink
          to={`/${sport}/help`}
          end
          className={({ isActive }) => tab({ isActive: isActive || view.kind === 'faq' })}
        >
          FAQ
        </NavLink>
        {content.pages.map((p) => (
          <NavLink key={p.section} to={`/${sport}/help/${p.section}`} className={tab}>
            {p.title}
          </NavLink>
        ))}
        <NavLink to={`/${sport}/help/contact`} className={tab}>
          Contact us
        </NavLink>
      </nav>
      {view.kind === 'faq' ? (
        <section aria-labelledby="faq-heading">
          <h2 id="faq-heading" className={styles.heading}>
            Frequently asked questions
          </h2>
          {content.faqs.length === 0 ? (
            <p>No questions have been published yet.</p>
          ) : (
            <div className={styles.accordion}>
              {content.faqs.map((faq, i) => (
                <FaqItem key={i} faq={faq} />
              ))}
            </div>
          )}
        </section>
      ) : view.kind === 'page' ? (
        <article aria-labelledby="help-heading">
          <h2 id="help-heading" className={styles.heading}>
            {view.page.title}
          </h2>
          {paragraphsOf(view.page.body).map((p, i) => (
            <p key={i} className={styles.paragraph}>
              {p}
            </p>
          ))}
        </article>
      ) : (
        <section aria-labelledby="help-heading">
          <h2 id="help-heading" className={styles.heading}>
            No such help page
          </h2>
          <p>
            There is no help section called &ldquo;{view.section}&rdquo;.{' '}
            <Link to={`/${sport}/help`}>See the questions people ask most</Link>.
          </p>
        </section>
      )}
      <p className={styles.more}>
        Not answered here? <Link to={`/${sport}/help/contact`}>Send us a message</Link>.
      </p>
    </>
  )
}

/** One accordion entry: a button with aria-expanded that shows or hides its answer. */
function FaqItem({ faq }: { faq: Faq }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <div className={styles.item}>
      <h3 className={styles.question}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          <span>{faq.question}</span>
          <span aria-hidden="true" className={styles.chevron}>
            {open ? '−' : '+'}
          </span>
        </button>
      </h3>
      <div id={id} className={styles.answer} hidden={!open}>
        {paragraphsOf(faq.answer).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
    </div>
  )
}

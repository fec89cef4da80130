import { Link } from 'react-router'
import { Panel } from '../../ui/panel.tsx'

export default function NotFoundPage() {
  return (
    <Panel title="Page not found">
      <p>That page is not on the team sheet. Check the address, or head back to the start.</p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </Panel>
  )
}
